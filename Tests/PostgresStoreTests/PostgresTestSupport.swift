import Foundation
import GatewayTestSupport
import Logging
import PostgresStore
import SocialDomain
import SocialFixtures
import SupabaseFake

/// Whether a test PostgreSQL server is available (`scripts/test` starts one).
let postgresAvailable = PostgresTestDatabase.serverURL != nil

/// A demo-seeded database and a store on it, for `body`; both go afterwards.
func withDemoDatabase(
    statementTimeout: Duration = .seconds(5),
    poolSize: Int = 10,
    _ body: (PostgresTestDatabase, PostgresStore) async throws -> Void
) async throws {
    let database = try await PostgresTestDatabase.create(
        profiles: DemoData.profiles, follows: DemoData.follows, ownerDetails: DemoData.ownerDetails,
                posts: DemoData.posts, likes: DemoData.likes, comments: DemoData.comments)
    do {
        var configuration = PostgresConfiguration(endpoint: try .init(url: database.storeURL))
        configuration.statementTimeout = statementTimeout
        configuration.poolSize = poolSize
        let store = try await PostgresStore.connect(configuration: configuration, logger: Logger(label: "postgres-store-tests"))
        do {
            try await body(database, store)
        } catch {
            await store.shutdown()
            throw error
        }
        await store.shutdown()
    } catch {
        await database.drop()
        throw error
    }
    await database.drop()
}

let alice = Viewer.user(id: DemoData.aliceId, token: SupabaseFake.token(for: DemoData.aliceId))
let bob = Viewer.user(id: DemoData.bobId, token: SupabaseFake.token(for: DemoData.bobId))
let carol = Viewer.user(id: DemoData.carolId, token: SupabaseFake.token(for: DemoData.carolId))

/// Polls `condition` every 5 ms for at most `limit`; whether it became true.
func eventually(within limit: Duration = .seconds(5), _ condition: () async throws -> Bool) async rethrows -> Bool {
    let deadline = ContinuousClock.now + limit
    while ContinuousClock.now < deadline {
        if try await condition() { return true }
        try? await Task.sleep(for: .milliseconds(5))
    }
    return try await condition()
}
