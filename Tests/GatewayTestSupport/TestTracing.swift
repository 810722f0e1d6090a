import Foundation
import InMemoryTracing
import Synchronization
import Tracing

/// The test process's tracer: spans kept in memory, propagated as W3C `traceparent` like
/// swift-otel's default propagator, so that tests see what a collector would (names, parents)
/// and what PostgREST or PostgreSQL would be sent.
///
/// The process has one tracer (`InstrumentationSystem.bootstrap` may run once): every suite uses
/// ``tracer``, which bootstraps on first use, and picks its own spans by trace id. Suites that
/// do not turn tracing on make no spans: the gateway traces only inside a traced request.
///
/// ```swift
/// let spans = TestTracing.spans(ofTrace: traceID)
/// ```
public enum TestTracing {
    public static let tracer: W3CInMemoryTracer = {
        let tracer = W3CInMemoryTracer()
        InstrumentationSystem.bootstrap(tracer)
        return tracer
    }()

    /// The finished spans of one trace, in the order they ended.
    public static func spans(ofTrace traceID: String) -> [FinishedInMemorySpan] {
        tracer.memory.finishedSpans.filter { $0.traceID == traceID }
    }

    /// A fresh W3C `traceparent` (version 00, sampled) and its trace and span ids.
    public static func newTraceparent() -> (header: String, traceID: String, spanID: String) {
        let traceID = W3CInMemoryTracer.hex(bytes: 16), spanID = W3CInMemoryTracer.hex(bytes: 8)
        return ("00-\(traceID)-\(spanID)-01", traceID, spanID)
    }
}

/// `InMemoryTracer` with W3C trace context: random 16- and 8-byte hex ids, and `traceparent`
/// injected and extracted (InMemoryTracer's own propagation uses private header names).
public struct W3CInMemoryTracer: Tracer {
    public let memory = InMemoryTracer(
        idGenerator: .init(nextTraceID: { W3CInMemoryTracer.hex(bytes: 16) }, nextSpanID: { W3CInMemoryTracer.hex(bytes: 8) }),
        recordInjections: false, recordExtractions: false)

    public func startSpan<Instant: TracerInstant>(
        _ operationName: String, context: @autoclosure () -> InstrumentationContext, ofKind kind: SpanKind,
        at instant: @autoclosure () -> Instant, function: String, file fileID: String, line: UInt
    ) -> InMemorySpan {
        memory.startSpan(operationName, context: context(), ofKind: kind, at: instant(), function: function, file: fileID, line: line)
    }

    public func forceFlush() {}

    public func inject<Carrier, Inject: Injector>(
        _ context: InstrumentationContext, into carrier: inout Carrier, using injector: Inject
    ) where Carrier == Inject.Carrier {
        guard let span = context.inMemorySpanContext else { return }
        injector.inject("00-\(span.traceID)-\(span.spanID)-01", forKey: "traceparent", into: &carrier)
    }

    public func extract<Carrier, Extract: Extractor>(
        _ carrier: Carrier, into context: inout InstrumentationContext, using extractor: Extract
    ) where Carrier == Extract.Carrier {
        guard let header = extractor.extract(key: "traceparent", from: carrier) else { return }
        let parts = header.split(separator: "-")
        guard parts.count == 4, parts[1].utf8.count == 32, parts[2].utf8.count == 16 else { return }
        context.inMemorySpanContext = InMemorySpanContext(traceID: String(parts[1]), spanID: String(parts[2]), parentSpanID: nil)
    }

    static func hex(bytes: Int) -> String {
        (0..<bytes).map { _ in String(format: "%02x", UInt8.random(in: 0...255)) }.joined()
    }
}
