import Foundation
import SocialDomain

/// What a transaction is run as: the database role and the `request.jwt.claims` JSON, set the
/// way PostgREST sets them so that `auth.uid()`, `auth.jwt()` and the policies read the same.
///
/// The role is `authenticated` for a signed-in viewer and `anon` otherwise, whatever the token's
/// own `role` claim says: a request is never run as a role that bypasses RLS. The claims are the
/// token's payload (the server verified its signature, expiry and audience before the viewer
/// reached a store), with `sub` and `role` set to what the gateway decided.
struct ViewerClaims: Sendable, Equatable {
    var role: String
    var json: String

    init(role: String, json: String) {
        self.role = role
        self.json = json
    }

    /// The gateway's own reads of the graph unfiltered (``PostgresStore``'s
    /// ``SocialDomain/GraphSnapshotStore``), never a request's: Supabase's `service_role`, which
    /// bypasses row-level security. The gateway's memory applies the domain's rule to what they
    /// read, and the differential tests hold it to the policies' answers.
    static let unfiltered = ViewerClaims(role: "service_role", json: #"{"role":"service_role"}"#)

    init(_ viewer: Viewer) {
        guard case .user(let id, let token) = viewer else {
            role = "anon"
            json = #"{"role":"anon"}"#
            return
        }
        role = "authenticated"
        var claims = Self.payload(of: token) ?? [:]
        claims["sub"] = id.lowercased
        claims["role"] = "authenticated"
        let data = (try? JSONSerialization.data(withJSONObject: claims, options: [.sortedKeys, .withoutEscapingSlashes]))
            ?? Data(#"{"role":"authenticated","sub":"\#(id.lowercased)"}"#.utf8)
        json = String(decoding: data, as: UTF8.self)
    }

    /// The JSON object in a JWS compact token's payload segment, or nil when it has none.
    static func payload(of token: String) -> [String: Any]? {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[1].utf8.count <= 16_384 else { return nil }
        var base64 = parts[1].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        guard let data = Data(base64Encoded: base64) else { return nil }
        return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
    }
}
