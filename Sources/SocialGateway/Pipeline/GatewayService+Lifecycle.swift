import Foundation
import SocialDomain

/// What the server asks the service around requests rather than in them: readiness, and the
/// state a restart must not lose.
extension GatewayService {
    /// Whether the backend answers a read now (one batched lookup of a profile id that does not
    /// exist): what `/readyz` asks before a load balancer sends traffic.
    public func checkBackend() async throws {
        _ = try await stores.profiles.profiles(ids: [Self.readinessProbeID], viewer: .anonymous)
    }

    /// Reads the sessions that ended lately (before this process started) into
    /// ``GatewayOptions/endedSessions``, so that a restart forgets no sign-out.
    public func restoreEndedSessions() async throws {
        let ended = options.endedSessions
        ended.apply(try await stores.accounts.recentlyEndedSessions(since: Date().addingTimeInterval(-ended.retention)))
    }

    private static let readinessProbeID = UUID(uuidString: "00000000-0000-4000-8000-000000000000")!
}
