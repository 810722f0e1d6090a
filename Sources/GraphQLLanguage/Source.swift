/// A GraphQL document's text, with the name it is reported under.
///
/// The parser works on the UTF-8 bytes of `body`. Every position in this module
/// (token offsets, ``SourceRange``) is a UTF-8 byte offset into `body`; line and
/// column are computed only when a human needs them (see ``location(of:)``).
///
/// ```swift
/// let source = Source("{ viewer { handle } }", name: "request")
/// ```
public struct Source: Sendable, Hashable {
    /// The document text.
    public let body: String
    /// A label for error messages and tooling, such as a file path.
    public let name: String

    public init(_ body: String, name: String = "GraphQL request") {
        self.body = body
        self.name = name
    }

    /// Creates a source from raw bytes, rejecting invalid UTF-8.
    ///
    /// GraphQL source text is a sequence of Unicode scalar values (§2.1), so bytes
    /// that are not UTF-8 are not a GraphQL document.
    /// - Throws: ``GraphQLSyntaxError`` located at the first invalid byte.
    public init(bytes: some Collection<UInt8>, name: String = "GraphQL request") throws {
        let array = Array(bytes)
        if let bad = UTF8Validation.firstInvalidOffset(in: array) {
            // Locate against the valid prefix: the bad byte starts a new column.
            let prefix = String(decoding: array[..<bad], as: UTF8.self)
            let location = Source(prefix, name: name).location(of: bad)
            throw GraphQLSyntaxError(
                message: "Syntax Error: Invalid UTF-8 byte 0x\(String(array[bad], radix: 16, uppercase: true)).",
                offset: bad, location: location)
        }
        self.init(String(decoding: array, as: UTF8.self), name: name)
    }

    /// The line and column of a UTF-8 byte offset in `body`.
    ///
    /// Lines and columns are 1-based. A line ends at `\n`, `\r\n` or a lone `\r`
    /// (§2.1.3). **Columns count Unicode scalar values** (the spec's SourceCharacter),
    /// not bytes and not UTF-16 units: in `"é" x` the `x` is at column 5.
    public func location(of offset: Int) -> SourceLocation {
        var line = 1
        var column = 1
        let utf8 = body.utf8
        var index = utf8.startIndex
        var position = 0
        while position < offset, index != utf8.endIndex {
            let byte = utf8[index]
            utf8.formIndex(after: &index)
            position += 1
            if byte == 0x0A {
                line += 1
                column = 1
            } else if byte == 0x0D {
                if index != utf8.endIndex, utf8[index] == 0x0A, position < offset {
                    utf8.formIndex(after: &index)
                    position += 1
                }
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        return SourceLocation(line: line, column: column)
    }
}

/// A 1-based line and column, as GraphQL errors report them (§7.1.6).
public struct SourceLocation: Sendable, Hashable, CustomStringConvertible {
    public var line: Int
    public var column: Int

    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    public var description: String { "\(line):\(column)" }
}

/// A half-open range of UTF-8 byte offsets into a ``Source``'s body.
///
/// Every AST node carries one. Documents parsed with
/// ``ParseOptions/noLocation`` carry ``SourceRange/none`` everywhere, which makes
/// two parses of differently formatted but equal documents compare equal.
///
/// Offsets are stored in 32 bits (every AST node has a range, so this halves
/// their cost); documents are far below the 4 GiB this allows.
public struct SourceRange: Sendable, Hashable {
    private var storedStart: UInt32
    private var storedEnd: UInt32

    /// The UTF-8 offset of the node's first byte.
    public var start: Int {
        get { Int(storedStart) }
        set { storedStart = UInt32(truncatingIfNeeded: newValue) }
    }

    /// The UTF-8 offset just past the node's last byte.
    public var end: Int {
        get { Int(storedEnd) }
        set { storedEnd = UInt32(truncatingIfNeeded: newValue) }
    }

    public init(start: Int, end: Int) {
        storedStart = UInt32(truncatingIfNeeded: start)
        storedEnd = UInt32(truncatingIfNeeded: end)
    }

    /// The range used when locations are not recorded.
    public static let none = SourceRange(start: 0, end: 0)
}

enum UTF8Validation {
    /// The offset of the first byte that does not belong to a well-formed UTF-8
    /// sequence (no overlongs, no surrogates, nothing above U+10FFFF), or nil.
    static func firstInvalidOffset(in bytes: [UInt8]) -> Int? {
        var i = 0
        let n = bytes.count
        while i < n {
            let b0 = bytes[i]
            if b0 < 0x80 { i += 1; continue }
            func cont(_ k: Int) -> Bool { i + k < n && bytes[i + k] & 0xC0 == 0x80 }
            switch b0 {
            case 0xC2...0xDF:
                guard cont(1) else { return i }
                i += 2
            case 0xE0...0xEF:
                guard cont(1), cont(2) else { return i }
                let b1 = bytes[i + 1]
                if b0 == 0xE0 && b1 < 0xA0 { return i }  // overlong
                if b0 == 0xED && b1 > 0x9F { return i }  // surrogate
                i += 3
            case 0xF0...0xF4:
                guard cont(1), cont(2), cont(3) else { return i }
                let b1 = bytes[i + 1]
                if b0 == 0xF0 && b1 < 0x90 { return i }  // overlong
                if b0 == 0xF4 && b1 > 0x8F { return i }  // above U+10FFFF
                i += 4
            default:
                return i
            }
        }
        return nil
    }
}
