import Foundation
import GatewayServer
import GatewayTestSupport
import Hummingbird
import HummingbirdTesting
import Testing

/// What clients that an HTTP library would hide get at the edges of the protocol: bodies over
/// the limit written whole before the answer is read, and heads or bodies trickled a byte at a
/// time. Each test talks to a live server through a ``RawConnection``.
@Suite("HTTP edges: refused bodies and slow clients")
struct HTTPEdgeTests {
    /// The head of a JSON POST declaring a `length`-byte body.
    static func postHead(length: Int, extra: String = "") -> String {
        "POST /graphql HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: \(length)\r\n\(extra)\r\n"
    }

    /// Writes a 12 MB body in full, then reads the answer, as Python's urllib and curl do.
    static func writeWholeThenRead(port: Int, extraHeaders: String) async throws -> (bytes: [UInt8], closed: Bool) {
        let body = [UInt8](repeating: UInt8(ascii: " "), count: 12 << 20)
        return try await RawConnection.run {
            let connection = try RawConnection(port: port, ioTimeout: 20)
            try connection.send(Self.postHead(length: body.count, extra: extraHeaders))
            try connection.send(body)
            return connection.readToEnd()
        }
    }

    @Test(
        "A body over the limit sent with Connection: close and written whole before reading gets its 413, then the connection closes",
        arguments: ["Connection: close\r\n", ""])
    func oversizedBodyWrittenWhole(extraHeaders: String) async throws {
        try await TestGateway.run(.embedded) { gateway in
            try await gateway.test(.live) { client in
                let port = try #require(client.port)
                let start = ContinuousClock.now
                let (answer, closed) = try await Self.writeWholeThenRead(port: port, extraHeaders: extraHeaders)
                #expect(answer.statusLine.hasPrefix("HTTP/1.1 413 "))
                #expect(answer.hasHeader("connection: close"))
                #expect(String(decoding: answer, as: UTF8.self).contains(#""code":"PAYLOAD_TOO_LARGE""#))
                #expect(closed, "the server closes the connection after the 413")
                // Before the fix a Connection: close client waited for its own 20 s timeout.
                #expect(ContinuousClock.now - start < .seconds(15))
            }
        }
    }

