extension Lexer {
    /// Reads a StringValue (§2.9.4): a quoted string or a block string.
    ///
    /// The token's value (``Lexer/stringValue``) is the cooked string: escapes
    /// resolved for quoted strings (`\u{1F600}`, surrogate pairs `\uD83D\uDE00`), and
    /// ``BlockString/value(_:_:_:hasEscapedQuotes:)`` applied to block strings. A long literal whose
    /// exact source text was already read in this document shares that value
    /// (``StringTable``): same text, same value, and the text was valid then.
    mutating func readString(start: Int) throws(GraphQLSyntaxError) -> Token {
        let n = bytes.count
        if start + 2 < n, bytes[start + 1] == 0x22, bytes[start + 2] == 0x22 {
            return try readBlockString(start: start)
        }
        // Find the closing quote, eight bytes at a time; escapes are checked when
        // the value is cooked. Whether the text has an escape or a non-ASCII byte
        // is noted on the way (conservatively: a whole word is looked at).
        var p = start + 1
        var isPlainASCII = true
        let base = UnsafeRawPointer(bytes.baseAddress.unsafelyUnwrapped)
        while p < n {
            if p + 8 <= n {
                let word = base.loadUnaligned(fromByteOffset: p, as: UInt64.self)
                if word & 0x8080_8080_8080_8080 != 0 { isPlainASCII = false }
                let stops = Lexer.stringStopBytes(word)
                if stops == 0 {
                    p += 8
                    continue
                }
                p += stops.trailingZeroBitCount >> 3
            } else {
                let c = bytes[p]
                if c >= 0x80 { isPlainASCII = false }
                if c != 0x22 && c != 0x0A && c != 0x0D && c != 0x5C {
                    p += 1
                    continue
                }
            }
            if bytes[p] != 0x5C { break }
            isPlainASCII = false
            p += 2
        }
        if p < n, bytes[p] == 0x22, p + 1 - start < StringTable.minimumCount, isPlainASCII, makesSmallStringsDirectly {
            // Short, no escape, ASCII: the value is the text, written inline.
            stringValue = SmallASCIIString.make(bytes, start + 1, count: p - start - 1)
            position = p + 1
            return Token(kind: .string, start: start, end: p + 1)
        }
        if p < n, bytes[p] == 0x22, p + 1 - start >= StringTable.minimumCount {
            var hash: UInt32 = 0
            var slot = 0
            if let shared = strings.lookup(bytes, start, p + 1, hash: &hash, slot: &slot) {
                stringValue = shared
            } else {
                stringValue = try cookString(start: start).value
                strings.insert(stringValue, start, p + 1, hash: hash, slot: slot)
            }
            position = p + 1
            return Token(kind: .string, start: start, end: p + 1)
        }
        let (value, end) = try cookString(start: start)
        stringValue = value
        position = end
        return Token(kind: .string, start: start, end: end)
    }

    /// For eight bytes read little-endian, the high bit of each byte that ends a
    /// run of plain string characters: `"`, `\`, `\n` or `\r`. Exact per byte (each
    /// zero test adds to bytes whose high bit was cleared, so nothing carries).
    @inline(__always)
    static func stringStopBytes(_ x: UInt64) -> UInt64 {
        equalBytes(x, 0x22) | equalBytes(x, 0x5C) | equalBytes(x, 0x0A) | equalBytes(x, 0x0D)
    }

