import EmbeddedStore
import Foundation
import GatewayServer
import Hummingbird
import HummingbirdTesting
import Logging
import SocialGateway

/// A real gateway application on a fresh embedded store (demo data seeded) in a temporary folder,
/// plus what tests need around it: the store's counters and tokens for the demo users.
struct TestGateway {
    let configuration: ServerConfiguration
    let backend: GatewayBackend
    let issuer: DevTokenIssuer

    var store: EmbeddedStore { backend.embedded! }

    /// - Parameter configure: changes to the default test configuration (port 0, temp data dir).
    static func make(_ configure: (inout ServerConfiguration) -> Void = { _ in }) async throws -> TestGateway {
        var configuration = ServerConfiguration()
        configuration.host = "127.0.0.1"
        configuration.port = 0
        configuration.dataDirectory = FileManager.default.temporaryDirectory
            .appendingPathComponent("gateway-server-tests-\(UUID().uuidString.lowercased())", isDirectory: true)
        configuration.publicURL = "http://gateway.test"
        configuration.logLevel = .warning
        configure(&configuration)
        let backend = try await GatewayBackend.open(configuration, logger: Self.logger(configuration))
        let issuer = await DevTokenIssuer(secret: backend.jwtSecret!, audience: configuration.jwtAudience)
        return TestGateway(configuration: configuration, backend: backend, issuer: issuer)
    }

    static func logger(_ configuration: ServerConfiguration) -> Logger {
        var logger = Logger(label: "gateway-server-tests")
        logger.logLevel = configuration.logLevel
        return logger
    }

    /// Runs `body` against the app: `.router` (in-process) or `.live` (a real socket on 127.0.0.1).
    func test<Value>(_ setup: TestingSetup = .router, _ body: @escaping @Sendable (any TestClientProtocol) async throws -> Value) async throws -> Value {
        let app = try await buildApplication(configuration: configuration, backend: backend, logger: Self.logger(configuration))
        return try await app.test(setup, body)
    }

    /// A bearer header value for a demo user.
    func bearer(_ handle: String) async throws -> String {
        "Bearer " + (try await issuer.token(for: DemoData.id(forHandle: handle)!))
    }
}

/// JSON request helpers for the GraphQL endpoint.
enum GraphQLBody {
    /// `{"query":...,"variables":...}` encoded with Foundation (tests only compare decoded values).
    static func json(_ query: String, variables: [String: Any] = [:], operationName: String? = nil) -> ByteBuffer {
        var object: [String: Any] = ["query": query, "variables": variables]
        if let operationName { object["operationName"] = operationName }
        return ByteBuffer(bytes: try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]))
    }

    static func batch(_ queries: [(String, [String: Any])]) -> ByteBuffer {
        let list = queries.map { ["query": $0.0, "variables": $0.1] as [String: Any] }
        return ByteBuffer(bytes: try! JSONSerialization.data(withJSONObject: list, options: [.sortedKeys]))
    }
}

extension TestResponse {
    /// The body as text.
    var text: String { String(buffer: body) }

    /// The body parsed with Foundation (for reading values; exact bytes are compared as text).
    var json: Any? { try? JSONSerialization.jsonObject(with: Data(body.readableBytesView)) }

    /// `errors[0].extensions.code` of a GraphQL error body.
    var firstErrorCode: String? {
        guard let object = json as? [String: Any], let errors = object["errors"] as? [[String: Any]],
              let extensions = errors.first?["extensions"] as? [String: Any] else { return nil }
        return extensions["code"] as? String
    }

    /// `errors[0].message`.
    var firstErrorMessage: String? {
        guard let object = json as? [String: Any], let errors = object["errors"] as? [[String: Any]] else { return nil }
        return errors.first?["message"] as? String
    }
}

extension HTTPFields {
    /// The headers of a JSON GraphQL POST, optionally with a bearer token.
    static func graphQL(accept: String = "application/graphql-response+json", authorization: String? = nil) -> HTTPFields {
        var fields: HTTPFields = [.contentType: "application/json", .accept: accept]
        if let authorization { fields[.authorization] = authorization }
        return fields
    }
}
