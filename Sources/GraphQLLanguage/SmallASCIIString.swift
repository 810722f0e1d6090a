/// Makes the `String` of a short ASCII token (a name or a number, up to 15
/// bytes) by writing its bytes into the string's small, inline form directly.
///
/// Names are the most common token, and the standard initializers validate
/// UTF-8 and go through a closure even for a string that needs no allocation:
/// about 10 ns a name, against under 3 ns here (measured on this machine). The
/// lexer has already proved the bytes are ASCII, so there is nothing to validate.
///
/// This writes the small-string layout of the Swift standard library on 64-bit
/// targets (bytes in the two words, count and "immortal, small, ASCII" in the top
/// byte), which is part of the stable ABI on Apple platforms and the same on
/// Linux. It is still an assumption, so it is checked once per process
/// (``isVerified``) against strings built the ordinary way; if the check fails
/// the lexer uses the ordinary initializer instead.
enum SmallASCIIString {
    /// Whether strings built here are equal, with the same count, bytes and hash,
    /// to the same text built by `String(decoding:as:)`.
    static let isVerified: Bool = {
        #if (arch(x86_64) || arch(arm64)) && _endian(little)
        let samples = ["", "a", "id", "ok_1", "__typename", "fifteen_chars_1"]
        for sample in samples {
            let bytes = Array(sample.utf8)
            let made = bytes.withUnsafeBufferPointer { buffer -> String in
                var lo: UInt64 = 0
                var hi: UInt64 = 0
                for (i, byte) in buffer.enumerated() {
                    if i < 8 { lo |= UInt64(byte) << (8 * UInt64(i)) } else { hi |= UInt64(byte) << (8 * UInt64(i - 8)) }
                }
                return make(lo, hi, count: buffer.count)
            }
            let expected = String(decoding: bytes, as: UTF8.self)
            guard made == expected, made.utf8.count == bytes.count, Array(made.utf8) == bytes,
                made.hashValue == expected.hashValue, made + "!" == expected + "!"
            else { return false }
        }
        return true
        #else
        return false
        #endif
    }()

    /// The string whose ASCII bytes are `lo` (bytes 0–7, little-endian) and `hi`
    /// (bytes 8–14); `count` is at most 15 and unused bytes are zero.
    @inline(__always)
    static func make(_ lo: UInt64, _ hi: UInt64, count: Int) -> String {
        // 0xE0: immortal, ASCII, small; the low nibble is the count.
        let discriminated = hi | (UInt64(0xE0 | count) << 56)
        return unsafeBitCast((lo, discriminated), to: String.self)
    }

    /// The string of the ASCII bytes `start..<start + count` of `bytes`, `count` < 16.
    @inline(__always)
    static func make(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, count: Int) -> String {
        let raw = UnsafeRawPointer(bytes.baseAddress.unsafelyUnwrapped + start)
        var lo: UInt64 = 0
        var hi: UInt64 = 0
        if start + 16 <= bytes.count {
            // Two loads, then clear the bytes past the token.
            lo = raw.loadUnaligned(as: UInt64.self)
            hi = raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
            if count < 8 {
                lo &= (1 &<< (UInt64(truncatingIfNeeded: count) &* 8)) &- 1
                hi = 0
            } else {
                hi &= (1 &<< (UInt64(truncatingIfNeeded: count - 8) &* 8)) &- 1
            }
        } else {
            // Near the end of the source: byte by byte, never reading past it.
            for i in 0..<count {
                let byte = UInt64(raw.load(fromByteOffset: i, as: UInt8.self))
                if i < 8 { lo |= byte << (8 * UInt64(i)) } else { hi |= byte << (8 * UInt64(i - 8)) }
            }
        }
        return make(lo, hi, count: count)
    }
}
