import Foundation
import NIOCore
import Testing

@testable import GatewayServer

/// `MultipartReader`: RFC 2046 §5.1.1 bodies read chunk by chunk, whatever the chunk sizes.
@Suite("MultipartReader")
struct MultipartReaderTests {
    /// Records the events in order, body bytes of a part joined.
    final class Recorder: MultipartReader.Handler {
        var events: [String] = []
        func header(name: String, value: String) { events.append("header \(name): \(value)") }
        func body(_ bytes: inout ByteBuffer) {
            let text = String(buffer: bytes)
            if let last = events.last, last.hasPrefix("body ") { events[events.count - 1] = last + text } else { events.append("body " + text) }
        }
        func partComplete() { events.append("end") }
    }

    /// Reads `body` in chunks of `size` bytes.
    static func read(_ body: String, boundary: String = "xyz", chunk size: Int) throws(MultipartReader.Failure) -> [String] {
        let bytes = Array(body.utf8)
        var reader = MultipartReader(boundary: boundary)
        let recorder = Recorder()
        for start in stride(from: 0, to: bytes.count, by: size) {
            try reader.read(ByteBuffer(bytes: bytes[start..<min(start + size, bytes.count)]), into: recorder)
        }
        try reader.finish()
        return recorder.events
    }

    static let sample =
        "preamble to skip\r\n--xyz  \r\nContent-Disposition: form-data; name=\"operations\"\r\n\r\n{\"query\":\"{ a }\"}\r\n"
        + "--xyz\r\nContent-Disposition: form-data; name=\"0\"; filename=\"café.png\"\r\nContent-Type:image/png\r\n\r\n"
        + "bytes with \r\n--xy and \r\n-- inside\r\n--xyz--\r\nepilogue to ignore"

    static let expected = [
        #"header Content-Disposition: form-data; name="operations""#, #"body {"query":"{ a }"}"#, "end",
        #"header Content-Disposition: form-data; name="0"; filename="café.png""#, "header Content-Type: image/png",
        "body bytes with \r\n--xy and \r\n-- inside", "end",
    ]

    @Test("RFC 2046: the same parts whatever the chunk sizes; preamble, padding and epilogue skipped; near-delimiters kept in the body")
    func chunkSizes() throws {
        for size in 1...Self.sample.utf8.count {
            #expect(try Self.read(Self.sample, chunk: size) == Self.expected, "chunks of \(size) bytes")
        }
    }

    @Test("a first delimiter without a preamble, and an empty part body")
    func noPreamble() throws {
        let body = "--xyz\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n\r\n--xyz--"
        #expect(try Self.read(body, chunk: 3) == [#"header Content-Disposition: form-data; name="a""#, "end"])
    }

    @Test(
        "malformed bodies are failures, never traps: a non-ASCII header name (multipart-kit 4.7.1 trapped), no closing boundary, long or many headers",
        arguments: [
            ("--xyz\r\nCont\u{E9}nt-Disposition: form-data\r\n\r\nx\r\n--xyz--", "a part header's name is not a token."),
            ("--xyz\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\ncut here", "the body ended before its closing boundary."),
            ("--xyz\r\nX: " + String(repeating: "v", count: 9000) + "\r\n\r\n\r\n--xyz--", "a part header is longer than 8192 bytes."),
            ("--xyz\r\n" + String(repeating: "X: v\r\n", count: 33) + "\r\n\r\n--xyz--", "a part has more than 32 headers."),
            ("--xyz\r\nno colon\r\n\r\n\r\n--xyz--", "a part header is not \"Name: value\"."),
            ("--xyz\r\nX: a\u{1}b\r\n\r\n\r\n--xyz--", "a part header's value has control characters."),
            ("--xyzjunk\r\n", "a boundary line has unexpected characters after the boundary."),
        ])
    func malformed(body: String, reason: String) {
        for size in [1, 7, body.utf8.count] {
            #expect(throws: MultipartReader.Failure(reason: reason)) { _ = try Self.read(body, chunk: size) }
        }
    }
}
