/// Writes JSON as UTF-8 bytes: compact, keys in their order, `/` not escaped,
/// non-ASCII written raw (RFC 8259). Our own writer, so the response costs one
/// pass and no Foundation round trip.
public struct JSONWriter {
    public private(set) var bytes: [UInt8] = []

    public init(capacity: Int = 1024) { bytes.reserveCapacity(capacity) }

    /// The JSON text of `value`.
    public static func string(_ value: JSONValue) -> String {
        var writer = JSONWriter()
        writer.write(value)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    public mutating func write(_ value: JSONValue) {
        switch value {
        case .null: writeRaw("null")
        case .bool(let b): writeRaw(b ? "true" : "false")
        case .int(let i): writeInt(i)
        case .double(let d): writeDouble(d)
        case .string(let s): writeString(s)
        case .array(let items):
            bytes.append(UInt8(ascii: "["))
            for (i, item) in items.enumerated() {
                if i > 0 { bytes.append(UInt8(ascii: ",")) }
                write(item)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let object):
            bytes.append(UInt8(ascii: "{"))
            var first = true
            for (key, item) in object {
                if !first { bytes.append(UInt8(ascii: ",")) }
                first = false
                writeString(key)
                bytes.append(UInt8(ascii: ":"))
                write(item)
            }
            bytes.append(UInt8(ascii: "}"))
        }
    }

    @inline(__always)
    public mutating func writeRaw(_ text: StaticString) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    @inline(__always)
    public mutating func writeByte(_ byte: UInt8) { bytes.append(byte) }

    /// Bytes that are already JSON text (a pre-encoded key, a fragment written earlier).
    @inline(__always)
    mutating func writeJSONBytes(_ text: ArraySlice<UInt8>) { bytes.append(contentsOf: text) }

    /// Bytes that are already JSON text, from memory the caller keeps alive.
    @inline(__always)
    mutating func writeJSONBytes(_ text: UnsafeBufferPointer<UInt8>) { bytes.append(contentsOf: text) }

    /// How many bytes have been written: a mark to ``truncate(to:)`` back to.
    var count: Int { bytes.count }

    /// Drops what was written after `mark`, so a value that turned out to be null
    /// can be replaced by `null` (§6.4.4) without having been built as a tree first.
    mutating func truncate(to mark: Int) { bytes.removeSubrange(mark...) }

    public mutating func writeInt(_ value: Int) {
        if value >= 0 && value < 10 {
            bytes.append(UInt8(48 + value))
            return
        }
        var v = value.magnitude
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                     UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        withUnsafeMutableBytes(of: &digits) { buffer in
            repeat {
                buffer[19 - count] = UInt8(48 + v % 10)
                v /= 10
                count += 1
            } while v > 0
            if value < 0 { bytes.append(UInt8(ascii: "-")) }
            bytes.append(contentsOf: buffer[(20 - count)...])
        }
    }

    /// Doubles print as JavaScript does for the common cases: integral values
    /// without a fraction (`1.0` -> `1`), others in Swift's shortest round-trip form.
    public mutating func writeDouble(_ value: Double) {
        guard value.isFinite else {
            writeRaw("null")
            return
        }
        if value == value.rounded(), abs(value) < 1e15 {
            writeInt(Int(value))
            return
        }
        var text = "\(value)"
        // Swift writes 1e-07 where JavaScript writes 1e-7; drop the exponent's padding.
        if let e = text.firstIndex(of: "e") {
            var exponent = String(text[text.index(after: e)...])
            let sign = exponent.hasPrefix("-") ? "-" : "+"
            exponent = String(exponent.drop { $0 == "-" || $0 == "+" || $0 == "0" })
            text = String(text[..<e]) + "e" + sign + (exponent.isEmpty ? "0" : exponent)
        }
        bytes.append(contentsOf: text.utf8)
    }

    public mutating func writeString(_ string: String) {
        bytes.append(UInt8(ascii: "\""))
        var utf8 = string
        utf8.withUTF8 { buffer in
            var chunkStart = 0
            for i in 0..<buffer.count {
                let c = buffer[i]
                guard c < 0x20 || c == 0x22 || c == 0x5C else { continue }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[chunkStart..<i]))
                chunkStart = i + 1
                switch c {
                case 0x22: bytes.append(0x5C); bytes.append(0x22)
                case 0x5C: bytes.append(0x5C); bytes.append(0x5C)
                case 0x0A: bytes.append(0x5C); bytes.append(UInt8(ascii: "n"))
                case 0x0D: bytes.append(0x5C); bytes.append(UInt8(ascii: "r"))
                case 0x09: bytes.append(0x5C); bytes.append(UInt8(ascii: "t"))
                case 0x08: bytes.append(0x5C); bytes.append(UInt8(ascii: "b"))
                case 0x0C: bytes.append(0x5C); bytes.append(UInt8(ascii: "f"))
                default:
                    let hex: [UInt8] = Array("0123456789abcdef".utf8)
                    bytes.append(contentsOf: [0x5C, UInt8(ascii: "u"), 0x30, 0x30, hex[Int(c >> 4)], hex[Int(c & 0xF)]])
                }
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[chunkStart...]))
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
