import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import SocialDomain

/// Sends ``SupabaseRequest``s with the project key and the caller's token, over pooled
/// keep-alive connections, with timeouts and bounded retries for reads.
///
/// AsyncHTTPClient, not URLSession: measured here it did 8,000-8,900 req/s with 32 requests in
/// flight against 1,840-2,000 for URLSession (libcurl, 6 connections per host), and it runs on
/// the same NIO event loops as the Hummingbird server (shared/PLATFORM-NOTES.md).
///
/// Retries: requests marked idempotent (reads) after a transport failure, a 5xx or a 429, at
/// most ``SupabaseConfiguration/maxReadRetries`` times, waiting `retryBaseDelay * 2^attempt`.
/// Writes are sent again only when PostgREST says PostgreSQL rolled them back (a deadlock or a
/// serialization failure); otherwise once: a timed-out toggle may have committed.
struct SupabaseHTTPClient: Sendable {
    let http: HTTPClient
    let configuration: SupabaseConfiguration
    let logger: Logger
    /// The largest response body read (profiles pages are small; this bounds a broken upstream).
    static let maxResponseBytes = 8 * 1024 * 1024

    init(configuration: SupabaseConfiguration, eventLoopGroup: (any EventLoopGroup)?, logger: Logger) {
        var config = HTTPClient.Configuration()
        config.timeout = .init(connect: .init(configuration.connectTimeout), read: .init(configuration.requestTimeout))
        config.connectionPool = .init(
            idleTimeout: .seconds(60),
            concurrentHTTP1ConnectionsPerHostSoftLimit: configuration.maxConnectionsPerHost)
        // Fail fast on "connection refused"; our own retry loop decides about reads.
        config.connectionPool.retryConnectionEstablishment = false
        config.redirectConfiguration = .disallow
        config.decompression = .enabled(limit: .ratio(20))
        // Our own span per call instead (SupabaseTracing): AsyncHTTPClient's records query values.
        config.tracing.tracer = nil
        self.http = HTTPClient(eventLoopGroup: eventLoopGroup ?? HTTPClient.defaultEventLoopGroup, configuration: config)
        self.configuration = configuration
        self.logger = logger
    }

    func shutdown() async throws {
        try await http.shutdown()
    }

    /// Sends `request` as `viewer`; returns any HTTP answer (success or not) after retries.
    /// - Throws: ``SupabaseFailure/transport(_:)`` when no answer came; `CancellationError`.
    func send(_ request: SupabaseRequest, viewer: Viewer) async throws -> SupabaseResponse {
        try await SupabaseTracing.span(request) { try await sendAttempts(request, viewer: viewer) }
    }

    private func sendAttempts(_ request: SupabaseRequest, viewer: Viewer) async throws -> SupabaseResponse {
        var attempt = 0
        while true {
            try Task.checkCancellation()
            let outcome: Result<SupabaseResponse, SupabaseFailure>
            do {
                outcome = .success(try await sendOnce(request, viewer: viewer))
            } catch let failure as SupabaseFailure {
                outcome = .failure(failure)
            }
            let retryable: Bool
            switch outcome {
            case .success(let response):
                retryable = request.idempotent ? Self.isRetryable(status: response.status) : Self.rolledBack(response)
            case .failure: retryable = request.idempotent
            }
            guard retryable, attempt < configuration.maxReadRetries else {
                return try outcome.get()
            }
            let delay = configuration.retryBaseDelay * (1 << attempt)
            logger.warning("supabase retry", metadata: [
                "operation": "\(request.operation)", "attempt": "\(attempt + 1)", "after": "\(delay)",
                "reason": "\(outcome.map { "HTTP \($0.status)" }.mapError { $0 })",
            ])
            try await Task.sleep(for: delay)
            attempt += 1
        }
    }

    /// A write PostgreSQL ended with a deadlock (40P01) or a serialization failure (40001), which
    /// PostgREST answers with HTTP 500 and the code: its transaction rolled back whole, so it is
    /// safe to send again, and PostgreSQL's manual asks clients to.
    static func rolledBack(_ response: SupabaseResponse) -> Bool {
        guard response.status >= 500, let code = PostgRESTErrorBody.decode(response.body)?.code else { return false }
        return code == "40P01" || code == "40001"
    }

    /// 5xx (including Storage's 544 database timeout) and 429 are worth another try.
    static func isRetryable(status: Int) -> Bool {
        status == 429 || (status >= 500 && status != 501)
    }

    private func sendOnce(_ request: SupabaseRequest, viewer: Viewer) async throws -> SupabaseResponse {
        var outgoing = HTTPClientRequest(url: configuration.url.absoluteString + request.target)
        outgoing.method = .init(rawValue: request.method.rawValue)
        outgoing.headers.add(name: "apikey", value: configuration.apiKey)
        if let token = viewer.token {
            outgoing.headers.add(name: "Authorization", value: "Bearer \(token)")
        } else if configuration.apiKeyIsJWT {
            outgoing.headers.add(name: "Authorization", value: "Bearer \(configuration.apiKey)")
        }
        outgoing.headers.add(name: "Accept", value: "application/json")
        outgoing.headers.add(name: "User-Agent", value: "social-gateway")
        for (name, value) in request.headers { outgoing.headers.add(name: name, value: value) }
        SupabaseTracing.inject(into: &outgoing)
        if let body = request.body { outgoing.body = .bytes(ByteBuffer(bytes: body)) }
        do {
            // AsyncHTTPClient's deadline ends with the response head, and its read timeout only
            // bounds a silence, so a body trickled a byte at a time would hold the request as
            // long as the upstream liked: the deadline is checked again for every chunk.
            let deadline = NIODeadline.now() + TimeAmount(configuration.requestTimeout)
            let response = try await http.execute(outgoing, deadline: deadline, logger: logger)
            var buffer = ByteBuffer()
            for try await chunk in response.body {
                guard NIODeadline.now() < deadline else { throw BodyReadError.deadlineExceeded }
                guard buffer.readableBytes + chunk.readableBytes <= Self.maxResponseBytes else { throw BodyReadError.tooLarge }
                buffer.writeImmutableBuffer(chunk)
            }
            var headers: [String: String] = [:]
            for header in response.headers { headers[header.name.lowercased()] = header.value }
            return SupabaseResponse(status: Int(response.status.code), headers: headers, body: Data(buffer.readableBytesView))
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            if Task.isCancelled { throw CancellationError() }
            throw SupabaseFailure.transport("\(request.method.rawValue) \(request.path): \(error)")
        }
    }
}

/// Why a response body was abandoned while it was read.
enum BodyReadError: Error, CustomStringConvertible {
    case deadlineExceeded, tooLarge
    var description: String {
        switch self {
        case .deadlineExceeded: "the response body was still arriving at the request timeout"
        case .tooLarge: "the response body is larger than \(SupabaseHTTPClient.maxResponseBytes) bytes"
        }
    }
}

extension TimeAmount {
    /// Nanosecond-exact conversion from a Swift `Duration`.
    init(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        self = .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }
}
