import Foundation
import GatewayAssembly
import GatewayServer
import Hummingbird
import HummingbirdTesting
import Logging
import Synchronization
import Testing

/// Access logs: one line per request with its id and operation names, never a token.
@Suite("Logging")
struct LoggingTests {
    /// Keeps every log line (message and metadata rendered as text).
    final class RecordingLogHandler: LogHandler, @unchecked Sendable {
        static let lines = Mutex<[String]>([])
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace
        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }
        func log(event: LogEvent) {
            let all = self.metadata.merging(event.metadata ?? [:]) { $1 }
            let text = "\(event.message) " + all.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
            Self.lines.withLock { $0.append(text) }
        }
    }

    @Test("Logs: the access line has request_id, method, path, status and operation; tokens never appear")
    func accessLogWithoutTokens() async throws {
        let gateway = try await TestGateway.make()
        let bearer = try await gateway.bearer("alice_wonder")
        let token = String(bearer.dropFirst("Bearer ".count))
        var logger = Logger(label: "logging-test") { _ in RecordingLogHandler() }
        logger.logLevel = .trace
        let app = try await buildApplication(configuration: gateway.configuration.withSQLiteResponseCache, backend: gateway.backend, logger: logger)
        try await app.test(.router) { client in
            _ = try await client.execute(
                uri: "/graphql", method: .post,
                headers: .graphQL(authorization: bearer).merging([HeaderName.requestID: "log-test-1"]),
                body: GraphQLBody.json("query CardForLog { viewer { handle } }", operationName: "CardForLog"))
            _ = try await client.execute(
                uri: "/graphql?query=%7Bviewer%7Bhandle%7D%7D&token=\(token)", method: .get,
                headers: [.authorization: bearer + "x", HeaderName.graphQLPreflight: "1"])
        }
        let lines = RecordingLogHandler.lines.withLock { $0 }
        let access = lines.filter { $0.contains("request_id=log-test-1") && $0.hasPrefix("request ") }
        #expect(access.count == 1)
        #expect(access.first?.contains("method=POST") == true)
        #expect(access.first?.contains("path=/graphql") == true)
        #expect(access.first?.contains("status=200") == true)
        #expect(access.first?.contains("operation=CardForLog") == true)
        #expect(lines.contains { $0.contains("status=401") })
        #expect(!lines.contains { $0.contains(token) })
    }
}

extension LoggingTests {
    /// What a ``DeferredMetadataLogHandler`` writes, kept as text.
    final class CapturedStream: TextOutputStream, @unchecked Sendable {
        // @unchecked: every access goes through the mutex.
        let text = Mutex("")
        func write(_ string: String) { text.withLock { $0 += string } }
    }

    @Test("issue 51: a newline in operationName cannot forge a log line: the server's handler escapes control characters")
    func forgedLineEscaped() async throws {
        let gateway = try await TestGateway.make()
        let stream = CapturedStream()
        var logger = Logger(label: "escape-test") { label in DeferredMetadataLogHandler(label: label, stream: stream) }
        logger.logLevel = .info
        let app = try await buildApplication(configuration: gateway.configuration.withSQLiteResponseCache, backend: gateway.backend, logger: logger)
        let forged = "Card\n2026-12-02T00:00:00+0000 critical social-gateway : [GatewayServer] admin signed in\r\u{2028}"
        try await app.test(.router) { client in
            _ = try await client.execute(
                uri: "/graphql", method: .post, headers: .graphQL().merging([HeaderName.requestID: "escape-1"]),
                body: GraphQLBody.json("query Card { __typename }", operationName: forged))
        }
        let written = stream.text.withLock { $0 }
        let lines = written.split(separator: "\n", omittingEmptySubsequences: true)
        let access = lines.filter { $0.contains("request_id=escape-1") }
        #expect(access.count == 1)
        // The whole operation name stays on the access line, escaped; no line of its own.
        #expect(access.first?.contains(#"operation=Card\n2026-12-02T00:00:00+0000 critical social-gateway"#) == true)
        #expect(access.first?.contains(#"admin signed in\r\u{2028}"#) == true)
        #expect(!lines.contains { $0.hasPrefix("2026-12-02T00:00:00+0000 critical") })
        #expect(!written.contains("\r") && !written.contains("\u{2028}"))
    }

    @Test("issue 51: LogEscaping escapes C0, DEL, C1 and line separators, doubles backslashes only where it escapes, and keeps plain text as is")
    func escaping() {
        #expect(LogEscaping.escaped("plain text, é, \\ and \"quotes\"") == "plain text, é, \\ and \"quotes\"")
        #expect(LogEscaping.escaped("a\nb\rc\td") == #"a\nb\rc\td"#)
        #expect(LogEscaping.escaped("x\u{0}\u{1B}[31m\u{7F}\u{85}\u{2029}") == #"x\u{0}\u{1B}[31m\u{7F}\u{85}\u{2029}"#)
        #expect(LogEscaping.escaped("fake \\n then \n") == #"fake \\n then \n"#)
        #expect(LogEscaping.escaped(.array(["a\nb", .dictionary(["k": "c\rd"])])) == .array([#"a\nb"#, .dictionary(["k": #"c\rd"#])]))
    }
}

extension HTTPFields {
    func merging(_ other: HTTPFields) -> HTTPFields {
        var result = self
        for field in other { result[field.name] = field.value }
        return result
    }
}