    @Test("A request head trickled a byte at a time is cut after REQUEST_HEAD_TIMEOUT, unanswered, while other clients are served")
    func slowHead() async throws {
        try await TestGateway.run(.embedded, { $0.server.requestDeadlines.headTimeout = .seconds(1) }) { gateway in
            try await gateway.test(.live) { client in
                let port = try #require(client.port)
                let start = ContinuousClock.now
                let slow = Task {
                    try await RawConnection.run { () -> (bytes: [UInt8], sent: Int) in
                        let connection = try RawConnection(port: port)
                        var sent = 0
                        for byte in Array("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Padding: \(String(repeating: "a", count: 100))\r\n\r\n".utf8) {
                            do { try connection.send([byte]) } catch { break }
                            sent += 1
                            Thread.sleep(forTimeInterval: 0.1)
                        }
                        return (connection.readToEnd().bytes, sent)
                    }
                }
                // Meanwhile the server answers everyone else, each on a connection of its own: a
                // kept-alive one idle for the 1 s head timeout here is closed, as it should be.
                for _ in 0..<5 {
                    let health = try await RawConnection.run { () -> [UInt8] in
                        let connection = try RawConnection(port: port)
                        try connection.send("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
                        return connection.readToEnd().bytes
                    }
                    #expect(health.statusLine.hasPrefix("HTTP/1.1 200 "))
                }
                let (answer, sent) = try await slow.value
                #expect(answer.isEmpty, "no answer to a head that never completed")
                #expect(sent < 60, "the connection was closed long before the head's 140 bytes arrived")
                #expect(ContinuousClock.now - start < .seconds(8))
            }
        }
    }

    @Test("A body trickled a byte at a time is cut after REQUEST_BODY_TIMEOUT; a slow body at the minimum rate completes")
    func slowBody() async throws {
        try await TestGateway.run(.embedded, {
            $0.server.requestDeadlines.bodyTimeout = .milliseconds(800)
            $0.server.requestDeadlines.bodyMinimumRate = 1000
        }) { gateway in
            try await gateway.test(.live) { client in
                let port = try #require(client.port)
                let query = Array(#"{"query":"{ __typename }"}"#.utf8)
                // Trickled: 1 byte every 100 ms earns 1 ms a byte, far less than it spends.
                let trickled = try await RawConnection.run { () -> (bytes: [UInt8], sent: Int) in
                    let connection = try RawConnection(port: port)
                    let padded = query + [UInt8](repeating: UInt8(ascii: " "), count: 200)
                    try connection.send(Self.postHead(length: padded.count))
                    var sent = 0
                    for byte in padded {
                        do { try connection.send([byte]) } catch { break }
                        sent += 1
                        Thread.sleep(forTimeInterval: 0.1)
                    }
                    return (connection.readToEnd().bytes, sent)
                }
                #expect(trickled.bytes.isEmpty)
                #expect(trickled.sent < 60)

                // Steady: 3,000 bytes at 3,000 bytes/s earns 3 s over the 0.8 s base and completes.
                let steady = try await RawConnection.run { () -> [UInt8] in
                    let connection = try RawConnection(port: port)
                    let padded = query + [UInt8](repeating: UInt8(ascii: " "), count: 3000 - query.count)
                    try connection.send(Self.postHead(length: padded.count, extra: "Connection: close\r\n"))
                    for chunk in stride(from: 0, to: padded.count, by: 300) {
                        try connection.send(Array(padded[chunk..<min(chunk + 300, padded.count)]))
                        Thread.sleep(forTimeInterval: 0.1)
                    }
                    return connection.readToEnd().bytes
                }
                #expect(steady.statusLine == "HTTP/1.1 200 OK")
                #expect(String(decoding: steady, as: UTF8.self).hasSuffix(#"{"data":{"__typename":"Query"}}"#))
            }
        }
    }

    @Test("An idle keep-alive connection is closed after REQUEST_HEAD_TIMEOUT; within it a second request is served")
    func keepAliveIdle() async throws {
        try await TestGateway.run(.embedded, { $0.server.requestDeadlines.headTimeout = .seconds(1) }) { gateway in
            try await gateway.test(.live) { client in
                let port = try #require(client.port)
                let (answers, closedAfter) = try await RawConnection.run { () -> (String, Duration) in
                    let connection = try RawConnection(port: port)
                    try connection.send("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                    Thread.sleep(forTimeInterval: 0.3)
                    try connection.send("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                    let start = ContinuousClock.now
                    let (bytes, closed) = connection.readToEnd()
                    return (String(decoding: bytes, as: UTF8.self), closed ? ContinuousClock.now - start : .seconds(999))
                }
                #expect(answers.components(separatedBy: "HTTP/1.1 200 OK").count == 3, "both requests answered")
                #expect(closedAfter < .seconds(5), "then the idle connection is closed")
            }
        }
    }

    @Test("Pipelined requests (several written before any answer) are all answered, in order, on one connection")
    func pipelined() async throws {
        try await TestGateway.run(.embedded) { gateway in
            try await gateway.test(.live) { client in
                let port = try #require(client.port)
                let body = #"{"query":"{ __typename }"}"#
                let post = Self.postHead(length: body.utf8.count) + body
                let answers = try await RawConnection.run { () -> String in
                    let connection = try RawConnection(port: port, ioTimeout: 5)
                    try connection.send(post + "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n" + post
                        + "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
                    return String(decoding: connection.readToEnd().bytes, as: UTF8.self)
                }
                #expect(answers.components(separatedBy: "HTTP/1.1 200 OK").count == 5, "four answers")
                #expect(answers.components(separatedBy: #"{"data":{"__typename":"Query"}}"#).count == 3)
                // Only the last request asked to close: the first three answers keep the connection.
                let heads = answers.components(separatedBy: "HTTP/1.1 ").dropFirst().map { $0.components(separatedBy: "\r\n\r\n")[0].lowercased() }
                #expect(heads.count == 4)
                #expect(heads.prefix(3).allSatisfy { !$0.contains("connection: close") })
            }
        }
    }
}
