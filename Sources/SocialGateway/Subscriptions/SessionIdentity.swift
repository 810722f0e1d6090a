import Foundation
import SocialDomain

/// The session a live connection or subscription belongs to, read once from its verified token,
/// so that every operation and every event can ask ``EndedSessions`` whether it ended since
/// (a sign-out, a password change or reset, here or on another replica) without reading the
/// token again: two dictionary lookups under a lock.
///
/// ```swift
/// let session = SessionIdentity(viewer: viewer)
/// if session?.hasEnded(in: ended) == true { /* close with 4403 */ }
/// ```
public struct SessionIdentity: Sendable, Hashable {
    public let user: UUID
    public let session: UUID?
    public let issuedAt: Date?

    public init(user: UUID, session: UUID?, issuedAt: Date?) {
        self.user = user
        self.session = session
        self.issuedAt = issuedAt
    }

    /// The identity of a signed-in viewer's token; nil for an anonymous viewer.
    public init?(viewer: Viewer) {
        guard let session = viewer.session else { return nil }
        self.init(user: session.userId, session: session.sessionId, issuedAt: session.issuedAt)
    }

    /// Whether the session has ended (its tokens are refused over HTTP now).
    public func hasEnded(in ended: EndedSessions) -> Bool {
        ended.isEnded(user: user, session: session, issuedAt: issuedAt)
    }

    /// Whether one of `ends` concerns this identity's user (then ``hasEnded(in:)`` decides).
    public func isConcerned(by ends: [SessionEnd]) -> Bool {
        ends.contains { end in
            switch end {
            case .session(let id, let owner, _): owner == user || id == session
            case .allSessions(let owner, _, _): owner == user
            }
        }
    }
}
