import Logging

/// swift-log's `StreamLogHandler` (standard error, same line format) whose metadata is rendered
/// when a line is written, not each time it is set.
///
/// Why: every request sets its logger's metadata twice (Hummingbird's `hb.request.id`, our
/// `request_id`), and `StreamLogHandler` sorts and formats all of it on every set, though at the
/// server's usual `warning` level no line is written for most requests: 3% of the CPU of a cached
/// answer (issue #17, `perf record`). Here the metadata is kept as set and handed to the inner
/// handler with each event, which renders it then, with the same precedence (the event's own
/// metadata wins over the logger's). Every line is escaped on its way out (``LogEscaping``).
public struct DeferredMetadataLogHandler: LogHandler {
    private var inner: StreamLogHandler
    public var metadata = Logger.Metadata()

    /// Makes this the process's log handler. Call it once, before any logger is made.
    public static func bootstrap() {
        LoggingSystem.bootstrap { DeferredMetadataLogHandler(label: $0) }
    }

    /// A handler writing to standard error, as swift-log's default does.
    public init(label: String) {
        inner = StreamLogHandler.standardError(label: label)
    }

    /// A handler writing to `stream` (tests).
    public init(label: String, stream: any TextOutputStream & Sendable) {
        inner = StreamLogHandler(label: label, stream: stream)
    }

    public var logLevel: Logger.Level {
        get { inner.logLevel }
        set { inner.logLevel = newValue }
    }

    public var metadataProvider: Logger.MetadataProvider? {
        get { inner.metadataProvider }
        set { inner.metadataProvider = newValue }
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    /// Writes the line with every control character escaped (``LogEscaping``): the message, the
    /// metadata and an attached error, so that nothing a client sent can break the line.
    public func log(event: LogEvent) {
        var event = event
        var merged = metadata.isEmpty ? event.metadata ?? [:] : metadata.merging(event.metadata ?? [:]) { _, explicit in explicit }
        if let error = event.error {
            // As StreamLogHandler writes it, but escaped.
            merged["error.message"] = .string("\(error)")
            merged["error.type"] = .string(String(reflecting: type(of: error)))
            event.error = nil
        }
        event.metadata = merged.isEmpty ? event.metadata : merged.mapValues(LogEscaping.escaped)
        event.message = Logger.Message(stringLiteral: LogEscaping.escaped(event.message.description))
        inner.log(event: event)
    }
}
