import Foundation
import GatewayTestSupport
import GraphQLEngine
import GraphQLLanguage
import SocialDomain
import SocialFixtures
@testable import SocialGateway
import Testing

/// Issue 53, "Events too": a `feedPosts` selection that reads the same for every viewer allowed
/// to see a post runs once per post for all of them, and each subscriber is still admitted on
/// their own, by the domain's rule applied to the author's relations read once per post: sharing
/// must leak nothing.
@Suite("Subscriptions: one execution per post for every viewer who may see it, each admitted on their own (issue 53)")
struct SharedEventTests {
    typealias Live = SubscriptionHubTests.Live

    static let alice = DemoData.aliceId.uuidString.lowercased()
    static let bob = DemoData.bobId.uuidString.lowercased()
    static let carol = DemoData.carolId.uuidString.lowercased()
    static let shared = "subscription { feedPosts { id content likeCount author { handle displayName bio followerCount } } }"

    /// A service with the graph in memory, as `serve` runs it.
    static var memoryOn: GatewayOptions {
        var options = GatewayOptions()
        options.graphMemory = GraphMemory.Limits()
        return options
    }

    static func next(_ subscription: LiveSubscription, within seconds: Double = 5) async -> SubscriptionMessage? {
        await SubscriptionHubTests.next(subscription, within: seconds)
    }

    static func data(_ message: SubscriptionMessage?) throws -> JSONValue { try SubscriptionHubTests.data(message) }

