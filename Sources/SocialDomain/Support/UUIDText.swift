import Foundation

/// The textual form of ids, read and written without Foundation's `sscanf`/`snprintf`.
///
/// Every row a store returns carries two or three UUIDs as text, and every id the gateway
/// serves is formatted back: in a profile of the uncached follower graph (issue #17),
/// `UUID(uuidString:)` and `uuidString` (formatted input and output in libc) took 18% of the
/// CPU. These do the same by table lookups. Both accept and produce only the 36-character form
/// `8-4-4-4-12` of hexadecimal digits, as `UUID(uuidString:)` does.
extension UUID {
    /// The lower-case form used everywhere (paths, SQL, cursors): Postgres and `auth.uid()` print
    /// UUIDs in lower case, and Swift's `uuidString` is upper case.
    public var lowercased: String {
        withUnsafeBytes(of: uuid) { bytes in
            String(unsafeUninitializedCapacity: 36) { out in
                var o = 0
                for i in 0..<16 {
                    if i == 4 || i == 6 || i == 8 || i == 10 {
                        out[o] = UInt8(ascii: "-")
                        o += 1
                    }
                    out[o] = UUIDText.digits[Int(bytes[i] >> 4)]
                    out[o + 1] = UUIDText.digits[Int(bytes[i] & 0x0F)]
                    o += 2
                }
                return 36
            }
        }
    }

    /// Appends ``lowercased``'s 36 bytes to `bytes`, without making a `String` first (a cursor
    /// holds two UUIDs, and a follower graph writes 550 cursors).
    func appendLowercased(to bytes: inout [UInt8]) {
        withUnsafeBytes(of: uuid) { raw in
            for i in 0..<16 {
                if i == 4 || i == 6 || i == 8 || i == 10 { bytes.append(UInt8(ascii: "-")) }
                bytes.append(UUIDText.digits[Int(raw[i] >> 4)])
                bytes.append(UUIDText.digits[Int(raw[i] & 0x0F)])
            }
        }
    }

    /// The UUID written as `text` (36 characters, hexadecimal digits in either case, hyphens at
    /// 8, 13, 18 and 23), or nil: what `UUID(uuidString:)` accepts, without `sscanf`.
    public init?(parsing text: String) {
        var text = text
        guard let value = text.withUTF8({ UUIDText.parse($0) }) else { return nil }
        self.init(uuid: value)
    }

    /// ``init(parsing:)-(String)`` for a slice of a string.
    public init?(parsing text: Substring) {
        self.init(parsing: String(text))
    }
}

enum UUIDText {
    static let digits: [UInt8] = Array("0123456789abcdef".utf8)

    /// The 16 bytes written in `text`, or nil unless it is exactly the 36-character form.
    static func parse(_ text: UnsafeBufferPointer<UInt8>) -> uuid_t? {
        guard text.count == 36 else { return nil }
        var value: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        let parsed = withUnsafeMutableBytes(of: &value) { out -> Bool in
            var position = 0
            for index in 0..<16 {
                if index == 4 || index == 6 || index == 8 || index == 10 {
                    guard text[position] == UInt8(ascii: "-") else { return false }
                    position += 1
                }
                guard let high = nibble(text[position]), let low = nibble(text[position + 1]) else { return false }
                out[index] = high << 4 | low
                position += 2
            }
            return true
        }
        return parsed ? value : nil
    }

    @inline(__always)
    static func nibble(_ character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): character &- UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): character &- UInt8(ascii: "a") &+ 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): character &- UInt8(ascii: "A") &+ 10
        default: nil
        }
    }
}
