import Foundation

/// Who is asking: nobody, or a signed-in user with the session of the bearer token they presented.
///
/// Stores decide visibility by the viewer (the embedded store emulates row-level security,
/// the Supabase store forwards ``token`` so that RLS decides). Use cases check ownership first.
///
/// ```swift
/// let viewer = Viewer.user(id: aliceId, token: rawJWT)
/// ```
public enum Viewer: Sendable, Hashable {
    case anonymous
    /// A signed-in user: the session read once from the verified token (``Session``).
    case user(Session)

    /// A signed-in user with the verified token `token` (its session read from it).
    public static func user(id: UUID, token: String) -> Viewer {
        .user(Session(userId: id, verifiedToken: token))
    }

    /// The signed-in user's id, or nil when anonymous.
    public var userId: UUID? {
        switch self {
        case .anonymous: nil
        case .user(let session): session.userId
        }
    }

    /// The raw token to forward to a backend that checks it itself.
    public var token: String? {
        switch self {
        case .anonymous: nil
        case .user(let session): session.token
        }
    }

    /// The signed-in user's session, or nil when anonymous.
    public var session: Session? {
        switch self {
        case .anonymous: nil
        case .user(let session): session
        }
    }
}
