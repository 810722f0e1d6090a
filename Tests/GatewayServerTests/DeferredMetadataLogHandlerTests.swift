import Logging
import Synchronization
import Testing
@testable import GatewayServer

/// The server's log handler writes what swift-log's `StreamLogHandler` writes.
@Suite("Log handler")
struct DeferredMetadataLogHandlerTests {
    final class Lines: TextOutputStream, Sendable {
        let text = Mutex("")
        func write(_ string: String) { text.withLock { $0 += string } }
    }

    @Test("the same lines as StreamLogHandler: logger metadata, event metadata overriding it, levels filtered")
    func sameLinesAsStreamLogHandler() {
        let expected = Lines(), actual = Lines()
        var reference = Logger(label: "t") { StreamLogHandler(label: $0, stream: expected) }
        var deferred = Logger(label: "t") { DeferredMetadataLogHandler(label: $0, stream: actual) }
        reference.logLevel = .warning
        deferred.logLevel = .warning
        reference[metadataKey: "request_id"] = "r-1"
        deferred[metadataKey: "request_id"] = "r-1"
        reference[metadataKey: "b"] = "2"
        deferred[metadataKey: "b"] = "2"
        reference.info("not written")
        deferred.info("not written")
        reference.warning("written", metadata: ["b": "override", "a": "1"])
        deferred.warning("written", metadata: ["b": "override", "a": "1"])
        reference.error("plain")
        deferred.error("plain")
        // Timestamps are to the second: compare without them.
        func lines(_ stream: Lines) -> [String] {
            stream.text.withLock { $0 }.split(separator: "\n").map { String($0.drop { $0 != " " }) }
        }
        #expect(lines(actual).count == 2)
        #expect(lines(actual) == lines(expected))
        #expect(lines(actual).first == " warning t: a=1 b=override request_id=r-1 [GatewayServerTests] written")
    }
}
