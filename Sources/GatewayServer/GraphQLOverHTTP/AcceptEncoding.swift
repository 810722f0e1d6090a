/// A content coding the gateway can send (RFC 9110 §8.4.1): `gzip`, or `deflate` (a zlib
/// stream, RFC 9110 §8.4.1.2). No `br`: no well-kept Swift or C brotli library is in the package
/// mirror this project builds from.
public enum ContentCoding: String, Sendable, Hashable {
    case gzip
    case deflate

    /// The `Content-Encoding` value.
    public var headerValue: String { rawValue }
}

/// A request's `Accept-Encoding` (RFC 9110 §12.5.3), reduced to what the gateway can send: the
/// weight of `gzip`, `deflate` and `identity`.
///
/// A listed coding takes its own `q`; one not listed takes the `q` of `*` if there is one, else 0
/// (`identity` else 1: it is acceptable unless `identity;q=0`, or `*;q=0` without it, says not).
/// `x-gzip` is `gzip` (§8.4.1.3). A member whose `q` is not a qvalue (§12.4.2) is ignored.
///
/// ```swift
/// let coding = AcceptEncoding(request.headers[.acceptEncoding]).preferred   // .gzip, .deflate or nil
/// ```
public struct AcceptEncoding: Sendable, Hashable {
    /// The weights, from 0 (not acceptable) to 1000 (q=1), in thousandths as qvalues are written.
    public var gzip: Int
    public var deflate: Int
    public var identity: Int
    /// Whether `identity` was listed by name (then its weight is the client's own preference,
    /// compared with the codings'; otherwise it is only "not refused").
    var identityListed: Bool

    /// What a request without the header accepts: identity only. RFC 9110 lets a server send any
    /// coding then, but a client that sends no header may not decode one, and every client that
    /// can (browsers, OkHttp, URLSession, curl --compressed) sends it.
    public static let identityOnly = AcceptEncoding(gzip: 0, deflate: 0, identity: 1000, identityListed: false)

    init(gzip: Int, deflate: Int, identity: Int, identityListed: Bool) {
        self.gzip = gzip
        self.deflate = deflate
        self.identity = identity
        self.identityListed = identityListed
    }

    /// Parses the header's value; nil means no header.
    public init(_ header: String?) {
        guard let header else {
            self = .identityOnly
            return
        }
        // What clients send on nearly every request, without splitting (as MediaType does).
        switch header {
        case "gzip", "gzip, deflate", "gzip, deflate, br", "gzip, deflate, br, zstd", "deflate, gzip", "br, gzip, deflate":
            self.init(gzip: 1000, deflate: header == "gzip" ? 0 : 1000, identity: 1000, identityListed: false)
            return
        default: break
        }
        var gzip: Int?, deflate: Int?, identity: Int?, any: Int?
        for member in header.split(separator: ",") {
            let parts = member.split(separator: ";")
            guard let name = parts.first?.trimmingSpaces.lowercased(), !name.isEmpty else { continue }
            var weight = 1000
            var valid = true
            for parameter in parts.dropFirst() {
                let text = parameter.trimmingSpaces
                guard text.count >= 2, text.prefix(2).lowercased() == "q=" else { continue }
                if let parsed = Self.qvalue(text.dropFirst(2)) { weight = parsed } else { valid = false }
            }
            guard valid else { continue }
            switch name {
            case "gzip", "x-gzip": gzip = weight
            case "deflate": deflate = weight
            case "identity": identity = weight
            case "*": any = weight
            default: continue
            }
        }
        self.init(
            gzip: gzip ?? any ?? 0, deflate: deflate ?? any ?? 0, identity: identity ?? any.map { $0 > 0 ? 1000 : 0 } ?? 1000,
            identityListed: identity != nil)
    }

    /// A qvalue (RFC 9110 §12.4.2) in thousandths: `0`, `0.5`, `0.123`, `1`, `1.000`; nil otherwise.
    static func qvalue(_ text: Substring) -> Int? {
        let bytes = Array(text.utf8)
        guard let first = bytes.first, first == UInt8(ascii: "0") || first == UInt8(ascii: "1") else { return nil }
        var value = Int(first - UInt8(ascii: "0")) * 1000
        guard bytes.count > 1 else { return value }
        guard bytes[1] == UInt8(ascii: "."), bytes.count <= 5 else { return nil }
        var scale = 100
        for digit in bytes[2...] {
            guard digit >= UInt8(ascii: "0"), digit <= UInt8(ascii: "9") else { return nil }
            value += Int(digit - UInt8(ascii: "0")) * scale
            scale /= 10
        }
        return value <= 1000 ? value : nil
    }

    /// The coding to send, or nil for identity: the acceptable one of higher weight, `gzip` on a
    /// tie (every client that takes deflate takes gzip, and some deflate decoders expect raw
    /// deflate instead of zlib); nil when neither is acceptable or `identity`, listed by name,
    /// weighs more than both.
    public var preferred: ContentCoding? {
        guard gzip > 0 || deflate > 0 else { return nil }
        let best: (ContentCoding, Int) = gzip >= deflate ? (.gzip, gzip) : (.deflate, deflate)
        if identityListed, identity > best.1 { return nil }
        return best.0
    }

    /// Whether an uncompressed answer is acceptable (`identity;q=0` says not).
    public var acceptsIdentity: Bool { identity > 0 }
}
