import Foundation
import Hummingbird
import Logging
import NIOCore
import SocialDomain
import SupabaseStore

/// A local stand-in for a Supabase project's PostgREST and Storage APIs, on 127.0.0.1.
///
/// It serves in-memory profiles, follows and avatar objects with the real response shapes
/// (including PostgREST's `{code,message,details,hint}` errors and Storage's HTTP-400-with-
/// `statusCode` errors), applies the migrations' rules (RLS by the bearer token's `sub`,
/// counters, soft delete, unique lower-case handles), records every request exactly as it
/// arrived, and lets a test inject faults. Self-contained so it can move to a shared
/// test-support target for the gateway's end-to-end run.
///
/// ```swift
/// let fake = try await SupabaseFake.start()
/// fake.addProfile(alice)
/// let store = SupabaseStore(configuration: try fake.configuration())
/// let viewer = Viewer.user(id: alice.id, token: SupabaseFake.token(for: alice.id))
/// ... fake.requests ...
/// try await store.shutdown(); await fake.stop()
/// ```
final class SupabaseFake: @unchecked Sendable {
    /// The project key the fake accepts (a publishable key: anonymous requests send no bearer).
    static let apiKey = "sb_publishable_fake_key"

    /// A request as the fake received it.
    struct RecordedRequest: Sendable {
        var method: String
        var path: String
        /// The raw, still percent-encoded query string.
        var query: String
        /// Header values by lower-cased name.
        var headers: [String: String]
        var body: Data
        var bodyText: String { String(decoding: body, as: UTF8.self) }
    }

    /// What the next matching request gets instead of a normal answer.
    enum Fault: Sendable {
        /// An HTTP answer with this status and body (e.g. 500, 503, Storage's 400s).
        case status(Int, String)
        /// Waits this long, then answers normally (to trip the client's timeout).
        case delay(Duration)
        /// HTTP 200 with a truncated JSON body.
        case malformedJSON
        /// A 502 with an HTML page, as a platform gateway sends.
        case htmlGateway
    }

    let lock = NSLock()
    var profilesById: [UUID: Profile] = [:]
    var follows: [FakeFollow] = []
    var objects: [String: (data: Data, contentType: String)] = [:]
    private var recorded: [RecordedRequest] = []
    private var faults: [(prefix: String?, fault: Fault, remaining: Int)] = []
    /// The fake's clock for new follows and updates, in microseconds; advances 1 ms per use.
    var nowMicroseconds: Int64 = 1_740_912_672_000_000

    private(set) var port = 0
    private var serverTask: Task<Void, any Error>?

    var url: String { "http://127.0.0.1:\(port)" }

    struct FakeFollow: Sendable {
        var id: UUID
        var follower: UUID
        var followee: UUID
        var createdAtMicroseconds: Int64
        var deletedAtMicroseconds: Int64?
    }

