import Foundation
import GatewayTestSupport
import GraphQLEngine
import SocialDomain
import SocialFixtures
import SocialGateway
import Testing

/// Blocks (issue 40), on every store: what a block removes, how it hides each profile from the
/// other everywhere, and that cached answers never outlive it, an approval or a privacy change.
@Suite("Blocks")
struct BlockTests {
    static let alice = DemoData.aliceId.uuidString.lowercased()
    static let bob = DemoData.bobId.uuidString.lowercased()
    static let carol = DemoData.carolId.uuidString.lowercased()
    static let block = "mutation B($id: ID!) { block(profileId: $id) { blocked viewer { followerCount followingCount } } }"
    static let unblock = "mutation U($id: ID!) { unblock(profileId: $id) { blocked viewer { followingCount } } }"
    static let profile = "query P($id: ID) { profile(id: $id) { handle } }"

    @Test("a block removes the follows both ways with exact counts, and each profile is NOT_FOUND to the other, followed or not",
          arguments: StoreKind.allCases)
    func blockHides(_ kind: StoreKind) async throws {
        try await GatewayFixture.run(kind) { gateway in
            let blocked = try await gateway.run(Self.block, ["id": .string(Self.bob)], viewer: gateway.alice)
            #expect(blocked.json["errors"] == nil)
            #expect(blocked.json["data"]?["block"] == ["blocked": true, "viewer": ["followerCount": 1, "followingCount": 1]])
            let bobCounts = try await gateway.run(#"{ viewer { followerCount followingCount } }"#, viewer: gateway.bob)
            #expect(bobCounts.json["data"]?["viewer"] == ["followerCount": 1, "followingCount": 1])
            // each NOT_FOUND (null) to the other, the blocked one not told anything more
            #expect(try await gateway.run(Self.profile, ["id": .string(Self.bob)], viewer: gateway.alice).json["data"]?["profile"] == .null)
            #expect(try await gateway.run(Self.profile, ["id": .string(Self.alice)], viewer: gateway.bob).json["data"]?["profile"] == .null)
            // carol still sees both
            #expect(try await gateway.run(Self.profile, ["id": .string(Self.bob)], viewer: gateway.carol).json["data"]?["profile"] == ["handle": "bob_builder"])
            // neither can follow (or ask) the other
            let follow = "mutation F($id: ID!) { follow(profileId: $id) { following } }"
            #expect(GatewayFixture.codes(try await gateway.run(follow, ["id": .string(Self.alice)], viewer: gateway.bob).json) == ["NOT_FOUND"])
            #expect(GatewayFixture.codes(try await gateway.run(follow, ["id": .string(Self.bob)], viewer: gateway.alice).json) == ["NOT_FOUND"])
            // a third profile's lists, search, the feed, posts and comments: no trace of the other
            let lists = try await gateway.run(
                "query L($id: ID) { profile(id: $id) { followers(first: 10) { edges { node { handle } } } } }", ["id": .string(Self.carol)],
                viewer: gateway.alice)
            #expect(lists.json["data"]?["profile"]?["followers"]?["edges"] == [["node": ["handle": "alice_wonder"]]])
            let search = try await gateway.run(#"{ searchProfiles(query: "bob") { edges { node { handle } } } }"#, viewer: gateway.alice)
            #expect(search.json["data"]?["searchProfiles"]?["edges"] == [])
            let feed = try await gateway.run("{ feed(first: 20) { edges { node { author { handle } } } } }", viewer: gateway.alice)
            let authors = Set(feed.json["data"]?["feed"]?["edges"]?.arrayValue?.compactMap { $0["node"]?["author"]?["handle"]?.stringValue } ?? [])
            #expect(!authors.contains("bob_builder"))
            let bobsPost = DemoData.postId(2).lowercased
            #expect(try await gateway.run(#"{ post(id: "\#(bobsPost)") { id } }"#, viewer: gateway.alice).json["data"]?["post"] == .null)
            let comments = try await gateway.run(
                #"{ post(id: "\#(DemoData.postId(1).lowercased)") { comments(first: 10) { nodes { author { handle } } } } }"#, viewer: gateway.alice)
            let commenters = comments.json["data"]?["post"]?["comments"]?["nodes"]?.arrayValue?.compactMap { $0["author"]?["handle"]?.stringValue }
            #expect(commenters?.contains("bob_builder") == false)
            #expect(commenters?.isEmpty == false)
        }
    }

    @Test("the blocker lists the blocked as cards; unblock shows them again without the old follows; both are safe to repeat",
          arguments: StoreKind.allCases)
    func listAndUnblock(_ kind: StoreKind) async throws {
        try await GatewayFixture.run(kind) { gateway in
            _ = try await gateway.run(Self.block, ["id": .string(Self.bob)], viewer: gateway.alice)
            let again = try await gateway.run(Self.block, ["id": .string(Self.bob)], viewer: gateway.alice)
            #expect(again.json["data"]?["block"]?["blocked"] == true)
            let list = try await gateway.run(
                "{ blockedProfiles(first: 10) { totalCount edges { cursor blockedAt node { handle bio viewerCanSeeDetails } } } }", viewer: gateway.alice)
            #expect(list.json["data"]?["blockedProfiles"]?["totalCount"] == 1)
            #expect(list.json["data"]?["blockedProfiles"]?["edges"]?.arrayValue?.first?["node"]
                    == ["handle": "bob_builder", "bio": nil, "viewerCanSeeDetails": false])
            let theirs = try await gateway.run("{ blockedProfiles { totalCount } }", viewer: gateway.bob)
            #expect(theirs.json["data"]?["blockedProfiles"]?["totalCount"] == 0)   // bob is never told
            let unblocked = try await gateway.run(Self.unblock, ["id": .string(Self.bob)], viewer: gateway.alice)
            #expect(unblocked.json["data"]?["unblock"] == ["blocked": false, "viewer": ["followingCount": 1]])
            #expect(try await gateway.run(Self.profile, ["id": .string(Self.bob)], viewer: gateway.alice).json["data"]?["profile"] == ["handle": "bob_builder"])
            let twice = try await gateway.run(Self.unblock, ["id": .string(Self.bob)], viewer: gateway.alice)
            #expect(twice.json["data"]?["unblock"]?["blocked"] == false)
            let following = try await gateway.run(
                "query P($id: ID) { profile(id: $id) { viewerIsFollowing followsViewer } }", ["id": .string(Self.bob)], viewer: gateway.alice)
            #expect(following.json["data"]?["profile"] == ["viewerIsFollowing": false, "followsViewer": false])
        }
    }

    @Test("block errors: yourself is BAD_USER_INPUT, a missing profile NOT_FOUND, signed out UNAUTHENTICATED; a block drops requests both ways",
          arguments: StoreKind.allCases)
    func errorsAndRequests(_ kind: StoreKind) async throws {
        try await GatewayFixture.run(kind) { gateway in
            let me = try await gateway.run(Self.block, ["id": .string(Self.alice)], viewer: gateway.alice)
            #expect(GatewayFixture.codes(me.json) == ["BAD_USER_INPUT"])
            #expect(GatewayFixture.messages(me.json) == ["You cannot block yourself"])
            let missing = try await gateway.run(Self.block, ["id": .string(UUID().uuidString.lowercased())], viewer: gateway.alice)
            #expect(GatewayFixture.codes(missing.json) == ["NOT_FOUND"])
            for mutation in [Self.block, "mutation A($id: ID!) { approveFollowRequest(profileId: $id) { approved } }"] {
                let malformed = try await gateway.run(mutation, ["id": "nope"], viewer: gateway.alice)
                #expect(GatewayFixture.messages(malformed.json) == ["profileId is not a valid profile id"])
            }
            let anonymous = try await gateway.run(Self.block, ["id": .string(Self.bob)])
            #expect(GatewayFixture.messages(anonymous.json) == ["You must be logged in to block users"])
            // bob private, alice a stranger who asks; bob blocks alice: the request is gone
            _ = try await gateway.run("mutation { updateProfile(input: { isPublic: false }) { profile { isPublic } } }", viewer: gateway.bob)
            _ = try await gateway.run("mutation U($id: ID!) { unfollow(profileId: $id) { following } }", ["id": .string(Self.bob)], viewer: gateway.alice)
            _ = try await gateway.run("mutation F($id: ID!) { follow(profileId: $id) { requestStatus } }", ["id": .string(Self.bob)], viewer: gateway.alice)
            _ = try await gateway.run(Self.block, ["id": .string(Self.alice)], viewer: gateway.bob)
            let requests = try await gateway.run("{ followRequests { totalCount } }", viewer: gateway.bob)
            #expect(requests.json["data"]?["followRequests"]?["totalCount"] == 0)
            // and alice, blocked, does not even get bob's card
            #expect(try await gateway.run(Self.profile, ["id": .string(Self.bob)], viewer: gateway.alice).json["data"]?["profile"] == .null)
        }
    }

    @Test("suggestions never offer a profile blocked either way", arguments: StoreKind.allCases)
    func suggestionsLeaveOutBlocks(_ kind: StoreKind) async throws {
        try await GatewayFixture.run(kind) { gateway in
            let suggestions = "{ suggestedProfiles(first: 10) { edges { node { handle } } } }"
            // alice stops following carol: bob (whom alice follows) follows carol, so carol is suggested
            _ = try await gateway.run("mutation U($id: ID!) { unfollow(profileId: $id) { following } }", ["id": .string(Self.carol)], viewer: gateway.alice)
            let before = try await gateway.run(suggestions, viewer: gateway.alice)
            #expect(before.json["data"]?["suggestedProfiles"]?["edges"] == [["node": ["handle": "carol_creator"]]])
            _ = try await gateway.run(Self.block, ["id": .string(Self.alice)], viewer: gateway.carol)
            let after = try await gateway.run(suggestions, viewer: gateway.alice)
            #expect(after.json["data"]?["suggestedProfiles"]?["edges"] == [])
        }
    }

    @Test("50 aliased suggestedProfiles fields of different sizes cost one ranking: the longest page serves the others",
          arguments: StoreKind.allCases)
    func aliasedSuggestionsRankOnce(_ kind: StoreKind) async throws {
        try await GatewayFixture.run(kind) { gateway in
            _ = try await gateway.run("mutation U($id: ID!) { unfollow(profileId: $id) { following } }", ["id": .string(Self.carol)], viewer: gateway.alice)
            let fields = (1...50).map { "s\($0): suggestedProfiles(first: \($0)) { totalCount pageInfo { hasNextPage } nodes { handle } }" }
            gateway.store.resetRoundTrips()
            let answer = try await gateway.run("{ \(fields.joined(separator: " ")) }", viewer: gateway.alice)
            #expect(answer.json["errors"] == nil)
            #expect(answer.json["data"]?["s1"] == ["totalCount": 1, "pageInfo": ["hasNextPage": false], "nodes": [["handle": "carol_creator"]]])
            #expect(answer.json["data"]?["s50"] == answer.json["data"]?["s1"])
            switch kind {
            case .embedded, .postgres: #expect(try #require(gateway.store.callCounts) == ["suggestedProfiles": 1])
            case .supabase: #expect(try #require(gateway.store.fake).requestCounts == ["POST /rest/v1/rpc/suggested_profiles": 1])
            }
        }
    }

    @Test("cached answers never outlive a block, an approval or a privacy change", arguments: StoreKind.allCases)
    func cacheInvalidation(_ kind: StoreKind) async throws {
        try await withCachedGateway(kind) { gateway, cache in
            let card = "query P($id: ID) { profile(id: $id) { handle bio } }"
            // Asks twice, the second answer from the cache (so a stale entry would be there to serve).
            func cachedTwice(_ viewer: Viewer) async throws -> JSONValue? {
                _ = try await gateway.run(card, ["id": .string(Self.bob)], viewer: viewer)
                let hits = cache.counters.hits
                for _ in 0..<100 {
                    let second = try await gateway.run(card, ["id": .string(Self.bob)], viewer: viewer).json["data"]?["profile"]
                    if cache.counters.hits > hits { return second }
                    try await Task.sleep(nanoseconds: 10_000_000)   // the miss is stored off the request path
                }
                Issue.record("the answer was never served from the cache")
                return nil
            }
            // privacy: anonymous had bob cached; bob turns private
            #expect(try await cachedTwice(.anonymous)?["handle"] == "bob_builder")
            _ = try await gateway.run("mutation { updateProfile(input: { isPublic: false }) { profile { isPublic } } }", viewer: gateway.bob)
            #expect(try await gateway.run(card, ["id": .string(Self.bob)]).json["data"]?["profile"] == .null)
            // approval: alice (a stranger now) had the card cached; bob approves her request
            _ = try await gateway.run("mutation U($id: ID!) { unfollow(profileId: $id) { following } }", ["id": .string(Self.bob)], viewer: gateway.alice)
            _ = try await gateway.run("mutation F($id: ID!) { follow(profileId: $id) { requestStatus } }", ["id": .string(Self.bob)], viewer: gateway.alice)
            #expect(try await cachedTwice(gateway.alice)?["bio"] == .null)
            _ = try await gateway.run("mutation A($id: ID!) { approveFollowRequest(profileId: $id) { approved } }", ["id": .string(Self.alice)], viewer: gateway.bob)
            #expect(try await gateway.run(card, ["id": .string(Self.bob)], viewer: gateway.alice).json["data"]?["profile"]?["bio"]
                    == .string(DemoData.users[1].bio))
            // block: carol had bob cached; bob blocks carol
            #expect(try await cachedTwice(gateway.carol)?["handle"] == "bob_builder")
            _ = try await gateway.run(Self.block, ["id": .string(Self.carol)], viewer: gateway.bob)
            #expect(try await gateway.run(card, ["id": .string(Self.bob)], viewer: gateway.carol).json["data"]?["profile"] == .null)
        }
    }
}
