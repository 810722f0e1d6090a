import Foundation
import GatewayTestSupport
import Logging
@testable import PostgresStore
import SocialDomain
import SocialFixtures
import Synchronization
import Testing

/// Issue 39: a notification whose write was something a profile did carries it as `activity`
/// (migration 20250301002200), read as `changed(tags:)` then `happened(_:)`.
@Suite("Change feed payloads: tags, then the activity when there is one")
struct ChangeFeedPayloadTests {
    let alice = "a11ce000-0000-4000-8000-000000000001", bob = "b0b00000-0000-4000-8000-000000000002"
    let post = "b1057000-0000-4000-8000-000000000001", comment = "c0330000-0000-4000-8000-000000000001"
    var tags: String { #""tags":["Post:\#(post)","comments:\#(post)"]"# }
    var tagSet: Set<String> { ["Post:\(post)", "comments:\(post)"] }

    /// As the trigger writes it: compact, in Activity's key order.
    func payload(activity: String?) -> String {
        #"{"v":1,"table":"comments","# + tags + (activity.map { #","activity":"# + $0 } ?? "") + "}"
    }

    @Test("an activity: the tags, then the activity with every field")
    func activityPresent() {
        let recorder = LogRecorder()
        let events = PostgresChangeFeed.events(payload: payload(activity: """
            {"kind":"commented","actor":"\(alice)","subject":"\(bob)","post":"\(post)","comment":"\(comment)","at":1740832496999999}
            """), logger: recorder.logger)
        #expect(events == [
            .changed(tags: tagSet),
            .happened(Activity(kind: .commented, actor: UUID(uuidString: alice)!, subject: UUID(uuidString: bob)!,
                               post: UUID(uuidString: post)!, comment: UUID(uuidString: comment)!, at: 1_740_832_496_999_999)),
        ])
        #expect(recorder.warnings.isEmpty)
    }

    @Test("each kind as the trigger sends it, nulls and upper-case ids included")
    func everyKind() {
        let logger = Logger(label: "t")
        let a = UUID(uuidString: alice)!, b = UUID(uuidString: bob)!, p = UUID(uuidString: post)!
        let cases: [(String, Activity)] = [
            (#"{"kind":"followed","actor":"\#(alice)","subject":"\#(bob)","post":null,"comment":null,"at":-999999}"#,
             Activity(kind: .followed, actor: a, subject: b, at: -999_999)),
            (#"{"kind":"liked","actor":"\#(alice.uppercased())","subject":"\#(alice)","post":"\#(post)","comment":null,"at":1}"#,
             Activity(kind: .liked, actor: a, subject: a, post: p, at: 1)),
            (#"{"kind":"posted","actor":"\#(bob)","subject":"\#(bob)","post":"\#(post)","comment":null,"at":253402300799999999}"#,
             Activity(kind: .posted, actor: b, subject: b, post: p, at: 253_402_300_799_999_999)),
        ]
        for (json, activity) in cases {
            #expect(PostgresChangeFeed.events(payload: payload(activity: json), logger: logger)
                    == [.changed(tags: tagSet), .happened(activity)], "\(json)")
        }
    }

    @Test("no activity, or a JSON null: the tags alone, no warning")
    func none() {
        let recorder = LogRecorder()
        #expect(PostgresChangeFeed.events(payload: payload(activity: nil), logger: recorder.logger) == [.changed(tags: tagSet)])
        #expect(PostgresChangeFeed.events(payload: payload(activity: "null"), logger: recorder.logger) == [.changed(tags: tagSet)])
        #expect(recorder.warnings.isEmpty)
    }

    @Test("an activity that does not decode or is not well formed: the tags kept, the activity dropped with a warning")
    func malformed() {
        let wellFormed = #""actor":"\#(alice)","subject":"\#(bob)","post":"\#(post)","comment":"\#(comment)","at":1"#
        let bad = [
            #"{"kind":"commented","actor":"not-a-uuid","subject":"\#(bob)","post":"\#(post)","comment":"\#(comment)","at":1}"#,
            #"{"kind":"reposted",\#(wellFormed)}"#,                       // a kind this code does not know
            #"{"actor":"\#(alice)","subject":"\#(bob)","at":1}"#,          // no kind
            #"{"kind":"commented",\#(wellFormed.replacingOccurrences(of: #""at":1"#, with: #""at":"1""#))}"#,
            #"{"kind":"commented","actor":"\#(alice)","subject":"\#(bob)","post":"\#(post)","comment":null,"at":1}"#,  // no comment
            #"{"kind":"followed","actor":"\#(alice)","subject":"\#(alice)","post":null,"comment":null,"at":1}"#,   // self-follow
            #"{"kind":"followed",\#(wellFormed)}"#,                       // a follow naming a post
            #""commented""#, "[]", "{}",
        ]
        for activity in bad {
            let recorder = LogRecorder()
            let text = payload(activity: activity)
            #expect(PostgresChangeFeed.events(payload: text, logger: recorder.logger) == [.changed(tags: tagSet)], "\(activity)")
            #expect(recorder.warnings.count == 1, "\(activity)")
            #expect(recorder.warnings.first?.contains(text) == true, "\(activity)")   // all of it: under 500 bytes
        }
    }

    @Test("what was read before is read as before: sessions, unreadable payloads, an activity without tags")
    func unchanged() {
        let logger = Logger(label: "t")
        let activity = #"{"kind":"posted","actor":"\#(bob)","subject":"\#(bob)","post":"\#(post)","comment":null,"at":1}"#
        #expect(PostgresChangeFeed.events(payload: "{not json", logger: logger) == [.unreadable("{not json")])
        for text in [#"{"v":2,"tags":["a"]}"#, #"{"v":1,"tags":[]}"#, #"{"v":1,"activity":\#(activity)}"#,
                     #"{"v":1,"tags":[],"activity":\#(activity)}"#] {
            #expect(PostgresChangeFeed.events(payload: text, logger: logger) == [.unreadable(String(text.prefix(200)))], "\(text)")
        }
        let end = SessionEnd.session(UUID(), user: UUID(uuidString: alice)!, until: Date(timeIntervalSince1970: 2_000_000_000))
        let sessions = String(decoding: try! JSONEncoder().encode(PostgresChangeFeed.SessionsPayload(v: 1, sessionsEnded: [end])), as: UTF8.self)
        #expect(PostgresChangeFeed.events(payload: sessions, logger: logger) == [.sessionsEnded([end])])
    }
}

