import Foundation
import Hummingbird
import Logging
import SocialDomain
import SupabaseStore

/// A local stand-in for a Supabase project's PostgREST, Storage and JWKS endpoints, on 127.0.0.1.
///
/// It serves in-memory profiles, follows and avatar objects with the real response shapes
/// (including PostgREST's `{code,message,details,hint}` errors and Storage's HTTP-400-with-
/// `statusCode` errors), applies the migrations' rules (RLS by the bearer token's `sub`,
/// counters, soft delete, unique lower-case handles), verifies bearer tokens with its HS256
/// secret as a legacy project does, records every request exactly as it arrived, and lets a
/// test inject faults or a fixed latency. The store's tests use it to pin the exact requests;
/// the gateway's tests run their end-to-end suites against it as the second store; the
/// benchmarks use its latency to stand in for a remote project.
///
/// ```swift
/// let fake = try await SupabaseFake.start()
/// fake.seedDemoData()                       // DemoData's users, follows and posts (SocialFixtures)
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

    let lock = NSLock()
    var profilesById: [UUID: Profile] = [:]
    /// `profile_private`: every profile has a row there; a missing entry is a row of nulls.
    var ownerDetailsById: [UUID: ProfileOwnerDetails] = [:]
    /// Every follow ever made (soft-deleted ones too), only appended to through ``appendFollow(_:)``.
    var follows: [FakeFollow] = []
    /// `follow_requests` (migration 20250301002300), by (requester, target).
    var followRequests: [FollowPair: FakeFollowRequest] = [:]
    /// `blocks`: when each (blocker, blocked) pair was made.
    var blocks: [FollowPair: Int64] = [:]
    /// `social_private.follow_events` (migration 20250301003000): when each caller's counted
    /// follows and requests were made, on ``nowMicroseconds``.
    var followEvents: [UUID: [Int64]] = [:]
    /// The database's follow limits (`social_private.follows_per_hour()`, `follows_per_day()`;
    /// 0: none), as the operator's `social_gateway.follows_per_*` settings change them.
    var databaseFollowLimits = (perHour: FollowLimits.perHour, perDay: FollowLimits.perDay)
    /// Indexes into ``follows`` by follower and by followee: load-test graphs hold a million follows.
    var followsByFollower: [UUID: [Int]] = [:]
    var followsByFollowee: [UUID: [Int]] = [:]
    var objects: [String: (data: Data, contentType: String)] = [:]
    var posts: [UUID: FakePost] = [:]
    var stories: [UUID: FakeStory] = [:]
    var accountsByEmail: [String: FakeAccount] = [:]
    var sessions: [UUID: FakeSession] = [:]
    var refreshTokens: [String: (session: UUID, used: Bool)] = [:]
    var recoveryTokens: [String: UUID] = [:]
    var lastRecoveryToken: String?
    var postsByAuthor: [UUID: [UUID]] = [:]
    var comments: [UUID: FakeComment] = [:]
    var commentsByPost: [UUID: [UUID]] = [:]
    var recorded: [RecordedRequest] = []
    var faults: [(prefix: String?, fault: Fault, remaining: Int)] = []
    var fixedLatency: Duration
    /// The fake's clock for new follows and updates, in microseconds; advances 1 ms per use.
    var nowMicroseconds: Int64 = 1_740_912_672_000_000

    /// The port the fake listens on (127.0.0.1).
    public private(set) var port = 0
    private var serverTask: Task<Void, any Error>?

    /// `http://127.0.0.1:<port>`, the project URL to configure a store with.
    public var url: String { "http://127.0.0.1:\(port)" }

    struct FakeFollow: Sendable {
        var id: UUID
        var follower: UUID
        var followee: UUID
        var createdAtMicroseconds: Int64
        var deletedAtMicroseconds: Int64?
        /// Set by every change; nil for a row loaded as it was: then its latest time.
        var updatedAtMicroseconds: Int64? = nil

        /// `updated_at`, as the `follows_touch_updated_at` trigger keeps it.
        var changedAtMicroseconds: Int64 { updatedAtMicroseconds ?? max(createdAtMicroseconds, deletedAtMicroseconds ?? 0) }
    }

    /// Adds a follow row and indexes it. Call under ``lock``.
    func appendFollow(_ follow: FakeFollow) {
        followsByFollower[follow.follower, default: []].append(follows.count)
        followsByFollowee[follow.followee, default: []].append(follows.count)
        follows.append(follow)
    }

    private init(latency: Duration) {
        fixedLatency = latency
    }

    /// Starts an empty fake on a free port of 127.0.0.1 and returns once it accepts connections.
    /// - Parameter latency: waited before answering each request (see ``latency``).
    /// - Throws: when the port cannot be bound.
    public static func start(latency: Duration = .zero) async throws -> SupabaseFake {
        let fake = SupabaseFake(latency: latency)
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        var logger = Logger(label: "supabase-fake")
        logger.logLevel = .critical
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

    /// Stops the server; later requests are refused (connection refused), as an unreachable
    /// project's would be.
    public func stop() async {
        serverTask?.cancel()
        _ = await serverTask?.result
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
    /// - Throws: `SupabaseConfigurationError` (not expected: the URL and key are well formed).
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
        case .slowBody(let pause)?: return Self.trickled(route(recordedRequest), pause: pause)
        case .resetMidBody?: return Self.cutHalfway(route(recordedRequest))
        case nil: break
        }
        return route(recordedRequest)
    }

    private func route(_ request: RecordedRequest) -> Response {
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
        if request.path.hasPrefix("/storage/v1/object/") { return storage(request, caller: caller) }
        if let answer = authRoute(request) { return answer }
        return lock.withLock { rest(request, caller: caller) }
    }
}
