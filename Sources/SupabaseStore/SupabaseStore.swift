import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import SocialDomain

/// The production store: the domain's ports on a Supabase project, through PostgREST
/// (`/rest/v1`) and Storage (`/storage/v1`), always with the caller's own token.
///
/// Every request carries the project's public key (`apikey`) and the viewer's JWT as
/// `Authorization: Bearer`, so row-level security decides exactly as it does for the apps;
/// anonymous requests use the key alone. The service-role key is never needed. Each port
/// method is one request (batched reads go through the SQL functions of
/// `supabase/migrations/`), and every failure that is not a domain rule becomes
/// `BACKEND_UNAVAILABLE` with the upstream detail in the log only.
///
/// ```swift
/// let store = try await SupabaseStore.connect(configuration: config)   // fails fast if unreachable
/// defer { Task { try await store.shutdown() } }
/// let page = try await SearchProfiles(profiles: store).execute(query: "ali", first: 10, after: nil, viewer: viewer)
/// ```
public final class SupabaseStore: Sendable {
    public let configuration: SupabaseConfiguration
    let client: SupabaseHTTPClient
    let logger: Logger

    /// Creates the store without contacting the project (tests; ``connect(configuration:eventLoopGroup:logger:)``
    /// is the start-up path). Call ``shutdown()`` when done.
    /// - Parameter eventLoopGroup: the server's event loops, to share them (default: NIO's singleton,
    ///   which Hummingbird also uses by default).
    public init(
        configuration: SupabaseConfiguration, eventLoopGroup: (any EventLoopGroup)? = nil,
        logger: Logger = Logger(label: "social-gateway.supabase")
    ) {
        self.configuration = configuration
        self.logger = logger
        self.client = SupabaseHTTPClient(configuration: configuration, eventLoopGroup: eventLoopGroup, logger: logger)
    }

    /// Creates the store and checks, with one anonymous read of `profiles`, that the project
    /// answers, accepts the key and has the migrations applied.
    /// - Throws: ``ConfigurationError`` naming the URL and the problem (unreachable,
    ///   key rejected, `profiles` missing, unexpected answer).
    public static func connect(
        configuration: SupabaseConfiguration, eventLoopGroup: (any EventLoopGroup)? = nil,
        logger: Logger = Logger(label: "social-gateway.supabase")
    ) async throws -> SupabaseStore {
        let store = SupabaseStore(configuration: configuration, eventLoopGroup: eventLoopGroup, logger: logger)
        do {
            try await store.checkReachable()
            return store
        } catch {
            try? await store.shutdown()
            throw error
        }
    }

    /// Closes the pooled connections. Required before the store is released.
    public func shutdown() async throws {
        try await client.shutdown()
    }

    func checkReachable() async throws {
        let url = configuration.url.absoluteString
        let request = SupabaseRequest(
            method: .get, service: .rest, path: "/rest/v1/profiles", query: [("select", "id"), ("limit", "1")],
            idempotent: false, operation: "startupCheck")
        let response: SupabaseResponse
        do {
            response = try await client.send(request, viewer: .anonymous)
        } catch {
            throw ConfigurationError("Cannot reach Supabase at \(url): \(error)")
        }
        if response.isSuccess { return }
        let body = PostgRESTErrorBody.decode(response.body)
        let detail = body?.message ?? String(decoding: response.body.prefix(300), as: UTF8.self)
        switch (response.status, body?.code) {
        case (401, _), (403, _):
            throw ConfigurationError(
                "Supabase at \(url) rejected SUPABASE_ANON_KEY (HTTP \(response.status)): \(detail)")
        case (404, _), (_, "PGRST205"?), (_, "42P01"?):
            throw ConfigurationError(
                "Supabase at \(url) has no public.profiles table: apply supabase/migrations first (\(detail))")
        default:
            throw ConfigurationError("Supabase at \(url) answered HTTP \(response.status) at start-up: \(detail)")
        }
    }

    /// Runs one port operation: domain errors pass, everything else is logged with its detail
    /// and becomes `BACKEND_UNAVAILABLE`.
    func call<T>(_ operation: String, _ body: () async throws -> T) async throws -> T {
        try await backend(onFailure: { logger.error("supabase \(operation) failed", metadata: ["error": "\($0)"]) }, body)
    }

    /// Sends a PostgREST request and returns the body of a success.
    /// - Throws: the mapped ``DomainError`` for an error answer (logged), ``SupabaseFailure``.
    func rest(_ request: SupabaseRequest, viewer: Viewer, forbidden: DomainError = .notAuthorized) async throws -> Data {
        let response = try await client.send(request, viewer: viewer)
        guard response.isSuccess else {
            let error = SupabaseErrorMapper.postgrest(response, forbidden: forbidden)
            logUpstream(request, response, as: error)
            throw error
        }
        return response.body
    }

    func logUpstream(_ request: SupabaseRequest, _ response: SupabaseResponse, as error: DomainError) {
        let level: Logger.Level = error.code == .backendUnavailable ? .error : .info
        logger.log(level: level, "supabase \(request.operation) answered HTTP \(response.status)", metadata: [
            "request": "\(request.method.rawValue) \(request.path)",
            "upstream": "\(String(decoding: response.body.prefix(2_000), as: UTF8.self))",
            "mapped": "\(error.code.rawValue)",
        ])
    }

    /// Decodes a success body, or fails with ``SupabaseFailure/malformed(_:)``.
    func decode<T: Decodable>(_ type: T.Type, _ data: Data, _ operation: String) throws -> T {
        do {
            return try JSONDecoder().decode(type, from: data)
        } catch {
            throw SupabaseFailure.malformed("\(operation): \(error)")
        }
    }

    static func json<T: Encodable>(_ value: T) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(value)
    }
}
