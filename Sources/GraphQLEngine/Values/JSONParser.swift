/// Reads JSON text (RFC 8259) into a ``JSONValue``: keys keep their order,
/// integers that fit stay `Int`, nesting is bounded, and so, when asked, is the number of
/// values (``parse(_:maxValues:)``): the work is linear in the input and stops at the bound.
///
/// ```swift
/// let variables = try JSONParser.parse(Array(#"{"first": 10}"#.utf8))
/// ```
public enum JSONParser {
    /// What is wrong with the text, and where (a UTF-8 byte offset).
    public struct Error: Swift.Error, Sendable, Hashable, CustomStringConvertible {
        public let message: String
        public let offset: Int
        /// True when the text may be valid but holds more values than the caller allowed.
        public let exceedsValueLimit: Bool
        public var description: String { "\(message) at byte \(offset)" }

        public init(message: String, offset: Int, exceedsValueLimit: Bool = false) {
            self.message = message
            self.offset = offset
            self.exceedsValueLimit = exceedsValueLimit
        }
    }

    /// The deepest nesting accepted (arrays and objects), so hostile input cannot overflow the stack.
    public static let maxDepth = 512

    /// Parses `bytes`.
    /// - Parameter maxValues: the most values the text may hold, counting every value at every
    ///   level (each object member, each array item, and the top-level value). Past it the parse
    ///   stops with an error whose ``Error/exceedsValueLimit`` is true. Untrusted input (request
    ///   bodies) should always set it.
    public static func parse(_ bytes: [UInt8], maxValues: Int = .max) throws(Error) -> JSONValue {
        try bytes.withUnsafeBufferPointer { (buffer) throws(Error) -> JSONValue in
            var reader = Reader(bytes: buffer, remainingValues: maxValues, maxValues: maxValues)
            reader.skipWhitespace()
            let value = try reader.readValue(depth: 0)
            reader.skipWhitespace()
            guard reader.position == buffer.count else { throw reader.error("Unexpected data after the JSON value") }
            return value
        }
    }

    public static func parse(_ text: String, maxValues: Int = .max) throws(Error) -> JSONValue {
        try parse(Array(text.utf8), maxValues: maxValues)
    }

    struct Reader {
        let bytes: UnsafeBufferPointer<UInt8>
        var position = 0
        var remainingValues: Int
        let maxValues: Int

        init(bytes: UnsafeBufferPointer<UInt8>, remainingValues: Int, maxValues: Int) {
            self.bytes = bytes
            self.remainingValues = remainingValues
            self.maxValues = maxValues
        }

        func error(_ message: String) -> Error { Error(message: message, offset: position) }

        mutating func skipWhitespace() {
            while position < bytes.count {
                switch bytes[position] {
                case 0x20, 0x09, 0x0A, 0x0D: position += 1
                default: return
                }
            }
        }

        mutating func readValue(depth: Int) throws(Error) -> JSONValue {
            guard position < bytes.count else { throw error("Unexpected end of JSON") }
            remainingValues -= 1
            guard remainingValues >= 0 else {
                throw Error(message: "JSON holds more than \(maxValues) values", offset: position, exceedsValueLimit: true)
            }
            switch bytes[position] {
            case UInt8(ascii: "{"): return try readObject(depth: depth + 1)
            case UInt8(ascii: "["): return try readArray(depth: depth + 1)
            case UInt8(ascii: "\""): return .string(try readString())
            case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
            case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
            case UInt8(ascii: "n"): try expectLiteral("null"); return .null
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try readNumber()
            default: throw error("Unexpected character in JSON")
            }
        }

        mutating func expectLiteral(_ literal: StaticString) throws(Error) {
            let n = literal.utf8CodeUnitCount
            guard position + n <= bytes.count else { throw error("Unexpected end of JSON") }
            for i in 0..<n where bytes[position + i] != literal.utf8Start[i] { throw error("Invalid literal in JSON") }
            position += n
        }

        mutating func readObject(depth: Int) throws(Error) -> JSONValue {
            guard depth <= JSONParser.maxDepth else { throw error("JSON nested too deeply") }
            position += 1
            var object = JSONObject()
            skipWhitespace()
            if position < bytes.count, bytes[position] == UInt8(ascii: "}") {
                position += 1
                return .object(object)
            }
            while true {
                skipWhitespace()
                guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else {
                    throw error("Expected a string key in JSON object")
                }
                let key = try readString()
                skipWhitespace()
                guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else {
                    throw error("Expected ':' in JSON object")
                }
                position += 1
                skipWhitespace()
                let value = try readValue(depth: depth)
                object[key] = value  // a repeated key keeps its first position, last value
                skipWhitespace()
                guard position < bytes.count else { throw error("Unexpected end of JSON") }
                if bytes[position] == UInt8(ascii: ",") { position += 1; continue }
                if bytes[position] == UInt8(ascii: "}") { position += 1; return .object(object) }
                throw error("Expected ',' or '}' in JSON object")
            }
        }

