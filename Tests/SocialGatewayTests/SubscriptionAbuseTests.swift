import Foundation
import GatewayTestSupport
import GraphQLEngine
import SocialDomain
import SocialFixtures
@testable import SocialGateway
import Testing

/// Issue 51, items 2, 3, 7a and 7c, at the hub: what one account's subscriptions may cost, the
/// end of a session, private activity and repeated notifications.
@Suite("Subscriptions under abuse: fan-out, cost, per-viewer bounds, ended sessions, private activity, repeats (issue 51)")
struct SubscriptionAbuseTests {
    typealias Live = SubscriptionHubTests.Live

    static let alice = DemoData.aliceId.uuidString.lowercased()
    static let bob = DemoData.bobId.uuidString.lowercased()
    static let carol = DemoData.carolId.uuidString.lowercased()

    static func next(_ subscription: LiveSubscription, within seconds: Double = 5) async -> SubscriptionMessage? {
        await SubscriptionHubTests.next(subscription, within: seconds)
    }

    static func data(_ message: SubscriptionMessage?) throws -> JSONValue { try SubscriptionHubTests.data(message) }

    /// The code of the error a subscription ended with, or nil when it did not end so.
    static func endCode(_ message: SubscriptionMessage?) -> String? {
        guard case .end(.failed(let errors))? = message else { return nil }
        return errors.first?.extensions?["code"]?.stringValue
    }

