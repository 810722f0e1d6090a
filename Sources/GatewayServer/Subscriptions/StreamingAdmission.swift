import SocialGateway
import Synchronization

/// The bounds on streaming connections that hold no viewer's quota yet (issue 51, item 4):
/// every WebSocket and event stream of the replica together
/// (``SocialGateway/SubscriptionLimits/maxConnections``, below the file descriptor limit), and
/// the WebSockets of one client address that are not signed in: before their `connection_init`,
/// and anonymous ones (``SocialGateway/SubscriptionLimits/connectionsPerAddress``). A signed-in
/// connection moves from its address's count to its viewer's
/// (``SocialGateway/SubscriptionLimits/connectionsPerViewer``).
///
/// A WebSocket upgrade over either bound is refused before it is upgraded (``refusal(address:)``:
/// 503 or 429 with `Retry-After`); one that slips past in a race is closed at once with 1013.
///
/// ```swift
/// guard admission.openSocket(address: peer) else { close(1013) }
/// defer { admission.closeSocket(address: peer, signedIn: signedIn) }
/// ```
final class StreamingAdmission: Sendable {
    private struct State {
        var open = 0
        var byAddress: [String: Int] = [:]
    }

    let maxConnections: Int
    let perAddress: Int
    private let state = Mutex(State())

    init(limits: SubscriptionLimits) {
        maxConnections = max(1, limits.maxConnections)
        perAddress = max(1, limits.connectionsPerAddress)
    }

    /// Why a new WebSocket from `address` would be refused now; nil when it would be admitted.
    func refusal(address: String?) -> GatewayHTTPError? {
        state.withLock { state in
            if state.open >= maxConnections { return .tooManyStreams(perAddress: false, limit: maxConnections) }
            if state.byAddress[address ?? "", default: 0] >= perAddress { return .tooManyStreams(perAddress: true, limit: perAddress) }
            return nil
        }
    }

    /// Takes a place for a WebSocket not signed in yet; false when a bound is reached.
    func openSocket(address: String?) -> Bool {
        state.withLock { state in
            let key = address ?? ""
            guard state.open < maxConnections, state.byAddress[key, default: 0] < perAddress else { return false }
            state.open += 1
            state.byAddress[key, default: 0] += 1
            return true
        }
    }

    /// The socket signed in: it no longer counts against its address.
    func signedIn(address: String?) {
        state.withLock { Self.releaseAddress(&$0, address) }
    }

    /// The socket closed; `signedIn` when ``signedIn(address:)`` was called for it.
    func closeSocket(address: String?, signedIn: Bool) {
        state.withLock { state in
            state.open -= 1
            if !signedIn { Self.releaseAddress(&state, address) }
        }
    }

    /// Takes a place for an event stream (signed in: its viewer's quota bounds the rest).
    func openStream() -> Bool {
        state.withLock { state in
            guard state.open < maxConnections else { return false }
            state.open += 1
            return true
        }
    }

    func closeStream() { state.withLock { $0.open -= 1 } }

    /// Streaming connections open now.
    var open: Int { state.withLock { $0.open } }

    private static func releaseAddress(_ state: inout State, _ address: String?) {
        let key = address ?? ""
        let held = state.byAddress[key, default: 0] - 1
        state.byAddress[key] = held > 0 ? held : nil
    }
}
