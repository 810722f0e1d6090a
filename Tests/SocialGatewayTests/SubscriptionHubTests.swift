import Foundation
import GatewayTestSupport
import GraphQLEngine
import SocialDomain
import SocialFixtures
@testable import SocialGateway
import Testing

/// Issue 39: subscriptions (§6.2.3) on the change stream, on every store: what each root field
/// delivers, who may see it at delivery time, and the bounds (queue, feed loss, shutdown).
@Suite("Subscriptions: notifications, feedPosts and postActivity from committed writes (issue 39, §6.2.3)")
struct SubscriptionHubTests {
    /// A gateway with a hub on a stream of its own writes (no feed), for one store kind.
    struct Live {
        let gateway: GatewayFixture
        let hub: SubscriptionHub

        static func run(
            _ kind: StoreKind, limits: SubscriptionLimits = SubscriptionLimits(), options: GatewayOptions = GatewayOptions(),
            _ body: (Live) async throws -> Void
        ) async throws {
            let stream = ChangeStream(feed: nil)
            var options = options
            options.changes = stream
            try await GatewayFixture.run(kind, options: options) { gateway in
                let hub = SubscriptionHub(service: gateway.service, changes: stream, limits: limits, logger: .init(label: "test"))
                try await body(Live(gateway: gateway, hub: hub))
                hub.shutdown()
            }
        }

        func subscribe(_ query: String, _ variables: JSONObject = [:], viewer: Viewer) async throws -> LiveSubscription {
            let start = await hub.subscribe(GatewayRequest(query: query, variables: variables, viewer: viewer))
            guard case .started(let subscription) = start else {
                if case .refused(let response) = start { Issue.record("refused: \(String(decoding: response.body, as: UTF8.self))") }
                throw CancellationError()
            }
            return subscription
        }

        /// A mutation that must succeed.
        @discardableResult
        func mutate(_ query: String, _ variables: JSONObject = [:], viewer: Viewer) async throws -> JSONValue {
            let (_, json) = try await gateway.run(query, variables, viewer: viewer)
            #expect(json["errors"] == nil, "\(query): \(json)")
            return json
        }
    }

    /// The next message within a few seconds, or nil.
    static func next(_ subscription: LiveSubscription, within seconds: Double = 5) async -> SubscriptionMessage? {
        await withTaskGroup(of: SubscriptionMessage?.self) { group in
            group.addTask { await subscription.next(idleAfter: .seconds(seconds)) }
            let first = await group.next() ?? nil
            group.cancelAll()
            if case .idle? = first { return nil }
            return first
        }
    }

    static func data(_ message: SubscriptionMessage?) throws -> JSONValue {
        guard case .next(let body)? = message else {
            Issue.record("expected an event, got \(String(describing: message))")
            return .null
        }
        let json = try JSONParser.parse(body)
        #expect(json["errors"] == nil, "\(json)")
        return json["data"] ?? .null
    }

    static let bob = DemoData.bobId.uuidString.lowercased()
    static let alice = DemoData.aliceId.uuidString.lowercased()

    @Test("notifications: a follow of the viewer arrives as a FollowNotification with the follower as actor", arguments: StoreKind.allCases)
    func followNotification(_ kind: StoreKind) async throws {
        try await Live.run(kind) { live in
            let g = live.gateway
            try await live.mutate("mutation($id: ID!) { unfollow(profileId: $id) { following } }", ["id": .string(Self.alice)], viewer: g.bob)
            let subscription = try await live.subscribe(
                "subscription { notifications { __typename id createdAt actor { handle } } }", viewer: g.alice)
            try await live.mutate("mutation($id: ID!) { follow(profileId: $id) { following } }", ["id": .string(Self.alice)], viewer: g.bob)
            let data = try Self.data(await Self.next(subscription))
            #expect(data["notifications"]?["__typename"] == "FollowNotification")
            #expect(data["notifications"]?["actor"]?["handle"] == "bob_builder")
            #expect(data["notifications"]?["id"]?.stringValue?.isEmpty == false)
            // Following again changes nothing and tells nothing. (The embedded store says so; on
            // PostgreSQL and Supabase activities come from the database's feed, which sends none for
            // a follow that wrote no row: ChangeFeedActivityTests.)
            if kind == .embedded {
                try await live.mutate("mutation($id: ID!) { follow(profileId: $id) { following } }", ["id": .string(Self.alice)], viewer: g.bob)
                let nothing = await Self.next(subscription, within: 0.5)
                #expect(nothing == nil, "a follow that changed nothing was told")
            }
            subscription.cancel()
        }
    }