    /// Alice follows bob and sees him; carol is kept from bob's posts by `shut` (a block, or bob
    /// private and carol not following). Alice's two subscriptions and carol's share one
    /// document: alice hears bob's post, carol does not (her own post reaches her first), and
    /// with memory on the post ran once for everyone who may see it.
    static func aliceHearsCarolDoesNot(_ kind: StoreKind, shut: (Live) async throws -> Void) async throws {
        try await Live.run(kind, options: memoryOn) { live in
            let g = live.gateway
            try await shut(live)
            let alices = [try await live.subscribe(shared, viewer: g.alice), try await live.subscribe(shared, viewer: g.alice)]
            let carols = try await live.subscribe(shared, viewer: g.carol)
            try await live.mutate(#"mutation { createPost(input: {content: "From bob"}) { post { id } } }"#, viewer: g.bob)
            for subscription in alices {
                let seen = try Self.data(await Self.next(subscription))
                #expect(seen["feedPosts"]?["content"] == "From bob")
                #expect(seen["feedPosts"]?["author"]?["handle"] == "bob_builder")
                #expect(seen["feedPosts"]?["author"]?["bio"] == "Can we fix it? Yes we can! 🔨")
            }
            try await live.mutate(#"mutation { createPost(input: {content: "From carol"}) { post { id } } }"#, viewer: g.carol)
            let own = try Self.data(await Self.next(carols))
            #expect(own["feedPosts"]?["content"] == "From carol", "carol was told a post of bob's")
            let counts = live.hub.counters.snapshot
            // With the graph readable unfiltered, bob's post ran once for alice's two
            // subscriptions, carol was refused without an execution, and carol's own post ran
            // once; without it (a store that may not read the graph unfiltered), alice's key and
            // carol's each ran bob's post, and carol's key her own.
            #expect(counts["executed"] == (live.hub.snapshots == nil ? 3 : 2), "\(counts)")
            #expect(counts["skipped"] == 1, "\(counts)")
            for subscription in alices + [carols] { subscription.cancel() }
        }
    }

    @Test("a post reaches the author's follower and not a viewer the author blocked, from one shared execution", arguments: StoreKind.allCases)
    func blockedViewerNotTold(_ kind: StoreKind) async throws {
        try await Self.aliceHearsCarolDoesNot(kind) { live in
            try await live.mutate("mutation($id: ID!) { block(profileId: $id) { blocked } }", ["id": .string(Self.carol)], viewer: live.gateway.bob)
        }
    }

    @Test("a private author's post reaches their follower and not a viewer who sees only their card, from one shared execution", arguments: StoreKind.allCases)
    func cardViewerNotTold(_ kind: StoreKind) async throws {
        try await Self.aliceHearsCarolDoesNot(kind) { live in
            let g = live.gateway
            try await live.mutate("mutation($id: ID!) { unfollow(profileId: $id) { following } }", ["id": .string(Self.bob)], viewer: g.carol)
            try await live.mutate("mutation { updateProfile(input: {isPublic: false}) { profile { isPublic } } }", viewer: g.bob)
        }
    }

    @Test("a viewer who stops following between two posts hears the first and not the second, though the answer is shared")
    func unfollowBetweenPosts() async throws {
        try await Live.run(.embedded, options: Self.memoryOn) { live in
            let g = live.gateway
            let alices = try await live.subscribe(Self.shared, viewer: g.alice)
            let carols = try await live.subscribe(Self.shared, viewer: g.carol)
            try await live.mutate(#"mutation { createPost(input: {content: "First"}) { post { id } } }"#, viewer: g.bob)
            #expect(try Self.data(await Self.next(carols))["feedPosts"]?["content"] == "First")
            try await live.mutate("mutation($id: ID!) { unfollow(profileId: $id) { following } }", ["id": .string(Self.bob)], viewer: g.carol)
            try await live.mutate(#"mutation { createPost(input: {content: "Second"}) { post { id } } }"#, viewer: g.bob)
            #expect(try Self.data(await Self.next(alices))["feedPosts"]?["content"] == "First")
            #expect(try Self.data(await Self.next(alices))["feedPosts"]?["content"] == "Second")
            try await live.mutate(#"mutation { createPost(input: {content: "Carol's"}) { post { id } } }"#, viewer: g.carol)
            #expect(try Self.data(await Self.next(carols))["feedPosts"]?["content"] == "Carol's", "carol heard a post after she unfollowed")
            #expect(live.hub.counters.snapshot["executed"] == 3, "\(live.hub.counters.snapshot)")
            alices.cancel()
            carols.cancel()
        }
    }

    @Test("a selection that reads the viewer (viewerHasLiked, follow flags, lists, fragments) runs once per viewer")
    func viewerFieldsAreNotShared() async throws {
        for text in [
            "subscription { feedPosts { id viewerHasLiked } }",
            "subscription { feedPosts { author { viewerIsFollowing } } }",
            "subscription { feedPosts { author { homeZIP } } }",
            "subscription { feedPosts { comments { totalCount } } }",
            "subscription { feedPosts { ...P } } fragment P on Post { id }",
            "subscription { feedPosts { id @include(if: true) } }",
            "subscription { notifications { id } }",
        ] {
            #expect(!Self.isShared(text), "\(text)")
        }
        #expect(Self.isShared(Self.shared))
        #expect(Self.isShared("subscription S { feedPosts { __typename postId: id createdAt imageURLs author { id postCount } } }"))
        try await Live.run(.embedded, options: Self.memoryOn) { live in
            let g = live.gateway
            let query = "subscription { feedPosts { content viewerHasLiked } }"
            let subscriptions = [try await live.subscribe(query, viewer: g.alice), try await live.subscribe(query, viewer: g.carol)]
            try await live.mutate(#"mutation { createPost(input: {content: "Mine"}) { post { id } } }"#, viewer: g.bob)
            for subscription in subscriptions {
                #expect(try Self.data(await Self.next(subscription))["feedPosts"]?["content"] == "Mine")
                subscription.cancel()
            }
            #expect(live.hub.counters.snapshot["executed"] == 2)
        }
    }

    @Test("a class's shared answer: a refusal of the subscriber who computed is not handed to the next, who computes as themselves")
    func refusalIsNotShared() async {
        let answer = SharedAnswer()
        let first = await answer.value(sharesRefusal: false) { nil }
        #expect(first == nil)
        let second = await answer.value(sharesRefusal: false) { Array("{\"data\":{}}".utf8) }
        #expect(second == Array("{\"data\":{}}".utf8))
        let third = await answer.value(sharesRefusal: false) { Issue.record("computed twice"); return nil }
        #expect(third == second)
        // One viewer's key shares its refusal: the event is not for that viewer.
        let own = SharedAnswer()
        _ = await own.value { nil }
        #expect(await own.value { Issue.record("a shared refusal was computed again"); return [] } == nil)
    }

    static func isShared(_ text: String) -> Bool {
        guard let document = try? Document(parsing: Source(text)), let operation = document.operations.first else { return false }
        return SharedEventShape.isShared(operation)
    }
}
