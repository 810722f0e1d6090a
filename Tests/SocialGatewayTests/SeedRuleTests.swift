import Foundation
import GatewayTestSupport
import GraphQLEngine
import SocialDomain
import SocialFixtures
@testable import SocialGateway
import Testing

/// Issue 40, the seeds' last rules on every store: `like`/`unlike` safe to repeat beside
/// `toggleLike`, and seed 000's search ranked (exact handle, then prefix, then the rest).
@Suite("Seed rules: idempotent likes, ranked search")
struct SeedRuleTests {
    static let payload = "liked likeCount post { likeCount viewerHasLiked }"

    func like(_ gateway: GatewayFixture, _ field: String, _ post: String, as viewer: Viewer) async throws -> JSONValue {
        let result = try await gateway.run(
            "mutation($id: ID!) { \(field)(postId: $id) { \(Self.payload) } }", ["id": .string(post)], viewer: viewer)
        #expect(result.json["errors"] == nil, "\(result.json)")
        return result.json["data"]?[field] ?? .null
    }

    @Test("like twice: one like, count 1, both answers liked", arguments: StoreKind.allCases)
    func likeTwice(_ kind: StoreKind) async throws {
        try await GatewayFixture.run(kind) { gateway in
            let post = DemoData.postId(3).lowercased  // carol's, no likes yet
            let liked: JSONValue = ["liked": true, "likeCount": 1, "post": ["likeCount": 1, "viewerHasLiked": true]]
            #expect(try await like(gateway, "like", post, as: gateway.alice) == liked)
            #expect(try await like(gateway, "like", post, as: gateway.alice) == liked)
            let read = try await gateway.run(#"{ post(id: "\#(post)") { likeCount viewerHasLiked } }"#, viewer: gateway.alice)
            #expect(read.json["data"]?["post"] == ["likeCount": 1, "viewerHasLiked": true])
        }
    }

    @Test("unlike twice: no like, count 0; unlike of a post never liked changes nothing", arguments: StoreKind.allCases)
    func unlikeTwice(_ kind: StoreKind) async throws {
        try await GatewayFixture.run(kind) { gateway in
            let post = DemoData.postId(3).lowercased
            let none: JSONValue = ["liked": false, "likeCount": 0, "post": ["likeCount": 0, "viewerHasLiked": false]]
            #expect(try await like(gateway, "unlike", post, as: gateway.bob) == none)   // never liked
            _ = try await like(gateway, "like", post, as: gateway.alice)
            _ = try await like(gateway, "like", post, as: gateway.bob)
            #expect(try await like(gateway, "unlike", post, as: gateway.bob)
                == ["liked": false, "likeCount": 1, "post": ["likeCount": 1, "viewerHasLiked": false]])
            #expect(try await like(gateway, "unlike", post, as: gateway.bob)
                == ["liked": false, "likeCount": 1, "post": ["likeCount": 1, "viewerHasLiked": false]])
            #expect(try await like(gateway, "unlike", post, as: gateway.alice) == none)
            #expect(try await like(gateway, "unlike", post, as: gateway.alice) == none)
        }
    }

    @Test("like then toggleLike: unliked, count back to 0", arguments: StoreKind.allCases)
    func likeThenToggle(_ kind: StoreKind) async throws {
        try await GatewayFixture.run(kind) { gateway in
            let post = DemoData.postId(3).lowercased
            _ = try await like(gateway, "like", post, as: gateway.alice)
            #expect(try await like(gateway, "toggleLike", post, as: gateway.alice)
                == ["liked": false, "likeCount": 0, "post": ["likeCount": 0, "viewerHasLiked": false]])
        }
    }

    @Test("like and unlike: signed out is told to sign in; a missing or hidden post is NOT_FOUND", arguments: StoreKind.allCases)
    func likeErrors(_ kind: StoreKind) async throws {
        try await GatewayFixture.run(kind) { gateway in
            for field in ["like", "unlike"] {
                let anonymous = try await gateway.run(
                    "mutation($id: ID!) { \(field)(postId: $id) { liked } }", ["id": .string(DemoData.postId(3).lowercased)])
                #expect(GatewayFixture.messages(anonymous.json) == ["You must be logged in to like posts"], "\(field)")
                let missing = try await gateway.run(
                    "mutation($id: ID!) { \(field)(postId: $id) { liked } }", ["id": "00000000-0000-4000-8000-0000000000ff"],
                    viewer: gateway.alice)
                #expect(GatewayFixture.codes(missing.json) == ["NOT_FOUND"], "\(field)")
                #expect(GatewayFixture.messages(missing.json) == ["Post not found"], "\(field)")
            }
        }
    }

    @Test("concurrent likes and unlikes by three viewers leave the count equal to the likes", arguments: StoreKind.allCases)
    func concurrentLikes(_ kind: StoreKind) async throws {
        try await GatewayFixture.run(kind) { gateway in
            let post = DemoData.postId(3).lowercased
            try await withThrowingTaskGroup(of: Void.self) { group in
                for viewer in [gateway.alice, gateway.bob, gateway.carol] {
                    for _ in 0..<5 {
                        group.addTask { _ = try await gateway.run(#"mutation { like(postId: "\#(post)") { liked } }"#, viewer: viewer) }
                    }
                }
                try await group.waitForAll()
            }
            let read = try await gateway.run(#"{ post(id: "\#(post)") { likeCount } }"#, viewer: gateway.carol)
            #expect(read.json["data"]?["post"]?["likeCount"] == 3)
        }
    }

    // MARK: search

    /// Public profiles with these handles, each store its own way (the gateway creates none
    /// without an account): the embedded store's createProfile, the fake's table, or an auth
    /// user whose handle_new_user trigger makes the profile.
    func addProfiles(_ handles: [String], to gateway: GatewayFixture) async throws {
        for handle in handles {
            let id = UUID()
            switch gateway.store.kind {
            case .embedded: try await #require(gateway.store.embedded).createProfile(id: id, handle: handle)
            case .supabase:
                let now = Date()
                try await #require(gateway.store.fake).addProfile(Profile(id: id, handle: handle, createdAt: now, updatedAt: now))
            case .postgres:
                try await #require(gateway.store.database).execute("""
                    insert into auth.users (id, email, raw_user_meta_data)
                    values ('\(id.lowercased)', '\(handle.lowercased())@example.test', '{"handle": "\(handle)"}')
                    """)
            }
        }
    }

    func search(_ gateway: GatewayFixture, _ query: String, first: Int, after: String? = nil) async throws -> JSONValue {
        let result = try await gateway.run(
            "query($q: String!, $n: Int, $a: String) { searchProfiles(query: $q, first: $n, after: $a) { nodes { handle } pageInfo { hasNextPage endCursor } } }",
            ["q": .string(query), "n": .int(first), "a": after.map(JSONValue.string) ?? .null], viewer: gateway.alice)
        return result.json
    }

    @Test("search \"bob\": the exact handle first (any case), then handles starting with it, then the rest by handle",
          arguments: StoreKind.allCases)
    func searchRanking(_ kind: StoreKind) async throws {
        try await GatewayFixture.run(kind) { gateway in
            try await addProfiles(["alice_bob", "bobby", "BOB2", "Bob", "zz_bob", "a_bobcat"], to: gateway)
            let json = try await search(gateway, "bOB", first: 50)
            let handles = json["data"]?["searchProfiles"]?["nodes"]?.arrayValue?.compactMap { $0["handle"]?.stringValue }
            #expect(handles == ["Bob", "BOB2", "bob_builder", "bobby", "a_bobcat", "alice_bob", "zz_bob"], "\(json)")
        }
    }

    @Test("paging the ranked search with first: 1 gives the same order, without repeats, to the end", arguments: StoreKind.allCases)
    func searchPaging(_ kind: StoreKind) async throws {
        try await GatewayFixture.run(kind) { gateway in
            try await addProfiles(["alice_bob", "bobby", "BOB2", "Bob", "zz_bob", "a_bobcat"], to: gateway)
            let all = try await search(gateway, "bob", first: 50)["data"]?["searchProfiles"]?["nodes"]?.arrayValue?
                .compactMap { $0["handle"]?.stringValue } ?? []
            var paged: [String] = [], after: String?
            for _ in 0..<20 {
                let page = try await search(gateway, "bob", first: 1, after: after)["data"]?["searchProfiles"]
                paged += page?["nodes"]?.arrayValue?.compactMap { $0["handle"]?.stringValue } ?? []
                guard page?["pageInfo"]?["hasNextPage"] == true else { break }
                after = page?["pageInfo"]?["endCursor"]?.stringValue
            }
            #expect(all.count == 7)
            #expect(paged == all)
        }
    }

    @Test("a search cursor written before ranking is BAD_USER_INPUT with the cursor message", arguments: StoreKind.allCases)
    func searchOldCursor(_ kind: StoreKind) async throws {
        try await GatewayFixture.run(kind) { gateway in
            let old = Base64URL.encode(Array("v1:search:bob_builder:\(DemoData.bobId.uuidString.lowercased())".utf8))
            let json = try await search(gateway, "bob", first: 1, after: old)
            #expect(GatewayFixture.codes(json) == ["BAD_USER_INPUT"])
            #expect(GatewayFixture.messages(json) == ["after is not a valid cursor for this list"])
        }
    }
}

extension SubscriptionHubTests {
    @Test("notifications: a repeated like tells the post's author once; unlikes tell nothing", arguments: StoreKind.allCases)
    func repeatedLikeNotifiesOnce(_ kind: StoreKind) async throws {
        try await Live.run(kind) { live in
            let g = live.gateway
            let created = try await live.mutate(
                #"mutation { createPost(input: {content: "Like me once"}) { post { id } } }"#, viewer: g.alice)
            let post = try #require(created["data"]?["createPost"]?["post"]?["id"]?.stringValue)
            let subscription = try await live.subscribe(
                "subscription { notifications { __typename actor { handle } ... on LikeNotification { post { likeCount } } } }",
                viewer: g.alice)
            try await live.mutate("mutation($id: ID!) { like(postId: $id) { liked } }", ["id": .string(post)], viewer: g.bob)
            let first = try Self.data(await Self.next(subscription))
            #expect(first["notifications"]?["__typename"] == "LikeNotification")
            #expect(first["notifications"]?["actor"]?["handle"] == "bob_builder")
            try await live.mutate("mutation($id: ID!) { like(postId: $id) { liked } }", ["id": .string(post)], viewer: g.bob)
            try await live.mutate("mutation($id: ID!) { unlike(postId: $id) { liked } }", ["id": .string(post)], viewer: g.bob)
            try await live.mutate("mutation($id: ID!) { unlike(postId: $id) { liked } }", ["id": .string(post)], viewer: g.bob)
            let nothing = await Self.next(subscription, within: 0.5)
            #expect(nothing == nil, "a like that changed nothing, or an unlike, was told: \(String(describing: nothing))")
            subscription.cancel()
        }
    }
}

extension AccountTests {

    @Test("signUp with homeZIP (seed 000 createProfile(handle, homeZIP)): stored trimmed, seen by the owner only",
          arguments: AccountTests.providers)
    func signUpWithHomeZIP(_ kind: StoreKind) async throws {
        try await GatewayFixture.run(kind) { gateway in
            let signUp = try await gateway.run(
                "mutation S($z: String) { signUp(email: \"zip@example.com\", password: \"long-enough\", handle: \"zip_climber\", homeZIP: $z) { \(Self.payload) } }",
                ["z": " 80302-1234 "])
            #expect(signUp.json["errors"] == nil, "\(signUp.json)")
            let me = try viewer(signUp.json["data"]?["signUp"])
            let own = try await gateway.run("{ viewer { handle homeZIP } }", viewer: me)
            #expect(own.json["data"]?["viewer"] == ["handle": "zip_climber", "homeZIP": "80302-1234"])
            let other = try await gateway.run(#"{ profile(handle: "zip_climber") { homeZIP } }"#, viewer: gateway.bob)
            #expect(other.json["data"]?["profile"] == ["homeZIP": .null])
            // Without one: none.
            let plain = try await gateway.run(
                "mutation { signUp(email: \"nozip@example.com\", password: \"long-enough\", handle: \"no_zip\") { \(Self.payload) } }")
            let them = try viewer(plain.json["data"]?["signUp"])
            #expect(try await gateway.run("{ viewer { homeZIP } }", viewer: them).json["data"]?["viewer"] == ["homeZIP": .null])
        }
    }

    @Test("signUp with an invalid homeZIP: the HomeZIPRule message, field homeZIP, and no account nor profile made",
          arguments: AccountTests.providers)
    func signUpWithInvalidHomeZIP(_ kind: StoreKind) async throws {
        try await GatewayFixture.run(kind) { gateway in
            let refused = try await gateway.run(
                "mutation { signUp(email: \"bad.zip@example.com\", password: \"long-enough\", handle: \"bad_zip\", homeZIP: \"<script>\") { \(Self.payload) } }")
            #expect(GatewayFixture.codes(refused.json) == ["BAD_USER_INPUT"])
            #expect(GatewayFixture.messages(refused.json) == ["Invalid home ZIP: \(HomeZIPRule.requirement)"])
            #expect(refused.json["errors"]?.arrayValue?.first?["extensions"]?["field"] == "homeZIP")
            // Nothing was created: the email cannot sign in, the handle is free, and signing up
            // again with a good ZIP works (no EMAIL_TAKEN).
            #expect(GatewayFixture.codes(try await signIn(gateway, "bad.zip@example.com", "long-enough")) == ["UNAUTHENTICATED"])
            let free = try await gateway.run(#"{ handleAvailable(handle: "bad_zip") }"#, viewer: gateway.alice)
            #expect(free.json["data"]?["handleAvailable"] == true)
            let again = try await gateway.run(
                "mutation { signUp(email: \"bad.zip@example.com\", password: \"long-enough\", handle: \"bad_zip\", homeZIP: \"K1A 0B1\") { \(Self.payload) } }")
            #expect(again.json["errors"] == nil, "\(again.json)")
        }
    }
}

extension AccountTests {
    @Test("Account.lastLoginAt (seed 002): set by signUp (it signs in), moved by each sign-in, not by a failed one nor a refresh",
          arguments: AccountTests.providers)
    func lastLoginAt(_ kind: StoreKind) async throws {
        try await GatewayFixture.run(kind) { gateway in
            let signUp = try await gateway.run(
                "mutation { signUp(email: \"last@example.com\", password: \"long-enough\", handle: \"last_login\") { session { refreshToken } account { lastLoginAt } } }")
            #expect(signUp.json["errors"] == nil, "\(signUp.json)")
            let first = signUp.json["data"]?["signUp"]?["account"]?["lastLoginAt"]?.stringValue
            #expect(first != nil)
            try await Task.sleep(nanoseconds: 5_000_000)
            // a failed sign-in and a refresh change nothing
            #expect(GatewayFixture.codes(try await signIn(gateway, "last@example.com", "wrong-password")) == ["UNAUTHENTICATED"])
            let refreshToken = signUp.json["data"]?["signUp"]?["session"]?["refreshToken"]?.stringValue ?? ""
            let refreshed = try await gateway.run(
                "mutation R($t: String!) { refreshSession(refreshToken: $t) { account { lastLoginAt } } }", ["t": .string(refreshToken)])
            #expect(refreshed.json["data"]?["refreshSession"]?["account"]?["lastLoginAt"]?.stringValue == first)
            // a sign-in moves it
            let signedIn = try await gateway.run(
                "mutation { signIn(email: \"last@example.com\", password: \"long-enough\") { account { lastLoginAt } } }")
            let second = signedIn.json["data"]?["signIn"]?["account"]?["lastLoginAt"]?.stringValue
            #expect(second != nil && second != first)
            #expect((second ?? "") > (first ?? "~"))
        }
    }
}
