import Foundation
import GatewayTestSupport
import ResponseCache
import SocialDomain
import SocialFixtures
@testable import SocialGateway
import Synchronization
import Testing

/// Issue 38: one stream of typed changes, on every store, which the cache's coherence reads and
/// subscriptions will read next.
@Suite("Change stream: typed changes from the feed or this replica's writes (issue 38)")
struct ChangeStreamTests {
    final class Received: Sendable {
        private let events = Mutex<[ChangeEvent]>([])
        func add(_ event: ChangeEvent) { events.withLock { $0.append(event) } }
        var all: [ChangeEvent] { events.withLock { $0 } }
    }

    /// A feed that delivers what a test sends it.
    final class ScriptedFeed: ChangeFeed {
        private let deliver = Mutex<(@Sendable (ChangeFeedEvent) async -> Void)?>(nil)
        func follow(_ deliver: @escaping @Sendable (ChangeFeedEvent) async -> Void) async {
            self.deliver.withLock { $0 = deliver }
            while !Task.isCancelled { try? await Task.sleep(for: .milliseconds(5)) }
        }
        func send(_ event: ChangeFeedEvent) async { await deliver.withLock { $0 }?(event) }
        var following: Bool { deliver.withLock { $0 != nil } }
    }

    @Test("every cache tag reads back as its typed change and prints as the same tag; an unknown tag is kept as it came")
    func tagsRoundTrip() {
        let id = UUID()
        let changes: [DataChange] = [
            .profile(id), .followers(id), .following(id), .followLists, .post(id), .posts(author: id), .allFeeds,
            .comments(post: id), .search,
        ]
        for change in changes { #expect(DataChange(tag: change.tag) == change) }
        #expect(DataChange(tag: "Profile:\(id.uuidString.lowercased())") == .profile(id))
        #expect(DataChange(tag: "stories:\(id)") == .other("stories:\(id)"))
        #expect(DataChange(tag: "Profile:not-a-uuid") == .other("Profile:not-a-uuid"))
        #expect(DataChange(tag: "stories:x").tag == "stories:x")
    }

    @Test("without a feed, a committed toggleFollow reaches subscribers once, typed, from this replica", arguments: StoreKind.allCases)
    func ownWritesPublished(_ kind: StoreKind) async throws {
        let stream = ChangeStream(feed: nil), received = Received()
        stream.subscribe { received.add($0) }
        var options = GatewayOptions()
        options.changes = stream
        try await GatewayFixture.run(kind, options: options) { gateway in
            let bob = DemoData.bobId.uuidString.lowercased()
            _ = try await gateway.run(#"{ profile(handle: "bob_builder") { followerCount } }"#, viewer: gateway.alice)
            #expect(received.all.isEmpty, "a read published a change")
            let toggled = try await gateway.run(
                "mutation($id: ID!) { toggleFollow(profileId: $id) { following } }", ["id": .string(bob)], viewer: gateway.alice)
            #expect(toggled.json["errors"] == nil)
            let events = received.all
            #expect(events.count == 1)
            guard case .changed(let changes, let origin) = events.first else {
                Issue.record("expected a change, got \(events)")
                return
            }
            #expect(origin == .thisReplica)
            #expect(changes.contains(.profile(DemoData.bobId)))
            #expect(changes.contains(.followers(DemoData.bobId)))
            #expect(changes.contains(.following(DemoData.aliceId)))
        }
    }

    @Test("with a feed, the feed's events reach subscribers typed, and this replica publishes nothing itself (no double)")
    func feedEventsTyped() async throws {
        let feed = ScriptedFeed(), stream = ChangeStream(feed: feed), received = Received()
        stream.subscribe { received.add($0) }
        let running = Task { try await stream.run() }
        defer { running.cancel() }
        await stream.publish([.search])
        for _ in 0..<400 where !feed.following { try await Task.sleep(for: .milliseconds(5)) }
        let id = UUID()
        await feed.send(.connected)
        await feed.send(.changed(tags: ["Profile:\(id.uuidString.lowercased())", "search"]))
        #expect(received.all == [.connected, .changed([.profile(id), .search], origin: .feed)])
    }

    @Test("the cache's coherence invalidates a feed's change, and leaves this replica's own (already invalidated) alone")
    func coherenceReadsFeedChangesOnly() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("stream-\(UUID().uuidString)")
        let cache = ResponseCacheStore.open(path: directory.appendingPathComponent("cache.sqlite"))
        let coherence = CacheCoherence(cache: cache, feed: ScriptedFeed(), logger: .init(label: "test"))
        await coherence.handle(.connected)
        for _ in 0..<400 where !coherence.isIdle { try await Task.sleep(for: .milliseconds(5)) }
        let id = UUID()
        let key = CacheKey(document: "{ a }", operationName: nil, variables: "{}", scope: .shared)
        await cache.store(key, body: Array(#"{"data":{"a":1}}"#.utf8), maxAge: 60, tags: [CacheTags.profile(id)], token: cache.beginComputation())
        #expect(await cache.lookup(key) != nil)
        await coherence.handle(.changed([.profile(id)], origin: .thisReplica))
        for _ in 0..<400 where !coherence.isIdle { try await Task.sleep(for: .milliseconds(5)) }
        #expect(await cache.lookup(key) != nil)
        await coherence.handle(.changed([.profile(id)], origin: .feed))
        for _ in 0..<400 where !coherence.isIdle { try await Task.sleep(for: .milliseconds(5)) }
        #expect(await cache.lookup(key) == nil)
    }
}