@Suite("Activities made through PostgresStore arrive on a PostgresChangeFeed",
       .enabled(if: postgresAvailable, "needs SOCIAL_GATEWAY_TEST_POSTGRES (scripts/test starts a server)"), .serialized)
struct ChangeFeedActivityTests {
    /// Follows `store`'s feed while `body` writes; once a marker sent after `body` has arrived
    /// (notifications arrive in commit order), what arrived.
    func recording(
        _ database: PostgresTestDatabase, _ store: PostgresStore, _ body: () async throws -> Void
    ) async throws -> [ChangeFeedEvent] {
        let recorder = RecordingFeed()
        let feed = PostgresChangeFeed(configuration: store.configuration, logger: Logger(label: "t"))
        let following = Task { await feed.follow { await recorder.record($0) } }
        defer { following.cancel() }
        #expect(await eventually { await recorder.events.contains(.connected) })
        try await body()
        try await database.execute(#"select pg_notify('social_gateway_cache', '{"v":1,"tags":["marker"]}')"#)
        #expect(await eventually { await recorder.events.contains(.changed(tags: ["marker"])) })
        return await recorder.events
    }

    func activities(_ events: [ChangeFeedEvent]) -> [Activity] {
        events.compactMap { if case .happened(let activity) = $0 { activity } else { nil } }
    }

    /// Every `happened` comes right after a `changed` holding `tags` (the same write's).
    func eachAfterItsTags(_ events: [ChangeFeedEvent], _ tags: (Activity) -> Set<String>) -> Bool {
        events.indices.allSatisfy { i in
            guard case .happened(let activity) = events[i] else { return true }
            guard i > 0, case .changed(let before) = events[i - 1] else { return false }
            return before.isSuperset(of: tags(activity))
        }
    }

    @Test("a new follow and a restored one arrive as followed, at updated_at; a second follow and unfollows send none")
    func follows() async throws {
        try await withDemoDatabase { database, store in
            let pair = FollowPair(follower: DemoData.aliceId, followee: DemoData.bobId)
            let row = "from public.follows where follower_id = '\(DemoData.aliceId)' and followee_id = '\(DemoData.bobId)'"
            let updatedAt = "select (extract(epoch from updated_at) * 1000000)::bigint \(row)"
            var times: [Int64] = []
            let events = try await recording(database, store) {
                // Alice follows bob in the demo data: gone entirely, a follow is an INSERT.
                try await database.execute("delete \(row)")
                let followed = try await store.changeFollow(FollowChange(pair: pair, action: .follow), viewer: alice)
                #expect(followed.isFollowing)
                times.append(try #require(try await database.int64(updatedAt)))
                _ = try await store.changeFollow(FollowChange(pair: pair, action: .follow), viewer: alice)   // already followed
                let unfollowed = try await store.changeFollow(FollowChange(pair: pair, action: .unfollow), viewer: alice)
                #expect(!unfollowed.isFollowing)
                _ = try await store.changeFollow(FollowChange(pair: pair, action: .unfollow), viewer: alice) // not followed
                _ = try await store.changeFollow(FollowChange(pair: pair, action: .follow), viewer: alice)   // restored
                times.append(try #require(try await database.int64(updatedAt)))
                _ = try await store.changeFollow(FollowChange(pair: pair, action: .toggle), viewer: alice)   // an unfollow
                _ = try await store.changeFollow(FollowChange(pair: pair, action: .toggle), viewer: alice)   // restored again
                times.append(try #require(try await database.int64(updatedAt)))
            }
            #expect(times.count == 3 && times[0] < times[1] && times[1] < times[2])
            #expect(activities(events) == times.map {
                Activity(kind: .followed, actor: DemoData.aliceId, subject: DemoData.bobId, at: $0)
            })
            #expect(eachAfterItsTags(events) { _ in
                ["followers:\(DemoData.bobId.lowercased)", "following:\(DemoData.aliceId.lowercased)"]
            })
            // The writes that were no activity still sent their tags: the delete and two unfollows.
            let followTags = events.filter {
                if case .changed(let tags) = $0 { tags.contains("followers:\(DemoData.bobId.lowercased)") } else { false }
            }
            #expect(followTags.count == 6)
        }
    }

