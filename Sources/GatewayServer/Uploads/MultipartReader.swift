import NIOCore

/// A streaming reader of `multipart/form-data` bodies (RFC 2046 §5.1.1, RFC 7578): it is fed
/// the body chunk by chunk, as it arrives, and reports each part's headers, its body bytes and
/// its end to a ``MultipartReader/Handler``; a part's body is never held whole.
///
/// Ours rather than multipart-kit's parser: multipart-kit 4.7.1 (the mirror's only version)
/// indexes a 128-entry table with every byte of a header name, so a single byte at or above 0x80
/// in a part's header name trapped the whole server (found by `Fuzz/fuzz-multipart`). Here a
/// header name must be an RFC 9110 token, a header line at most ``maxHeaderLineBytes`` and a part
/// at most ``maxHeadersPerPart`` headers, and every malformed body is a thrown ``Failure``.
///
/// Work is linear in the body's size: a delimiter that straddles two chunks is found by keeping
/// at most the delimiter's length of the previous chunk.
///
/// ```swift
/// var reader = MultipartReader(boundary: "----x")
/// for try await chunk in body { try reader.read(chunk, into: handler) }
/// try reader.finish()
/// ```
struct MultipartReader {
    /// What the reader reports, in body order.
    protocol Handler {
        /// One header line of the current part (the name as sent; the value without surrounding
        /// white space).
        func header(name: String, value: String)
        /// The next bytes of the current part's body (after all its headers).
        func body(_ bytes: inout ByteBuffer)
        /// The current part ended (its closing delimiter was read).
        func partComplete()
    }

    /// A body that is not well-formed multipart, with what is wrong for the client.
    struct Failure: Error, Equatable {
        let reason: String
    }

    static let maxHeaderLineBytes = 8 * 1024
    static let maxHeadersPerPart = 32

    private enum State {
        /// Before the first delimiter: bytes are skipped.
        case preamble
        /// After a delimiter: `--` (the closing one) or optional white space then CRLF.
        case afterDelimiter(sawDash: Bool)
        /// Header lines of a part, until an empty line.
        case headers(count: Int)
        /// A part's body, until the next delimiter.
        case body
        /// After the closing delimiter: bytes are ignored (RFC 2046's epilogue).
        case epilogue
    }

    /// `CRLF--boundary`: what ends a part's body. The body's first delimiter may come without its
    /// CRLF, so reading starts as if a CRLF preceded the first byte.
    private let delimiter: [UInt8]
    private var state = State.preamble
    /// Bytes kept from the previous chunk: a possible start of a delimiter, or an unfinished
    /// header line.
    private var pending: [UInt8] = [13, 10]

    init(boundary: String) {
        delimiter = Array("\r\n--\(boundary)".utf8)
    }

    /// Whether the closing delimiter has been read.
    var isComplete: Bool {
        if case .epilogue = state { return true }
        return false
    }

