import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A plain TCP connection to a live test server on 127.0.0.1, for the edges an HTTP client
/// library hides: a body written whole before the answer is read, bytes trickled one at a
/// time, a connection the server closes.
///
/// Its calls block, so each runs on a thread of its own (``RawConnection/run(_:)``), never on the
/// cooperative pool that the server under test needs.
final class RawConnection: @unchecked Sendable {
    private let descriptor: Int32

    /// Connects, with send and receive calls that give up after `ioTimeout`.
    init(port: Int, ioTimeout: Double = 10) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw RawConnectionError.system("socket", errno) }
        var timeout = timeval(tv_sec: Int(ioTimeout), tv_usec: Int(ioTimeout.truncatingRemainder(dividingBy: 1) * 1_000_000))
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else {
            // No close here: every stored property is set, so deinit runs and closes it. Closing
            // twice closed whatever socket the process opened in between under that number (the
            // METRICS_PORT listener binding while this retried: EBADF in NIO's getsockname).
            throw RawConnectionError.system("connect", errno)
        }
    }

    deinit { Glibc.close(descriptor) }

    /// Writes all of `bytes`. Throws when the peer closed or reset the connection, or when a write
    /// blocked for longer than the I/O timeout (the server stopped reading).
    func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard written > 0 else { throw RawConnectionError.system("send", errno) }
            offset += written
        }
    }

    func send(_ text: String) throws { try send(Array(text.utf8)) }

    /// Reads until the server closes the connection (`closed`), or until nothing arrived for the
    /// I/O timeout or an error (`closed == false`).
    func readToEnd() -> (bytes: [UInt8], closed: Bool) {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count == 0 { return (received, true) }
            if count < 0 { return (received, errno == ECONNRESET) }
            received += buffer[0..<count]
        }
    }

    /// Runs blocking work on its own thread and waits for it without blocking the caller's thread.
    static func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            let thread = Thread { continuation.resume(with: Result { try work() }) }
            thread.start()
        }
    }
}

enum RawConnectionError: Error, CustomStringConvertible {
    case system(String, Int32)
    var description: String {
        switch self {
        case .system(let call, let code): "\(call) failed: \(String(cString: strerror(code)))"
        }
    }
}

extension Array where Element == UInt8 {
    /// The status line of a raw HTTP response, e.g. `HTTP/1.1 413 Content Too Large`.
    var statusLine: String {
        String(decoding: prefix { $0 != UInt8(ascii: "\r") }, as: UTF8.self)
    }

    /// Whether the raw response's headers contain `line` (compared case-insensitively).
    func hasHeader(_ line: String) -> Bool {
        let text = String(decoding: self, as: UTF8.self).lowercased()
        let head = text.components(separatedBy: "\r\n\r\n").first ?? ""
        return head.components(separatedBy: "\r\n").contains(line.lowercased())
    }
}