    @Test("a post, a like and a comment arrive as posted, liked and commented with their ids and times")
    func postsLikesComments() async throws {
        try await withDemoDatabase { database, store in
            var post: Post?
            var comment: SocialDomain.Comment?
            var likedAt: Int64?
            let events = try await recording(database, store) {
                post = try await store.createPost(PostDraft(content: "Activity check", imageURLs: []), viewer: bob)
                let id = try #require(post?.id)
                _ = try await store.updatePost(id: id, changes: PostChanges(content: "Activity check, edited"), viewer: bob)
                let like = try await store.toggleLike(postId: id, viewer: alice)
                #expect(like.liked)
                likedAt = try await database.int64("""
                    select (extract(epoch from created_at) * 1000000)::bigint from public.post_likes
                    where post_id = '\(id)' and profile_id = '\(DemoData.aliceId)'
                    """)
                comment = try await store.addComment(postId: id, content: "Nice one", viewer: alice)
                _ = try await store.toggleLike(postId: id, viewer: alice)   // an unlike: none
            }
            let p = try #require(post), c = try #require(comment), at = try #require(likedAt)
            #expect(activities(events) == [
                Activity(kind: .posted, actor: DemoData.bobId, subject: DemoData.bobId, post: p.id, at: p.createdAtMicroseconds),
                Activity(kind: .liked, actor: DemoData.aliceId, subject: DemoData.bobId, post: p.id, at: at),
                Activity(kind: .commented, actor: DemoData.aliceId, subject: DemoData.bobId, post: p.id, comment: c.id,
                         at: c.createdAtMicroseconds),
            ])
            #expect(eachAfterItsTags(events) { ["Post:\($0.post!.lowercased)"] })
        }
    }
}

/// Records what a logger is told, for the warnings.
final class LogRecorder: Sendable {
    private let entries = Mutex<[(level: Logger.Level, text: String)]>([])

    var logger: Logger {
        Logger(label: "test.change-feed") { _ in Handler(recorder: self) }
    }

    var warnings: [String] {
        entries.withLock { $0.filter { $0.level >= .warning }.map(\.text) }
    }

    struct Handler: LogHandler {
        let recorder: LogRecorder
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            let text = "\(event.message) \(event.metadata ?? [:])"
            recorder.entries.withLock { $0.append((event.level, text)) }
        }
    }
}