    @Test("identical subscriptions of one viewer execute once per event and share the answer: 80 subscriptions, 1 execution", arguments: StoreKind.allCases)
    func fanOut(_ kind: StoreKind) async throws {
        try await Live.run(kind) { live in
            let g = live.gateway
            let query = "subscription { feedPosts { id content author { handle } } }"
            var subscriptions: [LiveSubscription] = []
            for _ in 0..<80 { subscriptions.append(try await live.subscribe(query, viewer: g.alice)) }
            // Another document is another key: its own execution.
            let other = try await live.subscribe("subscription { feedPosts { content } }", viewer: g.alice)
            try await live.mutate(#"mutation { createPost(input: {content: "Fan me out"}) { post { id } } }"#, viewer: g.alice)
            for subscription in subscriptions {
                let data = try Self.data(await Self.next(subscription))
                #expect(data["feedPosts"]?["content"] == "Fan me out")
            }
            #expect(try Self.data(await Self.next(other))["feedPosts"]?["content"] == "Fan me out")
            let counts = live.hub.counters.snapshot
            #expect(counts["executed"] == 2, "\(counts)")
            #expect(counts["delivered"] == 81, "\(counts)")
            for subscription in subscriptions + [other] { subscription.cancel() }
        }
    }

    @Test("a subscription whose selection costs over SUBSCRIPTION_MAX_COST is refused with QUERY_TOO_COMPLEX; a small one starts")
    func costCeiling() async throws {
        try await Live.run(.embedded, limits: SubscriptionLimits(maxCost: 20)) { live in
            let heavy = await live.hub.subscribe(GatewayRequest(
                query: "subscription { feedPosts { author { followers(first: 50) { nodes { handle } } } } }", viewer: live.gateway.alice))
            guard case .refused(let response) = heavy else { Issue.record("a subscription over its maximum cost started"); return }
            #expect(response.errorCodes == ["QUERY_TOO_COMPLEX"])
            #expect(String(decoding: response.body, as: UTF8.self).contains("exceeds the maximum cost of a subscription, 20"))
            let small = try await live.subscribe("subscription { feedPosts { id } }", viewer: live.gateway.alice)
            small.cancel()
        }
    }

    @Test("live subscriptions per viewer are bounded over every connection: one more is TOO_MANY_SUBSCRIPTIONS until one ends")
    func perViewerBound() async throws {
        try await Live.run(.embedded, limits: SubscriptionLimits(subscriptionsPerViewer: 2)) { live in
            let g = live.gateway
            let first = try await live.subscribe("subscription { feedPosts { id } }", viewer: g.alice)
            let second = try await live.subscribe("subscription { notifications { id } }", viewer: g.alice)
            let third = await live.hub.subscribe(GatewayRequest(query: "subscription { feedPosts { id } }", viewer: g.alice))
            guard case .refused(let response) = third else { Issue.record("a third subscription started"); return }
            #expect(response.errorCodes == ["TOO_MANY_SUBSCRIPTIONS"])
            // Another viewer has their own bound.
            let bobs = try await live.subscribe("subscription { feedPosts { id } }", viewer: g.bob)
            first.cancel()
            let again = try await live.subscribe("subscription { feedPosts { id } }", viewer: g.alice)
            #expect(live.hub.subscriptionCount(viewer: DemoData.aliceId) == 2)
            for subscription in [second, bobs, again] { subscription.cancel() }
        }
    }

    @Test("each delivered event spends the subscription's cost from the viewer's reads; an empty bucket ends it with TOO_MANY_REQUESTS")
    func eventsSpendReads() async throws {
        var options = GatewayOptions()
        // One unit and a stopped clock: the subscription's start spends it, nothing refills.
        options.rateLimiter = RateLimiter(
            query: .init(name: "query", capacity: 1, refillPerSecond: 1), mutation: GatewayOptions.mutationRateLimit, now: { 0 })
        try await Live.run(.embedded, options: options) { live in
            let subscription = try await live.subscribe("subscription { feedPosts { id } }", viewer: live.gateway.alice)
            try await live.mutate(#"mutation { createPost(input: {content: "Costly"}) { post { id } } }"#, viewer: live.gateway.alice)
            let message = await Self.next(subscription)
            #expect(Self.endCode(message) == "TOO_MANY_REQUESTS", "\(String(describing: message))")
            #expect(live.hub.activeCount == 0)
        }
    }

    /// A JWT-shaped token (unsigned: the hub reads claims of tokens the server verified) of `user` in `session`.
    static func token(user: UUID, session: UUID) -> String {
        func encode(_ text: String) -> String {
            Data(text.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
                .replacingOccurrences(of: "=", with: "")
        }
        let iat = Int(Date().timeIntervalSince1970) - 60
        let payload = #"{"sub":"\#(user.uuidString.lowercased())","session_id":"\#(session.uuidString.lowercased())","iat":\#(iat),"exp":\#(iat + 3600)}"#
        return encode(#"{"alg":"HS256"}"#) + "." + encode(payload) + ".c2ln"
    }

    @Test("a session that ends (sign-out here, or another replica's end through the stream) ends its subscriptions with UNAUTHENTICATED and closes its connections; other sessions live on")
    func sessionEnds() async throws {
        try await Live.run(.embedded) { live in
            let ended = live.gateway.service.options.endedSessions
            let (signedOut, other, changed) = (UUID(), UUID(), UUID())
            let viewer = Viewer.user(id: DemoData.aliceId, token: Self.token(user: DemoData.aliceId, session: signedOut))
            let otherViewer = Viewer.user(id: DemoData.aliceId, token: Self.token(user: DemoData.aliceId, session: other))
            let subscription = try await live.subscribe("subscription { notifications { id } }", viewer: viewer)
            let survivor = try await live.subscribe("subscription { notifications { id } }", viewer: otherViewer)
            let closed = OrderLog()
            _ = live.hub.watchSession(try #require(SessionIdentity(viewer: viewer))) { closed.items.withLock { $0.append(1) } }
            await ended.record(.session(signedOut, user: DemoData.aliceId, until: Date().addingTimeInterval(3600)))
            #expect(Self.endCode(await Self.next(subscription, within: 1)) == "UNAUTHENTICATED")
            #expect(closed.items.withLock { $0 } == [1])
            #expect(!survivor.hasEnded)
            // Another replica's password change, applied from the change stream: every older session ends.
            ended.apply([.allSessions(of: DemoData.aliceId, changedAt: Date(), except: changed)])
            #expect(Self.endCode(await Self.next(survivor, within: 1)) == "UNAUTHENTICATED")
            // A subscription with an ended session's token is ended at its next event too.
            #expect(live.hub.activeCount == 0)
        }
    }

    @Test("a private profile's likes and comments reach neither notifications nor postActivity of a viewer who sees only its card", arguments: StoreKind.allCases)
    func privateActivity(_ kind: StoreKind) async throws {
        try await Live.run(kind) { live in
            let g = live.gateway
            for viewer in [g.bob, g.carol] {
                try await live.mutate("mutation($id: ID!) { unfollow(profileId: $id) { following } }", ["id": .string(Self.alice)], viewer: viewer)
            }
            try await live.mutate("mutation($id: ID!) { unfollow(profileId: $id) { following } }", ["id": .string(Self.carol)], viewer: g.alice)
            try await live.mutate("mutation { updateProfile(input: {isPublic: false}) { profile { id } } }", viewer: g.carol)
            let created = try await live.mutate(#"mutation { createPost(input: {content: "Public post"}) { post { id } } }"#, viewer: g.alice)
            let post = try #require(created["data"]?["createPost"]?["post"]?["id"]?.stringValue)
            let notifications = try await live.subscribe(
                "subscription { notifications { __typename actor { handle } } }", viewer: g.alice)
            let activity = try await live.subscribe(
                "subscription($id: ID!) { postActivity(postId: $id) { post { likeCount } newComment { content } } }", ["id": .string(post)],
                viewer: g.alice)
            try await live.mutate("mutation($id: ID!) { toggleLike(postId: $id) { liked } }", ["id": .string(post)], viewer: g.carol)
            try await live.mutate(
                #"mutation($id: ID!) { addComment(postId: $id, content: "from a private profile") { comment { id } } }"#,
                ["id": .string(post)], viewer: g.carol)
            try await Task.sleep(for: .milliseconds(100))
            // A public profile's like comes first: the private one's were skipped, not delayed.
            try await live.mutate("mutation($id: ID!) { toggleLike(postId: $id) { liked } }", ["id": .string(post)], viewer: g.bob)
            let told = try Self.data(await Self.next(notifications))
            #expect(told["notifications"]?["actor"]?["handle"] == "bob_builder", "\(told)")
            let changed = try Self.data(await Self.next(activity))
            #expect(changed["postActivity"]?["newComment"] == .null, "\(changed)")
            #expect(changed["postActivity"]?["post"]?["likeCount"] == 2, "\(changed)")
            let nothing = await Self.next(activity, within: 0.5)
            #expect(nothing == nil, "a private profile's activity was told")
            notifications.cancel()
            activity.cancel()
        }
    }

    @Test("a like toggled again and again notifies once per NOTIFICATION_REPEAT_WINDOW; a comment after it is still told")
    func repeatedLikes() async throws {
        try await Live.run(.embedded) { live in
            let g = live.gateway
            let created = try await live.mutate(#"mutation { createPost(input: {content: "Like me"}) { post { id } } }"#, viewer: g.alice)
            let post = try #require(created["data"]?["createPost"]?["post"]?["id"]?.stringValue)
            let subscription = try await live.subscribe(
                "subscription { notifications { __typename actor { handle } } }", viewer: g.alice)
            for _ in 0..<6 {
                try await live.mutate("mutation($id: ID!) { toggleLike(postId: $id) { liked } }", ["id": .string(post)], viewer: g.bob)
            }
            try await live.mutate(
                #"mutation($id: ID!) { addComment(postId: $id, content: "one comment") { comment { id } } }"#, ["id": .string(post)],
                viewer: g.bob)
            #expect(try Self.data(await Self.next(subscription))["notifications"]?["__typename"] == "LikeNotification")
            #expect(try Self.data(await Self.next(subscription))["notifications"]?["__typename"] == "CommentNotification")
            #expect(live.hub.counters.snapshot["throttled"] == 2)
            subscription.cancel()
        }
    }
}
