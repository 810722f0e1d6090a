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
/// A WebSocket over either bound is upgraded and closed at once with 1013 ("Try Again Later",
/// RFC 6455) and a reason naming the bound: Hummingbird answers a declined upgrade with a bare
/// 400, which would say nothing. An event stream over the total is refused with 503.
///
/// ```swift
/// if let refusal = admission.openSocket(address: peer) { close(1013, refusal.reason) }
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

    /// Why a socket is refused.
    enum Refusal: Sendable, Hashable {
        /// Its address holds ``perAddress`` sockets not signed in.
        case perAddress(limit: Int)
        /// The replica holds ``maxConnections`` streaming connections.
        case total(limit: Int)

        /// The close reason (at most 123 bytes).
        var reason: String {
            switch self {
            case .perAddress(let limit): "Try again later: this address holds \(limit) sockets not signed in"
            case .total(let limit): "Try again later: the server holds \(limit) streaming connections"
            }
        }
    }

    /// Takes a place for a WebSocket not signed in yet; why not when a bound is reached.
    func openSocket(address: String?) -> Refusal? {
        state.withLock { state in
            let key = address ?? ""
            guard state.open < maxConnections else { return .total(limit: maxConnections) }
            guard state.byAddress[key, default: 0] < perAddress else { return .perAddress(limit: perAddress) }
            state.open += 1
            state.byAddress[key, default: 0] += 1
            return nil
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
