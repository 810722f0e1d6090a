import Foundation

/// RFC 4648 §5 base64url without padding: page cursors, and the segments of a JSON Web Token.
///
/// ```swift
/// Base64URL.encode(Array("hi?".utf8)) == "aGk_"
/// Base64URL.decode("aGk_") == Array("hi?".utf8)
/// ```
public enum Base64URL {
    static let alphabet: [UInt8] = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// Unpadded base64url (RFC 4648 §5), written straight into the string: one cursor per edge,
    /// and going through Foundation's base64 and a character map showed in profiles.
    public static func encode(_ bytes: [UInt8]) -> String {
        String(unsafeUninitializedCapacity: (bytes.count * 4 + 2) / 3) { out in
            var o = 0
            var i = 0
            func put(_ value: UInt32, _ shift: UInt32) {
                out[o] = alphabet[Int(value >> shift & 63)]
                o += 1
            }
            while i + 3 <= bytes.count {
                let group = UInt32(bytes[i]) << 16 | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2])
                put(group, 18)
                put(group, 12)
                put(group, 6)
                put(group, 0)
                i += 3
            }
            switch bytes.count - i {
            case 1:
                let group = UInt32(bytes[i]) << 16
                put(group, 18)
                put(group, 12)
            case 2:
                let group = UInt32(bytes[i]) << 16 | UInt32(bytes[i + 1]) << 8
                put(group, 18)
                put(group, 12)
                put(group, 6)
            default:
                break
            }
            return o
        }
    }

    /// The bytes of unpadded base64url text; nil for any other character, or a length no
    /// encoding has. Unused bits of the last character are not checked: callers that need the one
    /// canonical spelling (cursors) compare ``encode(_:)`` of the result with the text.
    public static func decode(_ text: some StringProtocol) -> [UInt8]? {
        guard text.utf8.allSatisfy({ alphabet.contains($0) }), text.utf8.count % 4 != 1 else { return nil }
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        return Data(base64Encoded: base64).map { [UInt8]($0) }
    }
}
