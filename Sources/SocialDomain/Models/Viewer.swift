import Foundation

/// Who is asking: nobody, or a signed-in user with the raw bearer token they presented.
///
/// Stores decide visibility by the viewer (the embedded store emulates row-level security,
/// the Supabase store forwards ``token`` so that RLS decides). Use cases check ownership first.
///
/// ```swift
/// let viewer = Viewer.user(id: aliceId, token: rawJWT)
/// ```
public enum Viewer: Sendable, Hashable {
    case anonymous
    case user(id: UUID, token: String)

    /// The signed-in user's id, or nil when anonymous.
    public var userId: UUID? {
        switch self {
        case .anonymous: nil
        case .user(let id, _): id
        }
    }

    /// The raw token to forward to a backend that checks it itself.
    public var token: String? {
        switch self {
        case .anonymous: nil
        case .user(_, let token): token
        }
    }
}
