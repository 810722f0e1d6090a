import Foundation
import Hummingbird
import Logging
import SocialDomain
import SupabaseStore

/// A local stand-in for a Supabase project's PostgREST, Storage, Auth and JWKS endpoints, on
/// 127.0.0.1, over a real PostgreSQL database holding `supabase/migrations`.
///
/// The fake imitates the wire, not the rules. Every PostgREST request is translated into the
/// SQL PostgREST runs (``PostgRESTTables``, ``PostgRESTFunctions``) and run in one transaction
/// as the caller's role with the caller's claims, on a database of its own cloned from the test
/// server's `social_template` (``FakeDatabase``): row-level security, the functions, triggers
/// and counters are the migrations' own, so the Supabase store is tested against what
/// production runs. What stays in Swift is the wire: PostgREST's URL grammar, statuses, headers
/// and error bodies (``PostgRESTError``), Storage's HTTP-400-with-`statusCode` errors and its
/// bytes (the object rows are written to `storage.objects` as the caller, so the bucket policies
/// decide), GoTrue's sessions (a sign-up inserts into `auth.users`, whose trigger makes the
/// profile), HS256 tokens checked with its secret as a legacy project does, and the test
/// hooks: every request recorded as it arrived, faults, a fixed latency.
///
/// It needs a PostgreSQL: `SOCIAL_GATEWAY_TEST_POSTGRES` (a superuser URL with the template;
/// `scripts/test` and `scripts/test-postgres-env` provide both), or `start(postgres:)`.
///
/// ```swift
/// let fake = try await SupabaseFake.start()
/// try await fake.seedDemoData()             // DemoData's users, follows and posts (SocialFixtures)
/// let store = SupabaseStore(configuration: try fake.configuration())
/// let viewer = Viewer.user(id: DemoData.aliceId, token: SupabaseFake.token(for: DemoData.aliceId))
/// ... fake.requests ...
/// try await store.shutdown(); await fake.stop()
/// ```
public final class SupabaseFake: @unchecked Sendable {
    // @unchecked: every mutable property below is read and written only under `lock` (the fake
    // serves many connections at once); `port` and `serverTask` are set once, in `start()`.
    /// The project key the fake accepts (a publishable key: anonymous requests send no bearer).
    public static let apiKey = "sb_publishable_fake_key"

    /// The HS256 secret the fake's tokens are signed and checked with (the Supabase CLI's local
    /// default), to give the gateway as `SUPABASE_JWT_SECRET`.
    public static let jwtSecret = "super-secret-jwt-token-with-at-least-32-characters-long"

    /// The project's database (the rules live there).
    let database: FakeDatabase

    let lock = NSLock()
    /// Storage's bytes, by `<bucket>/<path>`; their rows are in `storage.objects`.
    var objects: [String: (data: Data, contentType: String)] = [:]
    var accountsByEmail: [String: FakeAccount] = [:]
    var sessions: [UUID: FakeSession] = [:]
    var refreshTokens: [String: (session: UUID, used: Bool)] = [:]
    var recoveryTokens: [String: UUID] = [:]
    var lastRecoveryToken: String?
    var recorded: [RecordedRequest] = []
    var faults: [(prefix: String?, fault: Fault, remaining: Int)] = []
    var fixedLatency: Duration
    /// GoTrue's clock for accounts and sign-ins, in microseconds; advances 1 ms per use.
    var nowMicroseconds: Int64 = 1_740_912_672_000_000

    /// The port the fake listens on (127.0.0.1).
    public private(set) var port = 0
    private var serverTask: Task<Void, any Error>?

    /// `http://127.0.0.1:<port>`, the project URL to configure a store with.
    public var url: String { "http://127.0.0.1:\(port)" }

    private init(latency: Duration, database: FakeDatabase) {
        fixedLatency = latency
        self.database = database
    }

