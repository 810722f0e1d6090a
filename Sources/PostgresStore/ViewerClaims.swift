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

    /// The viewer's claims: its session's, read once when its token was verified
    /// (``SocialDomain/Session/claimsJSON``), or `anon`'s.
    init(_ viewer: Viewer) {
        guard let session = viewer.session else {
            role = "anon"
            json = #"{"role":"anon"}"#
            return
        }
        role = "authenticated"
        json = session.claimsJSON
    }
}
