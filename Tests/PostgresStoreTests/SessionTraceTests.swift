import GatewayTestSupport
import PostgresNIO
@testable import PostgresStore
import Testing
import Tracing

/// A traced store call names its trace in its PostgreSQL session (issue 42): the transaction's
/// `application_name` is the store span's W3C `traceparent`, so `pg_stat_activity` and the
/// server's log (`%a`) lead from a slow statement to its trace.
@Suite("PostgreSQL sessions name their trace",
       .enabled(if: postgresAvailable, "needs SOCIAL_GATEWAY_TEST_POSTGRES (scripts/test starts a server)"), .serialized)
struct SessionTraceTests {
    static func applicationName(_ store: PostgresStore) async throws -> String {
        try await store.call("traceProbe", viewer: alice) { connection, logger in
            let rows = try await connection.query("select current_setting('application_name')", logger: logger)
            for try await name in rows.decode(String.self) { return name }
            return ""
        }
    }

    @Test("a traced call: application_name is its postgres span's traceparent, the span a child of the caller's; untraced: social-gateway")
    func applicationNameCarriesTraceparent() async throws {
        let tracer = TestTracing.tracer
        try await withDemoDatabase { _, store in
            #expect(try await Self.applicationName(store) == "social-gateway")
            let caller = tracer.startSpan("caller", context: .topLevel, ofKind: .internal, at: DefaultTracerClock.now, function: #function, file: #fileID, line: #line)
            let traced = try await InstrumentationContext.$current.withValue(caller.context) {
                try await Self.applicationName(store)
            }
            caller.end()
            let traceID = try #require(caller.context.inMemorySpanContext?.traceID)
            let spans = TestTracing.spans(ofTrace: traceID)
            let span = try #require(spans.first { $0.operationName == "postgres traceProbe" }, "\(spans.map(\.operationName))")
            #expect(span.kind == .client)
            #expect(span.parentSpanID == caller.context.inMemorySpanContext?.spanID)
            #expect(span.attributes["db.operation.name"]?.toSpanAttribute() == .string("traceProbe"))
            #expect(traced == "00-\(traceID)-\(span.spanID)-01")
            // Local to the transaction: the pooled connection's next (untraced) call is back to the default.
            #expect(try await Self.applicationName(store) == "social-gateway")
        }
    }
}
