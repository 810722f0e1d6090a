import Foundation
@testable import PostgresStore
import SocialDomain
import SocialFixtures
import SupabaseFake
import Testing

/// The claims a PostgreSQL call runs with come from a cache keyed by the viewer (id and token):
/// what it answers must be exactly what building them answers, per token, and it stays bounded.
@Suite struct ViewerClaimsCacheTests {
    @Test func keptClaimsAreTheBuiltOnesForTheSameViewer() {
        let cache = ViewerClaimsCache()
        let alice = Viewer.user(id: DemoData.aliceId, token: SupabaseFake.token(for: DemoData.aliceId))
        let first = cache.claims(for: alice)
        #expect(first == ViewerClaims(alice))
        #expect(first.role == "authenticated")
        #expect(first.json.contains(#""sub":"\#(DemoData.aliceId.lowercased)""#))
        #expect(cache.claims(for: alice) == first)
        #expect(cache.count == 1)
    }

    @Test func anotherTokenOrViewerIsAnotherEntry() {
        let cache = ViewerClaimsCache()
        let alice = Viewer.user(id: DemoData.aliceId, token: SupabaseFake.token(for: DemoData.aliceId))
        let forged = Viewer.user(id: DemoData.aliceId, token: "x." + Data(#"{"role":"service_role","sub":"someone","tier":"gold"}"#.utf8).base64EncodedString() + ".y")
        let bob = Viewer.user(id: DemoData.bobId, token: SupabaseFake.token(for: DemoData.bobId))
        _ = cache.claims(for: alice)
        // Same id, another token: its own claims (the token's extra claim kept, role and sub the gateway's).
        let forgedClaims = cache.claims(for: forged)
        #expect(forgedClaims.json.contains(#""tier":"gold""#))
        #expect(forgedClaims.json.contains(#""role":"authenticated""#))
        #expect(!forgedClaims.json.contains("service_role"))
        #expect(cache.claims(for: bob).json.contains(#""sub":"\#(DemoData.bobId.lowercased)""#))
        #expect(cache.claims(for: .anonymous) == ViewerClaims(.anonymous))
        #expect(cache.count == 3)   // anonymous is not kept: it costs nothing to build
    }

    @Test func aFullCacheStartsOver() {
        let cache = ViewerClaimsCache(capacity: 2)
        let viewers = (0..<3).map { Viewer.user(id: DemoData.aliceId, token: "t\($0)") }
        for viewer in viewers { _ = cache.claims(for: viewer) }
        #expect(cache.count == 1)
        #expect(cache.claims(for: viewers[0]) == ViewerClaims(viewers[0]))
    }
}