    /// Reads the next chunk of the body.
    /// - Throws: ``Failure`` for a malformed body.
    mutating func read(_ chunk: ByteBuffer, into handler: some Handler) throws(Failure) {
        var data = pending
        pending = []
        data.append(contentsOf: chunk.readableBytesView)
        var index = 0
        while index < data.count {
            switch state {
            case .preamble, .body:
                guard let (found, end) = findDelimiter(in: data, from: index) else {
                    // No whole delimiter: everything that cannot start one is body (or skipped).
                    let keep = partialDelimiterLength(at: data.count, in: data, from: index)
                    if case .body = state, data.count - keep > index {
                        var bytes = ByteBuffer(bytes: data[index..<(data.count - keep)])
                        handler.body(&bytes)
                    }
                    pending = Array(data[(data.count - keep)...])
                    return
                }
                if case .body = state {
                    if found > index {
                        var bytes = ByteBuffer(bytes: data[index..<found])
                        handler.body(&bytes)
                    }
                    handler.partComplete()
                }
                state = .afterDelimiter(sawDash: false)
                index = end
            case .afterDelimiter(let sawDash):
                let byte = data[index]
                if sawDash {
                    guard byte == UInt8(ascii: "-") else { throw Failure(reason: "a boundary is followed by a single \"-\".") }
                    state = .epilogue
                    index += 1
                } else if byte == UInt8(ascii: "-") {
                    state = .afterDelimiter(sawDash: true)
                    index += 1
                } else if byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") {
                    index += 1   // transport padding
                } else if byte == 13 {
                    guard index + 1 < data.count else {
                        pending = [13]
                        return
                    }
                    guard data[index + 1] == 10 else { throw Failure(reason: "a boundary line does not end with CRLF.") }
                    state = .headers(count: 0)
                    index += 2
                } else {
                    throw Failure(reason: "a boundary line has unexpected characters after the boundary.")
                }
            case .headers(let count):
                guard let lineEnd = findCRLF(in: data, from: index) else {
                    guard data.count - index <= Self.maxHeaderLineBytes else {
                        throw Failure(reason: "a part header is longer than \(Self.maxHeaderLineBytes) bytes.")
                    }
                    pending = Array(data[index...])
                    return
                }
                guard lineEnd - index <= Self.maxHeaderLineBytes else {
                    throw Failure(reason: "a part header is longer than \(Self.maxHeaderLineBytes) bytes.")
                }
                if lineEnd == index {
                    state = .body   // the empty line: the body follows
                } else {
                    guard count < Self.maxHeadersPerPart else {
                        throw Failure(reason: "a part has more than \(Self.maxHeadersPerPart) headers.")
                    }
                    let (name, value) = try Self.header(data[index..<lineEnd])
                    handler.header(name: name, value: value)
                    state = .headers(count: count + 1)
                }
                index = lineEnd + 2
            case .epilogue:
                return
            }
        }
    }

    /// Checks that the body ended with its closing delimiter.
    /// - Throws: ``Failure`` when it did not (a truncated upload).
    func finish() throws(Failure) {
        guard isComplete else { throw Failure(reason: "the body ended before its closing boundary.") }
    }

    // MARK: Scanning

    /// The first whole delimiter at or after `start`: where it begins and where it ends.
    private func findDelimiter(in data: [UInt8], from start: Int) -> (Int, Int)? {
        let first = delimiter[0]
        var i = start
        while i + delimiter.count <= data.count {
            if data[i] == first, data[(i + 1)..<(i + delimiter.count)].elementsEqual(delimiter[1...]) {
                return (i, i + delimiter.count)
            }
            i += 1
        }
        return nil
    }

    /// How many bytes at the end of `data` (after `start`) could begin a delimiter that the next
    /// chunk completes: they are kept back rather than reported as body.
    private func partialDelimiterLength(at end: Int, in data: [UInt8], from start: Int) -> Int {
        let longest = min(delimiter.count - 1, end - start)
        var length = longest
        while length > 0 {
            if data[(end - length)..<end].elementsEqual(delimiter[0..<length]) { return length }
            length -= 1
        }
        return 0
    }

    private func findCRLF(in data: [UInt8], from start: Int) -> Int? {
        var i = start
        while i + 1 < data.count {
            if data[i] == 13, data[i + 1] == 10 { return i }
            i += 1
        }
        return nil
    }

    /// `Name: value` (RFC 9110 §5.1: the name a token, no white space before the colon).
    private static func header(_ line: ArraySlice<UInt8>) throws(Failure) -> (String, String) {
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")), colon > line.startIndex else {
            throw Failure(reason: "a part header is not \"Name: value\".")
        }
        let name = line[line.startIndex..<colon]
        guard name.allSatisfy(isTokenByte) else { throw Failure(reason: "a part header's name is not a token.") }
        var value = line[(colon + 1)...]
        while let first = value.first, first == 32 || first == 9 { value = value.dropFirst() }
        while let last = value.last, last == 32 || last == 9 { value = value.dropLast() }
        guard !value.contains(where: { $0 < 32 && $0 != 9 || $0 == 127 }) else {
            throw Failure(reason: "a part header's value has control characters.")
        }
        return (String(decoding: name, as: UTF8.self), String(decoding: value, as: UTF8.self))
    }

    /// RFC 9110 `tchar`: visible ASCII except the delimiters `"(),/:;<=>?@[\]{}`.
    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"), UInt8(ascii: "'"),
            UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "^"), UInt8(ascii: "_"),
            UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
            true
        default:
            false
        }
    }
}
