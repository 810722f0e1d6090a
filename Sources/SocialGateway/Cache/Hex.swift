import Crypto
import Foundation

/// Lower-case hexadecimal SHA-256, the one digest format of this module (keys, ETags, APQ hashes).
enum Hex {
    private static let digits: [UInt8] = Array("0123456789abcdef".utf8)

    /// Lower-case hex of `bytes`.
    static func encode<S: Sequence>(_ bytes: S) -> String where S.Element == UInt8 {
        var out: [UInt8] = []
        out.reserveCapacity(64)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Lower-case hex SHA-256 of `bytes`.
    static func sha256<D: DataProtocol>(_ bytes: D) -> String {
        encode(SHA256.hash(data: bytes))
    }

    /// Lower-case hex SHA-256 of the UTF-8 bytes of `text`.
    static func sha256(_ text: String) -> String {
        sha256(Array(text.utf8))
    }

    /// Whether `text` is exactly 64 hex digits (either case), the shape of a SHA-256 hash.
    static func isSHA256(_ text: String) -> Bool {
        text.utf8.count == 64 && text.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x61 && byte <= 0x66) || (byte >= 0x41 && byte <= 0x46)
        }
    }
}
