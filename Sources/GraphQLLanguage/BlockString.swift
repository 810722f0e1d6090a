/// Block string semantics (§2.9.4): the value of a raw block string, and the
/// way to print a value back as a block string.
public enum BlockString {
    /// `BlockStringValue(rawValue)`: removes the common indentation of all lines
    /// but the first, then blank leading and trailing lines; joins with `\n`.
    static func value(raw: [UInt8]) -> String {
        // Split into lines at \n, \r\n or \r.
        var lines: [Range<Int>] = []
        var lineStart = 0
        var i = 0
        let n = raw.count
        while i < n {
            let c = raw[i]
            if c == 0x0A || c == 0x0D {
                lines.append(lineStart..<i)
                if c == 0x0D, i + 1 < n, raw[i + 1] == 0x0A { i += 1 }
                lineStart = i + 1
            }
            i += 1
        }
        lines.append(lineStart..<n)

        func indentation(_ line: Range<Int>) -> Int {
            var k = line.lowerBound
            while k < line.upperBound, raw[k] == 0x20 || raw[k] == 0x09 { k += 1 }
            return k - line.lowerBound
        }
        var commonIndent: Int? = nil
        for line in lines.dropFirst() {
            let indent = indentation(line)
            if indent < line.count, commonIndent == nil || indent < commonIndent! {
                commonIndent = indent
            }
        }
        if let common = commonIndent, common > 0 {
            for k in 1..<lines.count {
                let line = lines[k]
                lines[k] = min(line.lowerBound + common, line.upperBound)..<line.upperBound
            }
        }
        var first = 0
        var last = lines.count - 1
        while first <= last, indentation(lines[first]) == lines[first].count { first += 1 }
        while last >= first, indentation(lines[last]) == lines[last].count { last -= 1 }
        guard first <= last else { return "" }
        var out: [UInt8] = []
        out.reserveCapacity(n)
        for k in first...last {
            if k > first { out.append(0x0A) }
            out.append(contentsOf: raw[lines[k]])
        }
        return String(decoding: out, as: UTF8.self)
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