    /// Starts an empty fake (a new database, no rows) on a free port of 127.0.0.1 and returns
    /// once it accepts connections.
    /// - Parameters:
    ///   - latency: waited before answering each request (see ``latency``).
    ///   - postgres: a superuser URL of a PostgreSQL server holding the `social_template`
    ///     database; `SOCIAL_GATEWAY_TEST_POSTGRES` when nil.
    /// - Throws: ``SupabaseFakeError`` when no server is named; the server's errors; when the
    ///   port cannot be bound.
    public static func start(latency: Duration = .zero, postgres: String? = nil) async throws -> SupabaseFake {
        var logger = Logger(label: "supabase-fake")
        logger.logLevel = .critical
        let database = try await FakeDatabase.create(serverURL: postgres, logger: logger)
        let fake = SupabaseFake(latency: latency, database: database)
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        let app = Application(
            responder: CallbackResponder<BasicRequestContext> { request, _ in await fake.handle(request) },
            configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in
                continuation.yield(channel.localAddress?.port ?? 0)
                continuation.finish()
            },
            logger: logger)
        fake.serverTask = Task { try await app.runService(gracefulShutdownSignals: []) }
        for await port in ports { fake.port = port }
        return fake
    }

    /// Stops the server (later requests are refused: connection refused, as an unreachable
    /// project's would be) and drops its database.
    public func stop() async {
        serverTask?.cancel()
        _ = await serverTask?.result
        await database.drop()
    }

    /// A fixed delay before every answer (faults included), standing in for the network and
    /// database time of a remote project: a benchmark sets 20 ms to show what caching and
    /// batching save. Zero by default; can be changed while the fake runs.
    public var latency: Duration {
        get { lock.withLock { fixedLatency } }
        set { lock.withLock { fixedLatency = newValue } }
    }

    /// A configuration pointing a store at this fake, with the fake's JWT secret and a 10 ms
    /// first retry delay. The request timeout stays the store's default (10 s): a debug build
    /// running a whole suite in parallel on two cores can stall a request for seconds, and a
    /// test about timeouts sets its own.
    /// - Throws: `ConfigurationError` (not expected: the URL and key are well formed).
    public func configuration() throws -> SupabaseConfiguration {
        var config = try SupabaseConfiguration(url: url, apiKey: Self.apiKey, jwtSecret: Self.jwtSecret)
        config.retryBaseDelay = .milliseconds(10)
        return config
    }

    // MARK: Dispatch

    private func handle(_ request: Request) async -> Response {
        let body = (try? await request.body.collect(upTo: 16 * 1024 * 1024)).map { Data($0.readableBytesView) } ?? Data()
        var headers: [String: String] = [:]
        for field in request.headers { headers[field.name.canonicalName] = field.value }
        let recordedRequest = RecordedRequest(
            method: request.method.rawValue, path: request.uri.path, query: request.uri.query ?? "", headers: headers, body: body,
            receivedAt: .now)
        let (fault, latency): (Fault?, Duration) = lock.withLock {
            recorded.append(recordedRequest)
            guard let index = faults.firstIndex(where: { $0.prefix.map(recordedRequest.path.hasPrefix) ?? true }) else {
                return (nil, fixedLatency)
            }
            faults[index].remaining -= 1
            let fault = faults[index].fault
            if faults[index].remaining <= 0 { faults.remove(at: index) }
            return (fault, fixedLatency)
        }
        if latency > .zero { try? await Task.sleep(for: latency) }
        switch fault {
        case .status(let status, let text)?: return Self.response(status, text)
        case .malformedJSON?: return Self.response(200, #"[{"id":"a11ce000-"#)
        case .htmlGateway?: return Self.response(502, "<html><body>502 Bad Gateway</body></html>", contentType: "text/html")
        case .delay(let duration)?: try? await Task.sleep(for: duration)
        case .slowBody(let pause)?: return Self.trickled(await route(recordedRequest), pause: pause)
        case .resetMidBody?: return Self.cutHalfway(await route(recordedRequest))
        case nil: break
        }
        return await route(recordedRequest)
    }

    private func route(_ request: RecordedRequest) async -> Response {
        // Public endpoints: no key needed, as on a real project.
        if request.method == "GET" && request.path == "/auth/v1/.well-known/jwks.json" {
            // A legacy project signs with its shared secret only: an empty key set.
            return Self.response(200, #"{"keys":[]}"#)
        }
        if request.method == "GET" && (request.path.hasPrefix(Self.publicAvatarsPrefix) || request.path.hasPrefix(Self.publicStoriesPrefix)) {
            return publicObject(request)
        }
        guard let key = request.headers["apikey"] else {
            return Self.response(401, #"{"message":"No API key found in request","hint":"No `apikey` request header or url param was found."}"#)
        }
        guard key == Self.apiKey else { return Self.response(401, #"{"message":"Invalid API key","hint":"Double check your Supabase `anon` or `service_role` API key."}"#) }
        let caller: Caller
        switch Self.caller(request.headers["authorization"]) {
        case .success(let c): caller = c
        case .failure(let reply):
            if request.path.hasPrefix("/storage/") {
                return Self.response(400, #"{"statusCode":"400","code":"InvalidJWT","error":"invalid_jwt","message":"\#(reply.message)"}"#)
            }
            return Self.response(401, #"{"code":"\#(reply.code)","details":null,"hint":null,"message":"\#(reply.message)"}"#)
        }
        if request.path.hasPrefix("/storage/v1/object/") { return await storage(request, caller: caller) }
        if let answer = await authRoute(request) { return answer }
        guard request.path.hasPrefix("/rest/v1/") else {
            return Self.response(404, #"{"message":"no Route matched with those values"}"#)
        }
        return await rest(request, caller: caller)
    }
}