    @Test("notifications: likes and comments on the viewer's post, with the post and the comment; one's own are not told", arguments: StoreKind.allCases)
    func likeAndCommentNotifications(_ kind: StoreKind) async throws {
        try await Live.run(kind) { live in
            let g = live.gateway
            let created = try await live.mutate(
                #"mutation { createPost(input: {content: "Subscribe to this"}) { post { id } } }"#, viewer: g.alice)
            let post = try #require(created["data"]?["createPost"]?["post"]?["id"]?.stringValue)
            let subscription = try await live.subscribe("""
                subscription { notifications { __typename actor { handle }
                  ... on LikeNotification { post { id likeCount } }
                  ... on CommentNotification { post { id commentCount } comment { content } } } }
                """, viewer: g.alice)
            try await live.mutate("mutation($id: ID!) { toggleLike(postId: $id) { liked } }", ["id": .string(post)], viewer: g.alice)
            try await live.mutate("mutation($id: ID!) { toggleLike(postId: $id) { liked } }", ["id": .string(post)], viewer: g.bob)
            let like = try Self.data(await Self.next(subscription))
            #expect(like["notifications"]?["__typename"] == "LikeNotification")
            #expect(like["notifications"]?["actor"]?["handle"] == "bob_builder")
            #expect(like["notifications"]?["post"]?["id"]?.stringValue == post)
            #expect(like["notifications"]?["post"]?["likeCount"] == 2)
            try await live.mutate(
                #"mutation($id: ID!) { addComment(postId: $id, content: "Nice one") { comment { id } } }"#, ["id": .string(post)],
                viewer: g.bob)
            let comment = try Self.data(await Self.next(subscription))
            #expect(comment["notifications"]?["__typename"] == "CommentNotification")
            #expect(comment["notifications"]?["comment"]?["content"] == "Nice one")
            #expect(comment["notifications"]?["post"]?["commentCount"] == 1)
            subscription.cancel()
        }
    }

    @Test("feedPosts: a followed profile's new post and one's own; not a post of a profile one does not follow", arguments: StoreKind.allCases)
    func feedPosts(_ kind: StoreKind) async throws {
        try await Live.run(kind) { live in
            let g = live.gateway
            try await live.mutate("mutation($id: ID!) { follow(profileId: $id) { following } }", ["id": .string(Self.bob)], viewer: g.alice)
            try await live.mutate("mutation($id: ID!) { unfollow(profileId: $id) { following } }", ["id": .string(Self.bob)], viewer: g.carol)
            let alices = try await live.subscribe("subscription { feedPosts { content author { handle } } }", viewer: g.alice)
            let carols = try await live.subscribe("subscription { feedPosts { content author { handle } } }", viewer: g.carol)
            try await live.mutate(#"mutation { createPost(input: {content: "From bob"}) { post { id } } }"#, viewer: g.bob)
            let seen = try Self.data(await Self.next(alices))
            #expect(seen["feedPosts"]?["content"] == "From bob")
            #expect(seen["feedPosts"]?["author"]?["handle"] == "bob_builder")
            try await live.mutate(#"mutation { createPost(input: {content: "From carol"}) { post { id } } }"#, viewer: g.carol)
            // Carol's stream skipped bob's post (she does not follow him): her own comes first.
            let own = try Self.data(await Self.next(carols))
            #expect(own["feedPosts"]?["content"] == "From carol")
            alices.cancel()
            carols.cancel()
        }
    }

    @Test("postActivity: counts after a like, the new comment after a comment; refused for a post that does not exist", arguments: StoreKind.allCases)
    func postActivity(_ kind: StoreKind) async throws {
        try await Live.run(kind) { live in
            let g = live.gateway
            let created = try await live.mutate(
                #"mutation { createPost(input: {content: "Watch me"}) { post { id } } }"#, viewer: g.bob)
            let post = try #require(created["data"]?["createPost"]?["post"]?["id"]?.stringValue)
            let query = "subscription($id: ID!) { postActivity(postId: $id) { post { likeCount commentCount } newComment { content author { handle } } } }"
            let subscription = try await live.subscribe(query, ["id": .string(post)], viewer: g.alice)
            try await live.mutate("mutation($id: ID!) { toggleLike(postId: $id) { liked } }", ["id": .string(post)], viewer: g.carol)
            let liked = try Self.data(await Self.next(subscription))
            #expect(liked["postActivity"]?["post"]?["likeCount"] == 1)
            #expect(liked["postActivity"]?["newComment"] == .null)
            try await live.mutate(
                #"mutation($id: ID!) { addComment(postId: $id, content: "Go bob") { comment { id } } }"#, ["id": .string(post)],
                viewer: g.carol)
            // One event for the comment: its counts and the comment together, not the counts first.
            let commented = try Self.data(await Self.next(subscription))
            #expect(commented["postActivity"]?["newComment"]?["content"] == "Go bob")
            #expect(commented["postActivity"]?["post"]?["commentCount"] == 1)
            // A change without an activity (an unlike) is told too, with the counts as they are.
            try await live.mutate("mutation($id: ID!) { toggleLike(postId: $id) { liked } }", ["id": .string(post)], viewer: g.carol)
            let unliked = try Self.data(await Self.next(subscription))
            #expect(unliked["postActivity"]?["post"]?["likeCount"] == 0)
            #expect(unliked["postActivity"]?["newComment"] == .null)
            let nothing = await Self.next(subscription, within: 0.3)
            #expect(nothing == nil, "one write was told twice")
            subscription.cancel()

            let missing = await live.hub.subscribe(GatewayRequest(
                query: query, variables: ["id": .string(UUID().uuidString.lowercased())], viewer: g.alice))
            guard case .refused(let response) = missing else { Issue.record("a missing post was subscribed to"); return }
            #expect(response.errorCodes == ["NOT_FOUND"])
            #expect(String(decoding: response.body, as: UTF8.self).contains("Post not found"))
        }
    }

    @Test("a private profile's follow is not told to a viewer who sees only its card (issue 51; issue 40 told it as the card)")
    func privateActorNotTold() async throws {
        try await Live.run(.embedded) { live in
            let g = live.gateway
            let carol = DemoData.carolId.uuidString.lowercased()
            for viewer in [g.bob, g.carol] {
                try await live.mutate("mutation($id: ID!) { unfollow(profileId: $id) { following } }", ["id": .string(Self.alice)], viewer: viewer)
            }
            try await live.mutate("mutation($id: ID!) { unfollow(profileId: $id) { following } }", ["id": .string(carol)], viewer: g.alice)
            try await live.mutate("mutation { updateProfile(input: {isPublic: false}) { profile { id } } }", viewer: g.carol)
            let subscription = try await live.subscribe(
                "subscription { notifications { actor { handle bio viewerCanSeeDetails } } }", viewer: g.alice)
            try await live.mutate("mutation($id: ID!) { follow(profileId: $id) { following } }", ["id": .string(Self.alice)], viewer: g.carol)
            // Bob's follow (a public profile) comes first: carol's was skipped, not delayed.
            try await live.mutate("mutation($id: ID!) { follow(profileId: $id) { following } }", ["id": .string(Self.alice)], viewer: g.bob)
            let data = try Self.data(await Self.next(subscription))
            #expect(data["notifications"]?["actor"]?["handle"] == "bob_builder")
            #expect(live.hub.counters.snapshot["skipped"] == 1)
            subscription.cancel()
        }
    }

    @Test("a signed-out subscriber gets UNAUTHENTICATED with the seeds' wording; a query is not a subscription")
    func refusals() async throws {
        try await Live.run(.embedded) { live in
            let refused = await live.hub.subscribe(GatewayRequest(query: "subscription { feedPosts { id } }", viewer: .anonymous))
            guard case .refused(let response) = refused else { Issue.record("anonymous subscription started"); return }
            #expect(response.errorCodes == ["UNAUTHENTICATED"])
            #expect(String(decoding: response.body, as: UTF8.self).contains("You must be logged in to subscribe to live updates"))
            let query = await live.hub.subscribe(GatewayRequest(query: "{ viewer { handle } }", viewer: live.gateway.alice))
            guard case .notASubscription = query else { Issue.record("a query started a subscription"); return }
            let invalid = await live.hub.subscribe(
                GatewayRequest(query: "subscription { feedPosts { id } notifications { id } }", viewer: live.gateway.alice))
            guard case .refused(let bad) = invalid else { Issue.record("two root fields were accepted"); return }
            #expect(bad.errorCodes == ["GRAPHQL_VALIDATION_FAILED"])
        }
    }

    @Test("a subscriber that does not take its events is ended with SLOW_CONSUMER once its queue is full, never buffered without end")
    func slowConsumer() async throws {
        try await Live.run(.embedded, limits: SubscriptionLimits(queuedEventsPerSubscription: 2)) { live in
            let g = live.gateway
            let subscription = try await live.subscribe("subscription { feedPosts { id } }", viewer: g.bob)
            for n in 1...3 {
                try await live.mutate(#"mutation($c: String!) { createPost(input: {content: $c}) { post { id } } }"#, ["c": .string("post \(n)")], viewer: g.bob)
            }
            guard case .end(.failed(let errors))? = await Self.next(subscription) else {
                Issue.record("the slow subscriber was not ended")
                return
            }
            #expect(errors.first?.extensions?["code"] == "SLOW_CONSUMER")
            #expect(live.hub.activeCount == 0)
        }
    }

    @Test("a lost feed ends every subscription with BACKEND_UNAVAILABLE and refuses new ones until it is back")
    func feedLost() async throws {
        try await Live.run(.embedded) { live in
            let subscription = try await live.subscribe("subscription { feedPosts { id } }", viewer: live.gateway.bob)
            live.hub.handle(.lost("test"))
            guard case .end(.failed(let errors))? = await Self.next(subscription) else {
                Issue.record("the subscription outlived the feed")
                return
            }
            #expect(errors.first?.extensions?["code"] == "BACKEND_UNAVAILABLE")
            let refused = await live.hub.subscribe(GatewayRequest(query: "subscription { feedPosts { id } }", viewer: live.gateway.bob))
            guard case .refused(let response) = refused else { Issue.record("a subscription started without a feed"); return }
            #expect(response.errorCodes == ["BACKEND_UNAVAILABLE"])
            live.hub.handle(.connected)
            _ = try await live.subscribe("subscription { feedPosts { id } }", viewer: live.gateway.bob)
        }
    }

    @Test("shutdown completes every subscription; a store with other writers and no feed refuses to start any")
    func shutdownAndNoFeed() async throws {
        try await Live.run(.embedded) { live in
            let subscription = try await live.subscribe("subscription { notifications { id } }", viewer: live.gateway.bob)
            live.hub.shutdown()
            guard case .end(.completed)? = await Self.next(subscription) else {
                Issue.record("shutdown did not complete the subscription")
                return
            }
        }
        try await GatewayFixture.run(.embedded) { gateway in
            let stream = ChangeStream(feed: nil, writesOnlyThroughThisProcess: false)
            let hub = SubscriptionHub(service: gateway.service, changes: stream, logger: .init(label: "test"))
            let start = await hub.subscribe(GatewayRequest(query: "subscription { feedPosts { id } }", viewer: gateway.bob))
            guard case .refused(let response) = start else { Issue.record("started without a feed"); return }
            #expect(response.errorCodes == ["BACKEND_UNAVAILABLE"])
            #expect(String(decoding: response.body, as: UTF8.self).contains("DATABASE_URL"))
        }
    }
}
