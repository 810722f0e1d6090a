import Foundation
import GatewayTestSupport
import Logging
import PostgresStore
import SocialDomain
import SocialFixtures
import Testing

/// Issue 51, item 8: the follow limits inside the database (migration 20250301003000) equal the
/// gateway's, and when the database refuses a follow the PostgreSQL store answers what the
/// gateway's own limit answers.
@Suite("Follow limits in the database",
       .enabled(if: postgresAvailable, "needs SOCIAL_GATEWAY_TEST_POSTGRES (scripts/test starts a server)"), .serialized)
struct FollowLimitsInDatabaseTests {
    @Test("issue 51: social_private.follows_per_hour() and follows_per_day() equal FollowLimits.perHour and .perDay")
    func limitsEqualTheDomain() async throws {
        let database = try await PostgresTestDatabase.create(profiles: [], follows: [], ownerDetails: [:])
        let perHour = try await database.int64("select social_private.follows_per_hour()::bigint")
        let perDay = try await database.int64("select social_private.follows_per_day()::bigint")
        await database.drop()
        #expect(perHour == Int64(FollowLimits.perHour))
        #expect(perDay == Int64(FollowLimits.perDay))
    }

    @Test("issue 51: past the database's limit (the gateway's own count lifted), a follow is TOO_MANY_REQUESTS with retryAfter, as the gateway's limit answers")
    func databaseRefusalMapped() async throws {
        let database = try await PostgresTestDatabase.create(
            profiles: DemoData.profiles, follows: DemoData.follows, ownerDetails: DemoData.ownerDetails)
        do {
            // Set before the store connects: a database's settings reach new sessions.
            try await database.execute("alter database \(database.name) set social_gateway.follows_per_hour = 2")
            let store = try await PostgresStore.connect(
                configuration: PostgresConfiguration(endpoint: try .init(url: database.storeURL)),
                logger: Logger(label: "follow-limits-in-database"))
            // The gateway's in-process count out of the way: what refuses is the database.
            let lifted = FollowLimits(
                hourly: AttemptLimiter(limit: Int.max, window: .seconds(3600)), daily: AttemptLimiter(limit: Int.max, window: .seconds(86_400)))
            let follow = FollowProfile(follows: store, limits: lifted), unfollow = UnfollowProfile(follows: store, limits: lifted)
            for id in [DemoData.bobId, DemoData.carolId] { _ = try await unfollow.execute(profileId: id, viewer: alice) }
            #expect(try await follow.execute(profileId: DemoData.bobId, viewer: alice).isFollowing)
            #expect(try await follow.execute(profileId: DemoData.carolId, viewer: alice).isFollowing)
            _ = try await unfollow.execute(profileId: DemoData.bobId, viewer: alice)
            var refusal: DomainError?
            do {
                _ = try await follow.execute(profileId: DemoData.bobId, viewer: alice)
            } catch let error as DomainError {
                refusal = error
            }
            let seconds = refusal?.retryAfterSeconds ?? 0
            #expect(refusal?.code == .tooManyRequests)
            #expect(seconds > 3500 && seconds <= 3600)
            #expect(refusal == DomainError.tooManyAttempts(retryAfter: seconds))
            // Nothing was made.
            let pair = FollowPair(follower: DemoData.aliceId, followee: DemoData.bobId)
            #expect(try await store.activeFollows(among: [pair], viewer: alice).isEmpty)
            await store.shutdown()
        } catch {
            await database.drop()
            throw error
        }
        await database.drop()
    }
}
