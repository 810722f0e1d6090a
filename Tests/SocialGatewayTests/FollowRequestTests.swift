import Foundation
import GatewayTestSupport
import GraphQLEngine
import SocialDomain
import SocialFixtures
import SocialGateway
import Testing

/// Private profiles and follow requests (issue 40), on every store: who sees what of a private
/// profile, asking, cancelling, approving and declining.
///
/// The demo users all follow each other; each test makes bob private and has alice unfollow him,
/// so alice is a signed-in stranger to bob and carol an approved follower.
@Suite("Follow requests")
struct FollowRequestTests {
    static let bob = DemoData.bobId.uuidString.lowercased()
    static let alice = DemoData.aliceId.uuidString.lowercased()
    static let card = """
        query P($id: ID) { profile(id: $id) { handle bio isPublic followerCount viewerCanSeeDetails viewerFollowRequestStatus
          followers(first: 5) { totalCount edges { node { handle } } } posts(first: 5) { edges { node { id } } } } }
        """
    static let follow = "mutation F($id: ID!) { follow(profileId: $id) { following requestStatus profile { handle bio viewerCanSeeDetails } } }"
    static let unfollow = "mutation U($id: ID!) { unfollow(profileId: $id) { following requestStatus } }"
    static let requests = "{ followRequests(first: 10) { totalCount edges { cursor node { requester { handle } requestedAt } } } }"

    /// Bob private, alice no longer following him.
    static func strangers(_ gateway: GatewayFixture) async throws {
        let goPrivate = try await gateway.run("mutation { updateProfile(input: { isPublic: false }) { profile { isPublic } } }", viewer: gateway.bob)
        #expect(goPrivate.json["errors"] == nil)
        let removed = try await gateway.run(unfollow, ["id": .string(bob)], viewer: gateway.alice)
        #expect(removed.json["data"]?["unfollow"] == ["following": false, "requestStatus": "NONE"])
    }

