import Logging

/// Control characters escaped in everything a log line carries, so that no string a client
/// chose (an operation name, a path, a user agent, a handle or an email in an error, a WebSocket
/// close reason...) can end a line and write a forged one after it.
///
/// Applied once, where lines are written (``DeferredMetadataLogHandler``): the message, every
/// metadata value (in arrays and dictionaries too) and an attached error, whoever logged them,
/// so a call site that forgets cannot leak. C0 controls and DEL become `\n`, `\r`, `\t` or
/// `\u{XX}`; the C1 controls and the Unicode line and paragraph separators (U+0085, U+2028,
/// U+2029), which some log viewers break lines at, become `\u{XXXX}`; in a string that needs
/// escaping, backslashes are doubled too, so an escape cannot be faked. A string without control
/// characters is returned as it is, without a copy.
///
/// ```swift
/// LogEscaping.escaped("Feed\nINFO forged")   // "Feed\\nINFO forged"
/// ```
public enum LogEscaping {
    /// `text` with its control characters escaped.
    public static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count + 8)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case "\\": result += "\\\\"
            default:
                if isControl(scalar) {
                    result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result
    }

    /// A metadata value with every string in it escaped.
    public static func escaped(_ value: Logger.MetadataValue) -> Logger.MetadataValue {
        switch value {
        case .string(let text): .string(escaped(text))
        case .stringConvertible(let convertible): .string(escaped(convertible.description))
        case .array(let items): .array(items.map(escaped))
        case .dictionary(let members): .dictionary(members.mapValues(escaped))
        }
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        return value < 0x20 || (0x7F...0x9F).contains(value) || value == 0x2028 || value == 0x2029
    }
}
