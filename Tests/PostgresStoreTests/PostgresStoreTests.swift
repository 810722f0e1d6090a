import Foundation
import GatewayTestSupport
import Logging
import PostgresNIO
@testable import PostgresStore
import SocialDomain
import SocialFixtures
import Synchronization
import Testing

@Suite("PostgresStore on a real PostgreSQL: RLS decides, errors are clear, nothing hangs",
       .enabled(if: postgresAvailable, "needs SOCIAL_GATEWAY_TEST_POSTGRES (scripts/test starts a server)"), .serialized)
struct PostgresStoreTests {
    @Test("RLS is the authority: an update of another user's row, sent through the store's own connection as alice, changes nothing")
    func rlsDecides() async throws {
        try await withDemoDatabase { _, store in
            let touched = try await store.call("probe", viewer: alice) { connection, logger in
                let rows = try await connection.query(
                    "with u as (update public.profiles set bio = 'not yours' where id = \(DemoData.bobId) returning 1) select count(*)::int from u",
                    logger: logger)
                for try await count in rows.decode(Int.self) { return count }
                return -1
            }
            #expect(touched == 0)
            let bobNow = try await store.profiles(ids: [DemoData.bobId], viewer: bob)[DemoData.bobId]
            #expect(bobNow?.bio == DemoData.users[1].bio)
            // A column the role may not write at all (the counters): PostgreSQL refuses, the domain says FORBIDDEN.
            await #expect(throws: DomainError.notAuthorized) {
                try await store.call("probe", viewer: alice) { connection, logger in
                    try await connection.query("update public.profiles set follower_count = 999 where id = \(DemoData.aliceId)", logger: logger)
                }
            }
            // And an anonymous caller is `anon`: it reads public profiles, writes nothing.
            let anonymousWrite = try await store.call("probe", viewer: .anonymous) { connection, logger in
                let rows = try await connection.query("select current_user::text, auth.uid() is null", logger: logger)
                for try await (user, noUID) in rows.decode((String, Bool).self) { return "\(user) \(noUID)" }
                return ""
            }
            #expect(anonymousWrite == "anon true")
        }
    }

    @Test("the claims PostgREST would set: auth.uid() is the viewer, the role is authenticated whatever the token claims")
    func claimsAsPostgREST() async throws {
        try await withDemoDatabase { _, store in
            let seen = try await store.call("probe", viewer: alice) { connection, logger in
                let rows = try await connection.query("select current_user::text, auth.uid()::text, auth.jwt() ->> 'aud'", logger: logger)
                for try await (user, uid, aud) in rows.decode((String, String, String?).self) { return [user, uid, aud ?? "-"] }
                return []
            }
            #expect(seen == ["authenticated", DemoData.aliceId.lowercased, "authenticated"])
            let forged = Viewer.user(id: DemoData.aliceId, token: "x." + Data(#"{"role":"service_role","sub":"someone"}"#.utf8).base64EncodedString() + ".y")
            let role = try await store.call("probe", viewer: forged) { connection, logger in
                let rows = try await connection.query("select current_user::text, auth.uid()::text", logger: logger)
                for try await (user, uid) in rows.decode((String, String).self) { return "\(user) \(uid)" }
                return ""
            }
            #expect(role == "authenticated \(DemoData.aliceId.lowercased)")
        }
    }

    @Test("a read runs as its own viewer on a session another viewer's read, a write or a failed statement used last (one connection: every call shares it)")
    func readsOnSharedSession() async throws {
        try await withDemoDatabase(poolSize: 1) { _, store in
            @Sendable func seen(_ viewer: Viewer, _ sql: String = "select 1") async throws -> String {
                try await store.read("probe", viewer: viewer) { connection, logger in
                    try await connection.query(PostgresQuery(unsafeSQL: sql), logger: logger)
                    let rows = try await connection.query(
                        "select current_user::text, coalesce(auth.uid()::text, '-'), current_setting('statement_timeout')", logger: logger)
                    for try await (user, uid, timeout) in rows.decode((String, String, String).self) { return "\(user) \(uid) \(timeout)" }
                    return ""
                }
            }
            let asAlice = "authenticated \(DemoData.aliceId.lowercased) 5s"
            let asBob = "authenticated \(DemoData.bobId.lowercased) 5s"
            #expect(try await seen(alice) == asAlice)
            #expect(try await seen(alice) == asAlice)
            #expect(try await seen(.anonymous) == "anon - 5s")
            #expect(try await seen(bob) == asBob)
            // A write's settings end with its transaction: the session is bob's again after it.
            let inWrite = try await store.call("probe", viewer: alice) { connection, logger in
                let rows = try await connection.query("select coalesce(auth.uid()::text, '-')", logger: logger)
                for try await uid in rows.decode(String.self) { return uid }
                return ""
            }
            #expect(inWrite == DemoData.aliceId.lowercased)
            #expect(try await seen(bob) == asBob)
            #expect(try await seen(alice) == asAlice)
            // After a statement that failed (its connection closed: readErrorsAndConnections), the next read is bob's.
            await #expect(throws: DomainError.backendUnavailable) { try await seen(alice, "select no_such_column from public.profiles") }
            #expect(try await seen(bob) == asBob)
            // A port's own read on the same session answers as its caller.
            let bobsCard = try await store.profiles(ids: [DemoData.bobId], viewer: .anonymous)[DemoData.bobId]
            #expect(bobsCard?.handle == DemoData.users[1].handle)
            #expect(try await seen(alice) == asAlice)
        }
    }

    @Test("a read PostgreSQL refused for a domain rule keeps its connection; any other refusal closes it (PostgresNIO keeps a failed preparation per connection)")
    func readErrorsAndConnections() async throws {
        try await withDemoDatabase(poolSize: 1) { _, store in
            @Sendable func connectionID(_ viewer: Viewer, _ sql: String? = nil) async throws -> Int {
                try await store.read("probe", viewer: viewer) { connection, logger in
                    if let sql {
                        // The rows are read: an error raised while the statement runs comes with them.
                        for try await _ in try await connection.query(PostgresQuery(unsafeSQL: sql), logger: logger) {}
                    }
                    return connection.id
                }
            }
            let first = try await connectionID(alice)
            // An anonymous feed is refused by feed_page's own rule (PT401): a caller can provoke it at will.
            await #expect(throws: DomainError.self) { _ = try await connectionID(.anonymous, "select public.feed_page(null, null, 1)") }
            #expect(try await connectionID(alice) == first)
            // Anything else (here an unknown column) closes the connection: the pool opens another.
            await #expect(throws: DomainError.backendUnavailable) { _ = try await connectionID(alice, "select no_such_column from public.profiles") }
            let second = try await connectionID(alice)
            #expect(second != first)
        }
    }

    @Test("start-up fails with a clear message: nothing listening, a database without the migrations")
    func startupErrors() async throws {
        var unreachable = PostgresConfiguration(endpoint: try .init(url: "postgres://authenticator@127.0.0.1:1/nothing?sslmode=disable"))
        unreachable.connectTimeout = .seconds(2)
        do {
            let store = try await PostgresStore.connect(configuration: unreachable, logger: Logger(label: "t"))
            await store.shutdown()
            Issue.record("connected to nothing")
        } catch let error as ConfigurationError {
            #expect(error.message.hasPrefix("Cannot reach PostgreSQL at postgres://authenticator@127.0.0.1:1/nothing"))
        }
        // The server's maintenance database has no gateway schema.
        let admin = try PostgresConfiguration.Endpoint(url: try #require(PostgresTestDatabase.serverURL))
        let bare = PostgresConfiguration(endpoint: admin)
        do {
            let store = try await PostgresStore.connect(configuration: bare, logger: Logger(label: "t"))
            await store.shutdown()
            Issue.record("accepted a database without the migrations")
        } catch let error as ConfigurationError {
            #expect(error.message.contains("lacks the gateway's schema: apply supabase/migrations first"))
        }
        #expect(throws: ConfigurationError.self) { try PostgresConfiguration.Endpoint(url: "mysql://x@y/z") }
        #expect(throws: ConfigurationError.self) { try PostgresConfiguration.Endpoint(url: "postgres://x@y") }
    }

    @Test("a statement stuck behind a lock answers BACKEND_UNAVAILABLE at the statement timeout, and the next call works")
    func statementTimeout() async throws {
        try await withDemoDatabase(statementTimeout: .milliseconds(400)) { database, store in
            let locked = Task {
                try await database.execute("begin", "lock table public.profiles in access exclusive mode", "select pg_sleep(2)", "commit")
            }
            try await Task.sleep(for: .milliseconds(200))
            let started = ContinuousClock.now
            await #expect(throws: DomainError.backendUnavailable) {
                _ = try await store.profiles(ids: [DemoData.aliceId], viewer: .anonymous)
            }
            #expect(ContinuousClock.now - started < .seconds(1.5))
            _ = try? await locked.value
            #expect(try await store.profiles(ids: [DemoData.aliceId], viewer: .anonymous).count == 1)
        }
    }

    @Test("a transaction PostgreSQL ends with a deadlock runs again, rolled back whole first; one that keeps failing is BACKEND_UNAVAILABLE after three attempts")
    func deadlockRetried() async throws {
        try await withDemoDatabase { _, store in
            let attempts = Mutex(0)
            try await store.call("probe", viewer: alice) { connection, logger in
                let attempt = attempts.withLock { count in count += 1; return count }
                let bio = "written by attempt \(attempt)"
                try await connection.query("update public.profiles set bio = \(bio) where id = \(DemoData.aliceId)", logger: logger)
                if attempt == 1 {
                    try await connection.query("do $$ begin raise exception 'as a deadlock victim' using errcode = '40P01'; end $$", logger: logger)
                }
            }
            #expect(attempts.withLock { $0 } == 2)
            #expect(try await store.profiles(ids: [DemoData.aliceId], viewer: alice)[DemoData.aliceId]?.bio == "written by attempt 2")

            attempts.withLock { $0 = 0 }
            await #expect(throws: DomainError.backendUnavailable) {
                try await store.call("probe", viewer: alice) { connection, logger in
                    attempts.withLock { $0 += 1 }
                    try await connection.query("do $$ begin raise exception 'serialization' using errcode = '40001'; end $$", logger: logger)
                }
            }
            #expect(attempts.withLock { $0 } == PostgresStore.transactionAttempts)
            // Any other error is not retried.
            attempts.withLock { $0 = 0 }
            await #expect(throws: DomainError.backendUnavailable) {
                try await store.call("probe", viewer: alice) { connection, logger in
                    attempts.withLock { $0 += 1 }
                    try await connection.query("do $$ begin raise exception 'a fault' using errcode = 'XX000'; end $$", logger: logger)
                }
            }
            #expect(attempts.withLock { $0 } == 1)
        }
    }

    @Test("a database that refuses connections answers BACKEND_UNAVAILABLE within the timeout; the store recovers by itself")
    func databaseDownAndBack() async throws {
        try await withDemoDatabase(statementTimeout: .milliseconds(800)) { database, store in
            #expect(try await store.profiles(ids: [DemoData.aliceId], viewer: .anonymous).count == 1)
            try await database.setAcceptingConnections(false)
            let started = ContinuousClock.now
            await #expect(throws: DomainError.backendUnavailable) {
                _ = try await store.profiles(ids: [DemoData.aliceId], viewer: .anonymous)
            }
            #expect(ContinuousClock.now - started < .seconds(2))
            try await database.setAcceptingConnections(true)
            let recovered = await eventually(within: .seconds(10)) {
                (try? await store.profiles(ids: [DemoData.aliceId], viewer: .anonymous).count) == 1
            }
            #expect(recovered)
        }
    }
}