    @Test("a private profile: anonymous NOT_FOUND (null), a signed-in stranger its card, an approved follower all of it",
          arguments: StoreKind.allCases)
    func whoSeesWhat(_ kind: StoreKind) async throws {
        try await GatewayFixture.run(kind) { gateway in
            try await Self.strangers(gateway)
            let anonymous = try await gateway.run(Self.card, ["id": .string(Self.bob)])
            #expect(anonymous.json["data"]?["profile"] == .null)

            let stranger = try await gateway.run(Self.card, ["id": .string(Self.bob)], viewer: gateway.alice)
            #expect(stranger.json["errors"] == nil)
            #expect(stranger.json["data"]?["profile"] == [
                "handle": "bob_builder", "bio": nil, "isPublic": false, "followerCount": 1, "viewerCanSeeDetails": false,
                "viewerFollowRequestStatus": "NONE", "followers": ["totalCount": 0, "edges": []], "posts": ["edges": []],
            ])
            let byHandle = try await gateway.run(#"{ profile(handle: "bob_builder") { handle viewerCanSeeDetails } }"#, viewer: gateway.alice)
            #expect(byHandle.json["data"]?["profile"] == ["handle": "bob_builder", "viewerCanSeeDetails": false])

            let follower = try await gateway.run(Self.card, ["id": .string(Self.bob)], viewer: gateway.carol)
            #expect(follower.json["data"]?["profile"]?["bio"] == .string(DemoData.users[1].bio))
            #expect(follower.json["data"]?["profile"]?["viewerCanSeeDetails"] == true)
            #expect(follower.json["data"]?["profile"]?["followers"]?["edges"] == [["node": ["handle": "carol_creator"]]])
            #expect(follower.json["data"]?["profile"]?["posts"]?["edges"]?.arrayValue?.isEmpty == false)
        }
    }

    @Test("issue 52: a private profile that follows a viewer who sees its card: followsViewer false, absent from the viewer's followers, still counted",
          arguments: StoreKind.allCases)
    func cardThatFollowsTheViewer(_ kind: StoreKind) async throws {
        try await GatewayFixture.run(kind) { gateway in
            try await Self.strangers(gateway)   // bob (private) still follows alice, who sees his card
            let query = """
                query P($id: ID) {
                  profile(id: $id) { viewerIsFollowing followsViewer viewerCanSeeDetails
                    following(first: 5) { totalCount edges { node { handle } } }
                    followedByViewerFollowing(first: 5) { totalCount nodes { handle } } }
                  viewer { followerCount followers(first: 5) { totalCount edges { node { handle followsViewer } } } }
                }
                """
            let answer = try await gateway.run(query, ["id": .string(Self.bob)], viewer: gateway.alice)
            #expect(answer.json["errors"] == nil)
            // bob's card: his follow of alice does not show, nor anything under it (carol, whom
            // alice follows, follows bob: "followed by" is empty too).
            #expect(answer.json["data"]?["profile"] == [
                "viewerIsFollowing": false, "followsViewer": false, "viewerCanSeeDetails": false,
                "following": ["totalCount": 0, "edges": []], "followedByViewerFollowing": ["totalCount": 0, "nodes": []],
            ])
            // alice's own followers: carol listed, bob counted but not named.
            #expect(answer.json["data"]?["viewer"] == [
                "followerCount": 2,
                "followers": ["totalCount": 2, "edges": [["node": ["handle": "carol_creator", "followsViewer": true]]]],
            ])
            // carol, an approved follower of bob, sees it all.
            let carol = try await gateway.run(query, ["id": .string(Self.bob)], viewer: gateway.carol)
            #expect(carol.json["data"]?["profile"]?["followsViewer"] == true)
            #expect(carol.json["data"]?["profile"]?["following"]?["totalCount"] == 2)
        }
    }

    @Test("follow of a private profile asks (PENDING, once however often); the owner lists it; unfollow cancels it",
          arguments: StoreKind.allCases)
    func askAndCancel(_ kind: StoreKind) async throws {
        try await GatewayFixture.run(kind) { gateway in
            try await Self.strangers(gateway)
            let asked = try await gateway.run(Self.follow, ["id": .string(Self.bob)], viewer: gateway.alice)
            #expect(asked.json["errors"] == nil)
            #expect(asked.json["data"]?["follow"] == [
                "following": false, "requestStatus": "PENDING",
                "profile": ["handle": "bob_builder", "bio": nil, "viewerCanSeeDetails": false],
            ])
            let again = try await gateway.run(Self.follow, ["id": .string(Self.bob)], viewer: gateway.alice)
            #expect(again.json["data"]?["follow"]?["requestStatus"] == "PENDING")
            let status = try await gateway.run(Self.card, ["id": .string(Self.bob)], viewer: gateway.alice)
            #expect(status.json["data"]?["profile"]?["viewerFollowRequestStatus"] == "PENDING")

            let listed = try await gateway.run(Self.requests, viewer: gateway.bob)
            #expect(listed.json["errors"] == nil)
            #expect(listed.json["data"]?["followRequests"]?["totalCount"] == 1)
            #expect(listed.json["data"]?["followRequests"]?["edges"]?.arrayValue?.first?["node"]?["requester"] == ["handle": "alice_wonder"])
            let counts = try await gateway.run(#"{ viewer { followerCount } }"#, viewer: gateway.bob)
            #expect(counts.json["data"]?["viewer"]?["followerCount"] == 1)

            let cancelled = try await gateway.run(Self.unfollow, ["id": .string(Self.bob)], viewer: gateway.alice)
            #expect(cancelled.json["data"]?["unfollow"] == ["following": false, "requestStatus": "NONE"])
            let empty = try await gateway.run(Self.requests, viewer: gateway.bob)
            #expect(empty.json["data"]?["followRequests"] == ["totalCount": 0, "edges": []])
            // toggle asks, and a second toggle cancels
            let toggle = "mutation T($id: ID!) { toggleFollow(profileId: $id) { following requestStatus } }"
            let on = try await gateway.run(toggle, ["id": .string(Self.bob)], viewer: gateway.alice)
            #expect(on.json["data"]?["toggleFollow"] == ["following": false, "requestStatus": "PENDING"])
            let off = try await gateway.run(toggle, ["id": .string(Self.bob)], viewer: gateway.alice)
            #expect(off.json["data"]?["toggleFollow"] == ["following": false, "requestStatus": "NONE"])
            let anonymous = try await gateway.run(Self.requests)
            #expect(GatewayFixture.codes(anonymous.json) == ["UNAUTHENTICATED"])
            #expect(GatewayFixture.messages(anonymous.json) == ["You must be logged in to manage follow requests"])
        }
    }

    @Test("issue 54: the viewer's own pending requests list the profiles asked, as cards, newest first; unfollow cancels one",
          arguments: StoreKind.allCases)
    func sentRequests(_ kind: StoreKind) async throws {
        try await GatewayFixture.run(kind) { gateway in
            try await Self.strangers(gateway)
            let sent = """
                query S($after: String) { sentFollowRequests(first: 10, after: $after) { totalCount
                  pageInfo { hasNextPage hasPreviousPage }
                  edges { cursor node { requester { handle } target { handle bio viewerCanSeeDetails viewerFollowRequestStatus } } } } }
                """
            let none = try await gateway.run(sent, viewer: gateway.alice)
            #expect(none.json["errors"] == nil)
            #expect(none.json["data"]?["sentFollowRequests"]?["totalCount"] == 0)

            _ = try await gateway.run(Self.follow, ["id": .string(Self.bob)], viewer: gateway.alice)
            let listed = try await gateway.run(sent, viewer: gateway.alice)
            #expect(listed.json["errors"] == nil)
            let page = listed.json["data"]?["sentFollowRequests"]
            #expect(page?["totalCount"] == 1)
            #expect(page?["pageInfo"] == ["hasNextPage": false, "hasPreviousPage": false])
            #expect(page?["edges"]?.arrayValue?.first?["node"] == [
                "requester": ["handle": "alice_wonder"],
                "target": ["handle": "bob_builder", "bio": nil, "viewerCanSeeDetails": false, "viewerFollowRequestStatus": "PENDING"],
            ])
            // The owner's side names the same request, with the owner as its target.
            let owner = try await gateway.run("{ followRequests(first: 5) { edges { cursor node { requester { handle } target { handle } } } } }",
                                              viewer: gateway.bob)
            #expect(owner.json["data"]?["followRequests"]?["edges"]?.arrayValue?.first?["node"] == [
                "requester": ["handle": "alice_wonder"], "target": ["handle": "bob_builder"],
            ])
            // Bob asked nobody; a cursor of another list is refused.
            let bobs = try await gateway.run(sent, viewer: gateway.bob)
            #expect(bobs.json["data"]?["sentFollowRequests"]?["totalCount"] == 0)
            let ownerCursor = owner.json["data"]?["followRequests"]?["edges"]?.arrayValue?.first?["cursor"] ?? .null
            let wrongCursor = try await gateway.run(sent, ["after": ownerCursor], viewer: gateway.alice)
            #expect(GatewayFixture.codes(wrongCursor.json) == ["BAD_USER_INPUT"])

            _ = try await gateway.run(Self.unfollow, ["id": .string(Self.bob)], viewer: gateway.alice)
            let cancelled = try await gateway.run(sent, viewer: gateway.alice)
            #expect(cancelled.json["data"]?["sentFollowRequests"]?["totalCount"] == 0)
            #expect(cancelled.json["data"]?["sentFollowRequests"]?["edges"] == [])

            let anonymous = try await gateway.run(sent)
            #expect(GatewayFixture.codes(anonymous.json) == ["UNAUTHENTICATED"])
            #expect(GatewayFixture.messages(anonymous.json) == ["You must be logged in to manage follow requests"])
        }
    }

    @Test("approval makes the follow with exact counts and shows the requester everything; a second answer is NOT_FOUND",
          arguments: StoreKind.allCases)
    func approve(_ kind: StoreKind) async throws {
        try await GatewayFixture.run(kind) { gateway in
            try await Self.strangers(gateway)
            _ = try await gateway.run(Self.follow, ["id": .string(Self.bob)], viewer: gateway.alice)
            let approve = "mutation A($id: ID!) { approveFollowRequest(profileId: $id) { approved requester { handle followingCount } viewer { followerCount } } }"
            let approved = try await gateway.run(approve, ["id": .string(Self.alice)], viewer: gateway.bob)
            #expect(approved.json["errors"] == nil)
            #expect(approved.json["data"]?["approveFollowRequest"] == [
                "approved": true, "requester": ["handle": "alice_wonder", "followingCount": 2], "viewer": ["followerCount": 2],
            ])
            let now = try await gateway.run(Self.card, ["id": .string(Self.bob)], viewer: gateway.alice)
            #expect(now.json["data"]?["profile"]?["viewerCanSeeDetails"] == true)
            #expect(now.json["data"]?["profile"]?["bio"] == .string(DemoData.users[1].bio))
            #expect(now.json["data"]?["profile"]?["viewerFollowRequestStatus"] == "NONE")
            let empty = try await gateway.run(Self.requests, viewer: gateway.bob)
            #expect(empty.json["data"]?["followRequests"]?["totalCount"] == 0)
            let twice = try await gateway.run(approve, ["id": .string(Self.alice)], viewer: gateway.bob)
            #expect(GatewayFixture.codes(twice.json) == ["NOT_FOUND"])
            #expect(GatewayFixture.messages(twice.json) == ["Follow request not found"])
            let feed = try await gateway.run("{ feed(first: 10) { edges { node { author { handle } } } } }", viewer: gateway.alice)
            let authors = Set(feed.json["data"]?["feed"]?["edges"]?.arrayValue?.compactMap { $0["node"]?["author"]?["handle"]?.stringValue } ?? [])
            #expect(authors.contains("bob_builder"))
        }
    }

    @Test("a decline leaves no request (NONE) and asking again within 7 days is TOO_MANY_REQUESTS with retryAfter",
          arguments: StoreKind.allCases)
    func decline(_ kind: StoreKind) async throws {
        try await GatewayFixture.run(kind) { gateway in
            try await Self.strangers(gateway)
            _ = try await gateway.run(Self.follow, ["id": .string(Self.bob)], viewer: gateway.alice)
            let decline = "mutation D($id: ID!) { declineFollowRequest(profileId: $id) { approved viewer { followerCount } } }"
            let declined = try await gateway.run(decline, ["id": .string(Self.alice)], viewer: gateway.bob)
            #expect(declined.json["data"]?["declineFollowRequest"] == ["approved": false, "viewer": ["followerCount": 1]])
            let status = try await gateway.run(Self.card, ["id": .string(Self.bob)], viewer: gateway.alice)
            #expect(status.json["data"]?["profile"]?["viewerFollowRequestStatus"] == "NONE")
            let again = try await gateway.run(Self.follow, ["id": .string(Self.bob)], viewer: gateway.alice)
            #expect(GatewayFixture.codes(again.json) == ["TOO_MANY_REQUESTS"])
            let retryAfter = again.json["errors"]?.arrayValue?.first?["extensions"]?["retryAfter"]?.intValue ?? 0
            #expect(retryAfter > 6 * 24 * 3600 && retryAfter <= 7 * 24 * 3600)
            let none = try await gateway.run(decline, ["id": .string(Self.alice)], viewer: gateway.bob)
            #expect(GatewayFixture.codes(none.json) == ["NOT_FOUND"])
        }
    }

    @Test("turning public approves every pending request; turning private keeps existing followers", arguments: StoreKind.allCases)
    func turningPublic(_ kind: StoreKind) async throws {
        try await GatewayFixture.run(kind) { gateway in
            try await Self.strangers(gateway)
            _ = try await gateway.run(Self.follow, ["id": .string(Self.bob)], viewer: gateway.alice)
            let carolSees = try await gateway.run(Self.card, ["id": .string(Self.bob)], viewer: gateway.carol)
            #expect(carolSees.json["data"]?["profile"]?["viewerCanSeeDetails"] == true)
            let goPublic = try await gateway.run("mutation { updateProfile(input: { isPublic: true }) { profile { isPublic } } }", viewer: gateway.bob)
            #expect(goPublic.json["errors"] == nil)
            let following = try await gateway.run(
                "query P($id: ID) { profile(id: $id) { viewerIsFollowing followerCount } }", ["id": .string(Self.bob)], viewer: gateway.alice)
            #expect(following.json["data"]?["profile"] == ["viewerIsFollowing": true, "followerCount": 2])
            let empty = try await gateway.run(Self.requests, viewer: gateway.bob)
            #expect(empty.json["data"]?["followRequests"]?["totalCount"] == 0)
        }
    }
}
