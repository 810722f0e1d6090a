import Foundation
import GraphQLEngine
import SocialDomain

/// When a bearer token stops being valid: its `exp` claim. Read only from a token the
/// ``JWTAuthenticator`` has already verified, so that a streaming connection can be closed when
/// its token expires rather than outlive it.
enum TokenExpiry {
    static func of(_ token: String) -> Date? {
        let segments = token.split(separator: ".", omittingEmptySubsequences: false)
        guard segments.count == 3, let bytes = Base64URL.decode(segments[1]),
              case .object(let claims)? = try? JSONParser.parse(bytes, maxValues: 1_000)
        else { return nil }
        switch claims["exp"] {
        case .int(let seconds)?: return Date(timeIntervalSince1970: TimeInterval(seconds))
        case .double(let seconds)?: return Date(timeIntervalSince1970: seconds)
        default: return nil
        }
    }
}
