import Foundation
@testable import PostgresStore
import SocialDomain
import SocialFixtures
import SupabaseFake
import Testing

/// The claims a PostgreSQL call runs with are the viewer's session's, read once when its token was
/// verified (issue 53: the token is no longer decoded again per store call): the token's claims,
/// with `sub` and `role` the gateway's.
@Suite struct ViewerClaimsTests {
    @Test("a signed-in viewer runs as authenticated with its own sub, whatever the token says; the token's other claims are kept")
    func claimsAreTheSessions() {
        let alice = Viewer.user(id: DemoData.aliceId, token: SupabaseFake.token(for: DemoData.aliceId))
        let claims = ViewerClaims(alice)
        #expect(claims.role == "authenticated")
        #expect(claims.json == alice.session?.claimsJSON)
        #expect(claims.json.contains(#""sub":"\#(DemoData.aliceId.lowercased)""#))
        let forged = Viewer.user(
            id: DemoData.aliceId, token: "x." + Data(#"{"role":"service_role","sub":"someone","tier":"gold"}"#.utf8).base64EncodedString() + ".y")
        let forgedClaims = ViewerClaims(forged)
        #expect(forgedClaims.json.contains(#""tier":"gold""#))
        #expect(forgedClaims.json.contains(#""role":"authenticated""#))
        #expect(forgedClaims.json.contains(#""sub":"\#(DemoData.aliceId.lowercased)""#))
        #expect(!forgedClaims.json.contains("service_role"))
    }

    @Test("an anonymous viewer runs as anon; a token without a payload gives its user's sub and role alone")
    func anonymousAndBareTokens() {
        #expect(ViewerClaims(.anonymous) == ViewerClaims(role: "anon", json: #"{"role":"anon"}"#))
        let bare = ViewerClaims(.user(id: DemoData.bobId, token: "not-a-jwt"))
        #expect(bare.json == #"{"role":"authenticated","sub":"\#(DemoData.bobId.lowercased)"}"#)
    }
}
