extension Lexer {
    /// Reads an IntValue or FloatValue (§2.9.1, §2.9.2).
    ///
    /// ```
    /// IntValue :: IntegerPart [lookahead != {Digit, `.`, NameStart}]
    /// FloatValue :: IntegerPart FractionalPart? ExponentPart? [lookahead != {Digit, `.`, NameStart}]
    /// ```
    /// `0x1`, `1.0e`, `01` and `123abc` are syntax errors, as the lookahead demands.
    mutating func readNumber(start: Int) throws(GraphQLSyntaxError) -> Token {
        let n = bytes.count
        var p = start
        var isFloat = false
        @inline(__always) func at(_ i: Int) -> UInt8 { i < n ? bytes[i] : 0xFF }

        if bytes[p] == 0x2D { p += 1 }  // -
        if at(p) == 0x30 {
            p += 1
            if Lexer.isDigit(at(p)) {
                throw error(at: p, "Invalid number, unexpected digit after 0: \(describeCharacter(at: p)).")
            }
        } else {
            p = try readDigits(p)
        }
        if at(p) == 0x2E {  // .
            isFloat = true
            p = try readDigits(p + 1)
        }
        if at(p) == 0x45 || at(p) == 0x65 {  // E e
            isFloat = true
            p += 1
            if at(p) == 0x2B || at(p) == 0x2D { p += 1 }  // + -
            p = try readDigits(p)
        }
        if p < n, bytes[p] == 0x2E || Lexer.isNameStart(bytes[p]) {
            throw error(at: p, "Invalid number, expected digit but got: \(describeCharacter(at: p)).")
        }
        position = p
        return Token(kind: isFloat ? .float : .int, start: start, end: p)
    }

    /// Reads `Digit+` starting at `p`; returns the offset after the last digit.
    private func readDigits(_ p: Int) throws(GraphQLSyntaxError) -> Int {
        let n = bytes.count
        guard p < n, Lexer.isDigit(bytes[p]) else {
            throw error(at: p, "Invalid number, expected digit but got: \(describeCharacter(at: p)).")
        }
        var e = p + 1
        while e < n, Lexer.isDigit(bytes[e]) { e += 1 }
        return e
    }
}
