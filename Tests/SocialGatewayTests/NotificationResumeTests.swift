import Foundation
import GatewayTestSupport
import GraphQLEngine
import SocialDomain
import SocialFixtures
@testable import SocialGateway
import Synchronization
import Testing

/// Issue 54: `Subscription.notifications(after:)` resumes: what a reconnecting client missed
/// (stored, oldest first), then live events, with no gap and none twice, on every store.
@Suite("Notifications: a subscription resumes after a cursor (issue 54)")
struct NotificationResumeTests {
    /// A notification store that runs `beforeRead` once, before its first read: the write that
    /// races a resume, committed after the subscription is registered and before the stored
    /// notifications are read (so it is both queued live and read back).
    final class RacingNotifications: NotificationStore {
        let base: any NotificationStore
        let beforeRead = Mutex<(@Sendable () async -> Void)?>(nil)
        init(base: any NotificationStore) { self.base = base }

        func storedNotifications(since: Int64, limit: Int, viewer: Viewer) async throws -> [StoredNotification] {
            if let race = beforeRead.withLock({ hook in defer { hook = nil }; return hook }) { await race() }
            return try await base.storedNotifications(since: since, limit: limit, viewer: viewer)
        }

        func markNotificationsRead(_ selection: NotificationReadSelection, viewer: Viewer) async throws -> Int {
            try await base.markNotificationsRead(selection, viewer: viewer)
        }
    }

    static let subscription = "subscription S($after: String) { notifications(after: $after) { __typename id cursor actor { handle } } }"

    static func comment(_ g: GatewayFixture, _ text: String, by viewer: Viewer) async throws {
        try await NotificationTests.mutate(
            g, "mutation($id: ID!, $c: String!) { addComment(postId: $id, content: $c) { comment { id } } }",
            ["id": .string(NotificationTests.post), "c": .string(text)], viewer: viewer)
    }

    /// The ids alice's stored notifications have now, newest first.
    static func storedIds(_ g: GatewayFixture) async throws -> [(id: String, cursor: String)] {
        let page = try await NotificationTests.page(g, g.alice)
        return (page["edges"]?.arrayValue ?? []).map { ($0["node"]?["id"]?.stringValue ?? "", $0["cursor"]?.stringValue ?? "") }
    }

    @Test("issue 54: resumed after a cursor, the missed ones come oldest first, then live ones; one written during the resume comes once",
          arguments: StoreKind.allCases)
    func resumeWithRace(_ kind: StoreKind) async throws {
        try await TestStore.run(kind) { store in
            let stream = ChangeStream(feed: nil)
            var options = GatewayOptions()
            options.changes = stream
            var stores = store.stores
            let racing = RacingNotifications(base: store.stores.notifications)
            stores.notifications = racing
            let g = GatewayFixture(store: store, service: try GatewayService(stores: stores, options: options))
            let hub = SubscriptionHub(service: g.service, changes: stream, logger: .init(label: "test"))
            defer { hub.shutdown() }

            // The client saw the first comment, then went away; two more came meanwhile.
            try await Self.comment(g, "one", by: g.bob)
            let seen = try #require(try await Self.storedIds(g).first)
            try await Self.comment(g, "two", by: g.carol)
            try await Self.comment(g, "three", by: g.bob)
            // Reconnecting: a fourth is written after the subscription is registered and before
            // the stored ones are read (queued live and read back), a fifth once it runs.
            racing.beforeRead.withLock { $0 = { try? await Self.comment(g, "four", by: g.carol) } }
            let start = await hub.subscribe(GatewayRequest(query: Self.subscription, variables: ["after": .string(seen.cursor)], viewer: g.alice))
            guard case .started(let subscription) = start else {
                Issue.record("refused: \(start)")
                return
            }
            try await Self.comment(g, "five", by: g.bob)

            var received: [String] = []
            while let message = await SubscriptionHubTests.next(subscription, within: 3) {
                let data = try SubscriptionHubTests.data(message)
                received.append(data["notifications"]?["id"]?.stringValue ?? "")
            }
            let stored = try await Self.storedIds(g)  // newest first: five, four, three, two, one
            #expect(stored.count == 5)
            #expect(received == stored.dropLast().reversed().map(\.id), "two, three, four once, then five")
            subscription.cancel()
        }
    }

    @Test("issue 54: a resume cursor that is not one of the viewer's notifications is refused with BAD_USER_INPUT",
          arguments: StoreKind.allCases)
    func badCursor(_ kind: StoreKind) async throws {
        try await SubscriptionHubTests.Live.run(kind) { live in
            let g = live.gateway
            try await Self.comment(g, "one", by: g.bob)
            let alices = try #require(try await Self.storedIds(g).first)
            for (after, viewer) in [("nope", g.alice), (alices.cursor, g.bob)] {
                let start = await live.hub.subscribe(GatewayRequest(query: Self.subscription, variables: ["after": .string(after)], viewer: viewer))
                guard case .refused(let response) = start else {
                    Issue.record("started with \(after)")
                    continue
                }
                let json = try JSONParser.parse(response.body)
                #expect(GatewayFixture.codes(json) == ["BAD_USER_INPUT"])
                #expect(GatewayFixture.messages(json) == ["after is not a valid cursor for this list"])
            }
        }
    }

    @Test("issue 54: a live notification carries the cursor and id it has when read back", arguments: StoreKind.allCases)
    func liveMatchesStored(_ kind: StoreKind) async throws {
        try await SubscriptionHubTests.Live.run(kind) { live in
            let g = live.gateway
            let subscription = try await live.subscribe(Self.subscription, viewer: g.alice)
            try await Self.comment(g, "hello", by: g.bob)
            let data = try SubscriptionHubTests.data(await SubscriptionHubTests.next(subscription))
            let stored = try #require(try await Self.storedIds(g).first)
            #expect(data["notifications"]?["id"]?.stringValue == stored.id)
            #expect(data["notifications"]?["cursor"]?.stringValue == stored.cursor)
            subscription.cancel()
        }
    }
}
