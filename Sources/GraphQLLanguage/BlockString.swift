/// Block string semantics (§2.9.4): the value of a raw block string, and the
/// way to print a value back as a block string.
public enum BlockString {
    /// `BlockStringValue(rawValue)` of the block string whose text between the
    /// triple quotes is `bytes[start..<end]`: removes the common indentation of all
    /// lines but the first, then blank leading and trailing lines, joins the lines
    /// with `\n`, and turns each `\"""` into `"""`.
    ///
    /// Works on the source bytes in two passes and writes the value straight into
    /// the new string, so a block string costs one allocation (none when its text
    /// between the quotes is at most 15 bytes: the capacity asked for is that length).
    /// Lines and indentation can be read before unescaping: `\"""` contains
    /// neither a line terminator nor white space. When the lexer met no `\"""`
    /// (`hasEscapedQuotes` false, nearly every description), each kept line is
    /// copied whole.
    static func value(
        _ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, hasEscapedQuotes: Bool
    ) -> String {
        let lines = BlockStringLines(bytes, start, end)
        // Pass 1: the common indentation and the first and last non-blank lines.
        var common = Int.max
        var first = -1
        var last = -1
        var index = 0
        lines.forEach { line in
            if !line.isBlank {
                if index > 0 && line.indent < common { common = line.indent }
                if first < 0 { first = index }
                last = index
            }
            index += 1
        }
        guard first >= 0 else { return "" }
        if common == Int.max { common = 0 }
        // Pass 2: the kept lines, dedented and unescaped. The value is never longer than the text.
        return String(unsafeUninitializedCapacity: end - start) { out in
            var w = 0
            var index = 0
            lines.forEach { line in
                defer { index += 1 }
                guard index >= first && index <= last else { return }
                if index > first {
                    out[w] = 0x0A
                    w += 1
                }
                var p = index == 0 ? line.start : min(line.start + common, line.end)
                if !hasEscapedQuotes {
                    let count = line.end - p
                    (out.baseAddress.unsafelyUnwrapped + w).initialize(
                        from: bytes.baseAddress.unsafelyUnwrapped + p, count: count)
                    w += count
                    return
                }
                while p < line.end {
                    let c = bytes[p]
                    if c == 0x5C, p + 3 < line.end, bytes[p + 1] == 0x22, bytes[p + 2] == 0x22,
                        bytes[p + 3] == 0x22
                    {
                        out[w] = 0x22
                        out[w + 1] = 0x22
                        out[w + 2] = 0x22
                        w += 3
                        p += 4
                        continue
                    }
                    out[w] = c
                    w += 1
                    p += 1
                }
            }
            return w
        }
    }

    /// Prints `value` as a block string the way graphql-js's `printBlockString` does,
    /// so that parsing the result gives `value` back.
    public static func print(_ value: String) -> String {
        let escaped = value.replacing("\"\"\"", with: "\\\"\"\"")
        let lines = escaped.splitLines()
        let isSingleLine = lines.count == 1
        func isWhitespace(_ s: Substring) -> Bool { s.first == " " || s.first == "\t" }
        let forceLeadingNewLine = lines.count > 1 && lines.dropFirst().allSatisfy { $0.isEmpty || isWhitespace($0) }
        let hasTrailingTripleQuotes = escaped.hasSuffix("\\\"\"\"")
        let hasTrailingQuote = value.hasSuffix("\"") && !hasTrailingTripleQuotes
        let hasTrailingSlash = value.hasSuffix("\\")
        let forceTrailingNewline = hasTrailingQuote || hasTrailingSlash
        let printAsMultipleLines =
            !isSingleLine || value.utf16.count > 70 || forceTrailingNewline || forceLeadingNewLine
            || hasTrailingTripleQuotes
        var result = ""
        let skipLeadingNewLine = isSingleLine && (value.first == " " || value.first == "\t")
        if (printAsMultipleLines && !skipLeadingNewLine) || forceLeadingNewLine { result += "\n" }
        result += escaped
        if printAsMultipleLines || forceTrailingNewline { result += "\n" }
        return "\"\"\"" + result + "\"\"\""
    }
}

extension String {
    /// Splits at `\r\n`, `\n` or `\r`, as `split(/\r\n|[\n\r]/g)` does in JavaScript.
    func splitLines() -> [Substring] {
        var lines: [Substring] = []
        var start = startIndex
        var i = startIndex
        while i < endIndex {
            let c = self[i]
            // "\r\n" is a single Character (grapheme) in Swift.
            if c == "\n" || c == "\r" || c == "\r\n" {
                lines.append(self[start..<i])
                i = index(after: i)
                start = i
            } else {
                i = index(after: i)
            }
        }
        lines.append(self[start..<endIndex])
        return lines
    }
}

/// The lines of a block string's text (§2.9.4: split at `\n`, `\r\n` or `\r`),
/// each with its indentation, read straight from the source bytes.
struct BlockStringLines {
    struct Line {
        var start: Int
        var end: Int
        /// Leading spaces and tabs.
        var indent: Int
        /// Only white space (or empty).
        var isBlank: Bool { start + indent == end }
    }

    let bytes: UnsafeBufferPointer<UInt8>
    let start: Int
    let end: Int

    init(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) {
        self.bytes = bytes
        self.start = start
        self.end = end
    }

    @inline(__always)
    func forEach(_ body: (Line) -> Void) {
        var p = start
        while true {
            let e = lineEnd(from: p)
            var k = p
            while k < e, bytes[k] == 0x20 || bytes[k] == 0x09 { k += 1 }
            body(Line(start: p, end: e, indent: k - p))
            if e >= end { return }
            p = bytes[e] == 0x0D && e + 1 < end && bytes[e + 1] == 0x0A ? e + 2 : e + 1
        }
    }

    /// The offset of the first `\n` or `\r` at or after `p`, or `end`: eight bytes
    /// at a time (descriptions run to tens of bytes a line), then byte by byte.
    @inline(__always)
    func lineEnd(from p: Int) -> Int {
        let base = UnsafeRawPointer(bytes.baseAddress.unsafelyUnwrapped)
        var e = p
        while e + 8 <= end {
            let word = base.loadUnaligned(fromByteOffset: e, as: UInt64.self)
            let stops = Lexer.equalBytes(word, 0x0A) | Lexer.equalBytes(word, 0x0D)
            if stops != 0 { return e + stops.trailingZeroBitCount >> 3 }
            e += 8
        }
        while e < end, bytes[e] != 0x0A, bytes[e] != 0x0D { e += 1 }
        return e
    }
}