    /// Starts a fake on a free port of 127.0.0.1 and returns once it accepts connections.
    static func start() async throws -> SupabaseFake {
        let fake = SupabaseFake()
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

    /// Stops the server; later requests are refused.
    func stop() async {
        serverTask?.cancel()
        _ = await serverTask?.result
    }

    /// A configuration pointing a store at this fake, with short timeouts for tests.
    func configuration() throws -> SupabaseConfiguration {
        var config = try SupabaseConfiguration(url: url, apiKey: Self.apiKey)
        config.requestTimeout = .seconds(2)
        config.retryBaseDelay = .milliseconds(10)
        return config
    }

    /// A JWT-shaped token for `user` (unsigned: the fake reads `sub` and `exp` only).
    static func token(for user: UUID, expired: Bool = false) -> String {
        let exp = Int(Date().timeIntervalSince1970) + (expired ? -60 : 3600)
        let payload = #"{"sub":"\#(user.lowercased)","role":"authenticated","aud":"authenticated","exp":\#(exp)}"#
        func b64(_ s: String) -> String {
            Data(s.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-")
                .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        }
        return b64(#"{"alg":"HS256","typ":"JWT"}"#) + "." + b64(payload) + ".fake-signature"
    }

    // MARK: Seeding and inspection

    func addProfile(_ profile: Profile) {
        lock.withLock { profilesById[profile.id] = profile }
    }

    /// Adds a follow and updates both counters, as the trigger would; returns its id.
    @discardableResult
    func addFollow(_ follower: UUID, _ followee: UUID, createdAtMicroseconds: Int64, id: UUID = UUID()) -> UUID {
        lock.withLock {
            follows.append(FakeFollow(id: id, follower: follower, followee: followee, createdAtMicroseconds: createdAtMicroseconds))
            profilesById[follower]?.followingCount += 1
            profilesById[followee]?.followerCount += 1
        }
        return id
    }

    func profile(_ id: UUID) -> Profile? { lock.withLock { profilesById[id] } }
    func object(_ path: String) -> (data: Data, contentType: String)? { lock.withLock { objects[path] } }
    func putObject(_ path: String, _ data: Data) { lock.withLock { objects[path] = (data, "image/jpeg") } }
    var requests: [RecordedRequest] { lock.withLock { recorded } }
    func clearRequests() { lock.withLock { recorded.removeAll() } }

    /// The next `times` requests whose path starts with `pathPrefix` (any if nil) get `fault`.
    func inject(_ fault: Fault, pathPrefix: String? = nil, times: Int = 1) {
        lock.withLock { faults.append((pathPrefix, fault, times)) }
    }

    // MARK: Dispatch

    private func handle(_ request: Request) async -> Response {
        let body = (try? await request.body.collect(upTo: 16 * 1024 * 1024)).map { Data($0.readableBytesView) } ?? Data()
        var headers: [String: String] = [:]
        for field in request.headers { headers[field.name.canonicalName] = field.value }
        let recordedRequest = RecordedRequest(
            method: request.method.rawValue, path: request.uri.path, query: request.uri.query ?? "", headers: headers, body: body)
        let fault: Fault? = lock.withLock {
            recorded.append(recordedRequest)
            guard let index = faults.firstIndex(where: { $0.prefix.map(recordedRequest.path.hasPrefix) ?? true }) else { return nil }
            faults[index].remaining -= 1
            let fault = faults[index].fault
            if faults[index].remaining <= 0 { faults.remove(at: index) }
            return fault
        }
        switch fault {
        case .status(let status, let text)?: return Self.response(status, text)
        case .malformedJSON?: return Self.response(200, #"[{"id":"a11ce000-"#)
        case .htmlGateway?: return Self.response(502, "<html><body>502 Bad Gateway</body></html>", contentType: "text/html")
        case .delay(let duration)?: try? await Task.sleep(for: duration)
        case nil: break
        }
        return route(recordedRequest)
    }

    private func route(_ request: RecordedRequest) -> Response {
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
        return lock.withLock { rest(request, caller: caller) }
    }

    /// Who the request runs as: `anon`, or `authenticated` with the token's `sub`.
    enum Caller { case anon, user(UUID) }

    struct AuthFailure: Error { var code: String; var message: String }

    static func caller(_ authorization: String?) -> Result<Caller, AuthFailure> {
        guard let authorization else { return .success(.anon) }
        guard authorization.hasPrefix("Bearer ") else { return .failure(AuthFailure(code: "PGRST301", message: "Invalid authorization header")) }
        let token = String(authorization.dropFirst(7))
        if token == apiKey { return .success(.anon) }
        let parts = token.split(separator: ".")
        var base64 = parts.count == 3 ? String(parts[1]).replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/") : ""
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        guard let data = Data(base64Encoded: base64),
              let claims = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              let sub = (claims["sub"] as? String).flatMap(UUID.init(uuidString:)), let exp = claims["exp"] as? Int
        else { return .failure(AuthFailure(code: "PGRST301", message: "Expected 3 parts in JWT; got 1")) }
        guard exp > Int(Date().timeIntervalSince1970) else { return .failure(AuthFailure(code: "PGRST303", message: "JWT expired")) }
        return .success(.user(sub))
    }

    static func response(_ status: Int, _ body: String, contentType: String = "application/json; charset=utf-8") -> Response {
        Response(
            status: .init(code: status), headers: [.contentType: contentType],
            body: ResponseBody(byteBuffer: ByteBuffer(string: body)))
    }

    static func json(_ status: Int, _ value: Any) -> Response {
        let data = (try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .fragmentsAllowed])) ?? Data()
        return response(status, String(decoding: data, as: UTF8.self))
    }

    /// PostgREST's error body.
    static func pgError(_ status: Int, _ code: String, _ message: String, hint: String? = nil) -> Response {
        json(status, ["code": code, "message": message, "details": NSNull(), "hint": hint.map { $0 as Any } ?? NSNull()])
    }
}
