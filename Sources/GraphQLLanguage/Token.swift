/// The kinds of lexical token (§2.1.6), plus the end of the document.
public enum TokenKind: UInt8, Sendable, Hashable {
    case eof
    case bang, dollar, amp, parenL, parenR, spread, colon, equals, at
    case bracketL, bracketR, braceL, pipe, braceR
    case name, int, float, string, blockString

    /// How graphql-js names this kind in messages: `"{"` for punctuators, `Name`, `<EOF>`...
    var description: String {
        switch self {
        case .eof: return "<EOF>"
        case .bang: return "\"!\""
        case .dollar: return "\"$\""
        case .amp: return "\"&\""
        case .parenL: return "\"(\""
        case .parenR: return "\")\""
        case .spread: return "\"...\""
        case .colon: return "\":\""
        case .equals: return "\"=\""
        case .at: return "\"@\""
        case .bracketL: return "\"[\""
        case .bracketR: return "\"]\""
        case .braceL: return "\"{\""
        case .pipe: return "\"|\""
        case .braceR: return "\"}\""
        case .name: return "Name"
        case .int: return "Int"
        case .float: return "Float"
        case .string: return "String"
        case .blockString: return "BlockString"
        }
    }
}

/// One lexical token: its kind and where it is. A string token's cooked value
/// is in ``Lexer/stringValue`` while it is the current token, so that copying a
/// token never retains a string.
struct Token {
    var kind: TokenKind
    var start: Int
    var end: Int

    init(kind: TokenKind, start: Int, end: Int) {
        self.kind = kind
        self.start = start
        self.end = end
    }
}