        mutating func readArray(depth: Int) throws(Error) -> JSONValue {
            guard depth <= JSONParser.maxDepth else { throw error("JSON nested too deeply") }
            position += 1
            var items: [JSONValue] = []
            skipWhitespace()
            if position < bytes.count, bytes[position] == UInt8(ascii: "]") {
                position += 1
                return .array(items)
            }
            while true {
                skipWhitespace()
                items.append(try readValue(depth: depth))
                skipWhitespace()
                guard position < bytes.count else { throw error("Unexpected end of JSON") }
                if bytes[position] == UInt8(ascii: ",") { position += 1; continue }
                if bytes[position] == UInt8(ascii: "]") { position += 1; return .array(items) }
                throw error("Expected ',' or ']' in JSON array")
            }
        }

        mutating func readNumber() throws(Error) -> JSONValue {
            let start = position
            var isInteger = true
            if bytes[position] == UInt8(ascii: "-") { position += 1 }
            guard position < bytes.count, isDigit(bytes[position]) else { throw error("Invalid number in JSON") }
            if bytes[position] == UInt8(ascii: "0") {
                position += 1
            } else {
                while position < bytes.count, isDigit(bytes[position]) { position += 1 }
            }
            if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
                isInteger = false
                position += 1
                guard position < bytes.count, isDigit(bytes[position]) else { throw error("Invalid number in JSON") }
                while position < bytes.count, isDigit(bytes[position]) { position += 1 }
            }
            if position < bytes.count, bytes[position] | 0x20 == UInt8(ascii: "e") {
                isInteger = false
                position += 1
                if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") {
                    position += 1
                }
                guard position < bytes.count, isDigit(bytes[position]) else { throw error("Invalid number in JSON") }
                while position < bytes.count, isDigit(bytes[position]) { position += 1 }
            }
            let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
            if isInteger, let int = Int(text) { return .int(int) }
            guard let double = Double(text) else { throw error("Invalid number in JSON") }
            // 1e400 is valid JSON but no Double: refused here, rather than read as infinity, which
            // no GraphQL value can hold and JSON cannot write back (fuzz-json found it).
            guard double.isFinite else { throw error("Number out of range in JSON") }
            return .double(double)
        }

        @inline(__always)
        func isDigit(_ c: UInt8) -> Bool { c >= 0x30 && c <= 0x39 }

        mutating func readString() throws(Error) -> String {
            position += 1  // opening quote
            let start = position
            var buffer: [UInt8]? = nil
            var chunkStart = start
            while position < bytes.count {
                let c = bytes[position]
                if c == UInt8(ascii: "\"") {
                    defer { position += 1 }
                    let tail = UnsafeBufferPointer(rebasing: bytes[chunkStart..<position])
                    if var b = buffer {
                        b.append(contentsOf: tail)
                        return try validated(b)
                    }
                    return try validated(Array(tail))
                }
                if c < 0x20 { throw error("Unescaped control character in JSON string") }
                if c == UInt8(ascii: "\\") {
                    if buffer == nil { buffer = [] }
                    buffer!.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[chunkStart..<position]))
                    try readEscape(into: &buffer!)
                    chunkStart = position
                    continue
                }
                position += 1
            }
            throw error("Unterminated JSON string")
        }

        func validated(_ bytes: [UInt8]) throws(Error) -> String {
            guard let string = String(validating: bytes, as: UTF8.self) else {
                throw error("Invalid UTF-8 in JSON string")
            }
            return string
        }

        mutating func readEscape(into buffer: inout [UInt8]) throws(Error) {
            position += 1
            guard position < bytes.count else { throw error("Unterminated JSON string") }
            let c = bytes[position]
            position += 1
            switch c {
            case UInt8(ascii: "\""): buffer.append(0x22)
            case UInt8(ascii: "\\"): buffer.append(0x5C)
            case UInt8(ascii: "/"): buffer.append(0x2F)
            case UInt8(ascii: "b"): buffer.append(0x08)
            case UInt8(ascii: "f"): buffer.append(0x0C)
            case UInt8(ascii: "n"): buffer.append(0x0A)
            case UInt8(ascii: "r"): buffer.append(0x0D)
            case UInt8(ascii: "t"): buffer.append(0x09)
            case UInt8(ascii: "u"):
                var code = try readHex4()
                if code >= 0xD800 && code <= 0xDBFF {
                    guard position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"),
                        bytes[position + 1] == UInt8(ascii: "u")
                    else { throw error("Unpaired surrogate in JSON string") }
                    position += 2
                    let low = try readHex4()
                    guard low >= 0xDC00 && low <= 0xDFFF else { throw error("Unpaired surrogate in JSON string") }
                    code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                } else if code >= 0xDC00 && code <= 0xDFFF {
                    throw error("Unpaired surrogate in JSON string")
                }
                UTF8.encode(Unicode.Scalar(code)!) { buffer.append($0) }
            default:
                throw error("Invalid escape in JSON string")
            }
        }

        mutating func readHex4() throws(Error) -> UInt32 {
            guard position + 4 <= bytes.count else { throw error("Invalid \\u escape in JSON string") }
            var value: UInt32 = 0
            for _ in 0..<4 {
                let c = bytes[position]
                let digit: UInt32
                switch c {
                case 0x30...0x39: digit = UInt32(c - 0x30)
                case 0x41...0x46: digit = UInt32(c - 0x37)
                case 0x61...0x66: digit = UInt32(c - 0x57)
                default: throw error("Invalid \\u escape in JSON string")
                }
                value = value << 4 | digit
                position += 1
            }
            return value
        }
    }
}
