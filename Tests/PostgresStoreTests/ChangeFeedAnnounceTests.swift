import Foundation
import Logging
import PostgresStore
import SocialDomain
import SocialFixtures
import Testing

/// Issue 37, section 4: a session ended on one replica reaches the others through the database's
/// notifications, on the channel the cache already listens on.
@Suite("Ended sessions travel between replicas on PostgreSQL's notifications",
       .enabled(if: postgresAvailable, "needs SOCIAL_GATEWAY_TEST_POSTGRES (scripts/test starts a server)"), .serialized)
struct ChangeFeedAnnounceTests {
    @Test("a session end announced by one feed arrives, decoded, at another feed's follower")
    func announceReachesOtherFeed() async throws {
        try await withDemoDatabase { _, store in
            let sender = PostgresChangeFeed(configuration: store.configuration, logger: Logger(label: "a"))
            let receiver = PostgresChangeFeed(configuration: store.configuration, logger: Logger(label: "b"))
            let recorderA = RecordingFeed(), recorderB = RecordingFeed()
            let followingA = Task { await sender.follow { await recorderA.record($0) } }
            let followingB = Task { await receiver.follow { await recorderB.record($0) } }
            defer { followingA.cancel(); followingB.cancel() }
            #expect(await eventually {
                let a = await recorderA.events.contains(.connected)
                let b = await recorderB.events.contains(.connected)
                return a && b
            })
            let end = SessionEnd.session(UUID(), user: DemoData.aliceId, until: Date(timeIntervalSince1970: 2_000_000_000))
            let all = SessionEnd.allSessions(user: DemoData.bobId, issuedUpTo: Date(timeIntervalSince1970: 1_900_000_000), except: UUID())
            try await sender.announce(end)
            try await sender.announce(all)
            #expect(await eventually { await recorderB.events.contains(.sessionsEnded([all])) })
            #expect(await recorderB.events.contains(.sessionsEnded([end])))
            // The announcer hears its own announcement too (it is one replica among others).
            #expect(await eventually { await recorderA.events.contains(.sessionsEnded([end])) })
            // Nothing in it reads as cache tags, nor as a notification this code cannot read.
            let unreadable = await recorderB.events.contains { if case .unreadable = $0 { true } else { false } }
            #expect(!unreadable)
        }
    }

    @Test("announcing while the feed is not connected fails with a clear error, for the caller to log")
    func announceWithoutConnection() async throws {
        try await withDemoDatabase { _, store in
            let feed = PostgresChangeFeed(configuration: store.configuration, logger: Logger(label: "a"))
            await #expect(throws: ChangeFeedAnnounceError.self) {
                try await feed.announce(.session(UUID(), user: DemoData.aliceId, until: Date().addingTimeInterval(60)))
            }
        }
    }
}