    /// The value of the quoted string at `start`, and the offset after its closing quote.
    private func cookString(start: Int) throws(GraphQLSyntaxError) -> (value: String, end: Int) {
        let n = bytes.count
        var p = start + 1
        var chunkStart = p
        var cooked: [UInt8]? = nil
        while p < n {
            let c = bytes[p]
            if c == 0x22 {  // closing quote
                let value: String
                if var buffer = cooked {
                    buffer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[chunkStart..<p]))
                    value = String(decoding: buffer, as: UTF8.self)
                } else {
                    value = String(decoding: UnsafeBufferPointer(rebasing: bytes[chunkStart..<p]), as: UTF8.self)
                }
                return (value, p + 1)
            }
            if c == 0x5C {  // backslash
                if cooked == nil { cooked = [] ; cooked!.reserveCapacity(p - start + 16) }
                cooked!.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[chunkStart..<p]))
                p = try readEscape(at: p, into: &cooked!)
                chunkStart = p
                continue
            }
            if c == 0x0A || c == 0x0D { break }
            p += 1
        }
        throw error(at: p, "Unterminated string.")
    }

    /// Decodes the escape sequence at `p` (a backslash) into `buffer`.
    /// - Returns: the offset after the escape sequence.
    private func readEscape(at p: Int, into buffer: inout [UInt8]) throws(GraphQLSyntaxError) -> Int {
        let n = bytes.count
        let next: UInt8 = p + 1 < n ? bytes[p + 1] : 0
        switch next {
        case 0x22: buffer.append(0x22)
        case 0x5C: buffer.append(0x5C)
        case 0x2F: buffer.append(0x2F)
        case 0x62: buffer.append(0x08)
        case 0x66: buffer.append(0x0C)
        case 0x6E: buffer.append(0x0A)
        case 0x72: buffer.append(0x0D)
        case 0x74: buffer.append(0x09)
        case 0x75:  // u
            if p + 2 < n, bytes[p + 2] == 0x7B {
                return try readVariableWidthUnicode(at: p, into: &buffer)
            }
            return try readFixedWidthUnicode(at: p, into: &buffer)
        default:
            let end = p + 1 < n ? p + 1 + Lexer.scalarLength(bytes[p + 1]) : p + 1
            throw error(at: p, "Invalid character escape sequence: \"\(text(p, end))\".")
        }
        return p + 2
    }

    /// `\u{` HexDigit+ `}`: any Unicode scalar value.
    private func readVariableWidthUnicode(at p: Int, into buffer: inout [UInt8]) throws(GraphQLSyntaxError) -> Int {
        let n = bytes.count
        var point: Int32 = 0
        var size = 3
        // At most 12 characters: \u{00000000}
        while size < 12 {
            let i = p + size
            size += 1
            guard i < n else { break }
            let c = bytes[i]
            if c == 0x7D {
                guard size >= 5, let scalar = Unicode.Scalar(UInt32(point)) else { break }
                Lexer.appendUTF8(scalar, to: &buffer)
                return p + size
            }
            guard let digit = Lexer.hexValue(c) else { break }
            point = (point &<< 4) | Int32(digit)
            if point < 0 { break }
        }
        throw error(at: p, "Invalid Unicode escape sequence: \"\(text(p, p + size))\".")
    }

    /// `\u` HexDigit×4, where a leading surrogate must be followed by `\u` and a
    /// trailing surrogate; the pair decodes to one scalar.
    private func readFixedWidthUnicode(at p: Int, into buffer: inout [UInt8]) throws(GraphQLSyntaxError) -> Int {
        let code = read16BitHex(at: p + 2)
        if code >= 0, let scalar = Unicode.Scalar(UInt32(code)) {
            Lexer.appendUTF8(scalar, to: &buffer)
            return p + 6
        }
        if code >= 0xD800 && code <= 0xDBFF,
            p + 7 < bytes.count, bytes[p + 6] == 0x5C, bytes[p + 7] == 0x75
        {
            let trailing = read16BitHex(at: p + 8)
            if trailing >= 0xDC00 && trailing <= 0xDFFF {
                let combined = 0x10000 + ((code - 0xD800) << 10) + (trailing - 0xDC00)
                Lexer.appendUTF8(Unicode.Scalar(UInt32(combined))!, to: &buffer)
                return p + 12
            }
        }
        throw error(at: p, "Invalid Unicode escape sequence: \"\(text(p, p + 6))\".")
    }

    /// Four hex digits at `p` as a number, or -1 if any is missing or not hex.
    private func read16BitHex(at p: Int) -> Int {
        guard p + 3 < bytes.count else { return -1 }
        var value = 0
        for i in p..<(p + 4) {
            guard let digit = Lexer.hexValue(bytes[i]) else { return -1 }
            value = value << 4 | Int(digit)
        }
        return value
    }

    @inline(__always)
    static func hexValue(_ c: UInt8) -> UInt8? {
        switch c {
        case 0x30...0x39: return c - 0x30
        case 0x41...0x46: return c - 0x37
        case 0x61...0x66: return c - 0x57
        default: return nil
        }
    }

    static func appendUTF8(_ scalar: Unicode.Scalar, to buffer: inout [UInt8]) {
        UTF8.encode(scalar) { buffer.append($0) }
    }

    /// Reads a BlockString (§2.9.4): `"""` ... `"""`, where `\"""` stands for `"""`.
    ///
    /// The closing quotes are found eight bytes at a time: only `"` and `\` stop the
    /// scan. Whether any `\"""` was met is passed on, so cooking a description without
    /// one (nearly all) copies whole lines.
    private mutating func readBlockString(start: Int) throws(GraphQLSyntaxError) -> Token {
        let n = bytes.count
        let base = UnsafeRawPointer(bytes.baseAddress.unsafelyUnwrapped)
        var p = start + 3
        var hasEscapedQuotes = false
        while p < n {
            if p + 8 <= n {
                let stops = Lexer.blockStringStopBytes(base.loadUnaligned(fromByteOffset: p, as: UInt64.self))
                if stops == 0 {
                    p += 8
                    continue
                }
                p += stops.trailingZeroBitCount >> 3
            }
            let c = bytes[p]
            if c == 0x22, p + 2 < n, bytes[p + 1] == 0x22, bytes[p + 2] == 0x22 { break }
            if c == 0x5C, p + 3 < n, bytes[p + 1] == 0x22, bytes[p + 2] == 0x22, bytes[p + 3] == 0x22 {
                hasEscapedQuotes = true
                p += 4
                continue
            }
            p += 1
        }
        guard p < n else { throw error(at: p, "Unterminated string.") }
        let contentEnd = p
        let end = p + 3
        if end - start >= StringTable.minimumCount {
            var hash: UInt32 = 0
            var slot = 0
            if let shared = strings.lookup(bytes, start, end, hash: &hash, slot: &slot) {
                stringValue = shared
            } else {
                stringValue = BlockString.value(bytes, start + 3, contentEnd, hasEscapedQuotes: hasEscapedQuotes)
                strings.insert(stringValue, start, end, hash: hash, slot: slot)
            }
        } else {
            stringValue = BlockString.value(bytes, start + 3, contentEnd, hasEscapedQuotes: hasEscapedQuotes)
        }
        position = end
        return Token(kind: .blockString, start: start, end: end)
    }

    /// For eight bytes read little-endian, the high bit of each byte that is `"` or `\`:
    /// the bytes that can end a block string or escape its closing quotes.
    @inline(__always)
    static func blockStringStopBytes(_ x: UInt64) -> UInt64 {
        equalBytes(x, 0x22) | equalBytes(x, 0x5C)
    }

    /// For eight bytes read little-endian, the high bit of each byte equal to `byte`.
    /// Exact per byte: the test adds to bytes whose high bit was cleared, so nothing carries.
    @inline(__always)
    static func equalBytes(_ x: UInt64, _ byte: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let high: UInt64 = 0x8080_8080_8080_8080
        let v = x ^ ones &* byte
        return ~(((v & ~high) &+ ones &* 0x7F) | v) & high
    }
}
