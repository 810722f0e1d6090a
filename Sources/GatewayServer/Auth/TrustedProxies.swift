#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SocialDomain

/// The reverse proxies whose `X-Forwarded-For` the server believes (`TRUSTED_PROXIES`: addresses
/// or CIDR ranges, comma-separated), so that per-address limits see the client behind a proxy
/// rather than the proxy itself.
///
/// The header is read only when the TCP peer is one of these proxies, never otherwise: anyone
/// else could write any address into it. It is read from the right (the hop nearest to us), past
/// the addresses that are themselves trusted proxies; the first other address is the client.
/// A malformed entry stops the walk, and the last trusted hop is taken as the client: a client
/// cannot choose its address by sending garbage.
///
/// ```swift
/// let proxies = try TrustedProxies(parsing: "10.0.0.0/8, 192.168.1.10")
/// proxies.clientAddress(peer: "10.0.0.5", forwardedFor: "203.0.113.7, 10.0.0.9")   // "203.0.113.7"
/// proxies.clientAddress(peer: "198.51.100.1", forwardedFor: "203.0.113.7")          // "198.51.100.1"
/// ```
public struct TrustedProxies: Sendable, Equatable {
    /// One address range: 16 bytes (IPv4 as IPv4-mapped IPv6) and the length of its prefix in bits.
    struct Range: Sendable, Equatable {
        var address: [UInt8]
        var prefixBits: Int

        func contains(_ other: [UInt8]) -> Bool {
            var bits = prefixBits
            var index = 0
            while bits > 0 {
                let mask: UInt8 = bits >= 8 ? 0xFF : ~(0xFF >> UInt8(bits))
                if address[index] & mask != other[index] & mask { return false }
                bits -= 8
                index += 1
            }
            return true
        }
    }

    let ranges: [Range]

    /// No proxy is trusted: the client is always the TCP peer.
    public static let none = TrustedProxies(ranges: [])

    init(ranges: [Range]) { self.ranges = ranges }

    /// Parses `TRUSTED_PROXIES`: `203.0.113.5, 10.0.0.0/8, 2001:db8::/32`.
    /// - Throws: ``ConfigurationError`` naming the entry that is not an address or range.
    public init(parsing text: String) throws {
        var ranges: [Range] = []
        for entry in text.split(separator: ",") {
            let item = entry.trimmingSpaces
            if item.isEmpty { continue }
            let parts = item.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
            guard let (bytes, isV4) = Self.parse(String(parts[0])) else {
                throw ConfigurationError("TRUSTED_PROXIES: \"\(item)\" is not an IP address or CIDR range")
            }
            var bits = 128
            if parts.count == 2 {
                let maximum = isV4 ? 32 : 128
                guard let given = Int(parts[1]), (0...maximum).contains(given) else {
                    throw ConfigurationError("TRUSTED_PROXIES: \"\(item)\" has a prefix length outside 0-\(maximum)")
                }
                bits = isV4 ? 96 + given : given
            }
            ranges.append(Range(address: bytes, prefixBits: bits))
        }
        self.init(ranges: ranges)
    }

    /// Whether any proxy is trusted.
    public var isEmpty: Bool { ranges.isEmpty }

    /// Whether `address` is one of the trusted proxies.
    public func isTrusted(_ address: String) -> Bool {
        guard let (bytes, _) = Self.parse(address) else { return false }
        return ranges.contains { $0.contains(bytes) }
    }

    /// The client's address: the peer's, unless the peer is a trusted proxy that forwarded for
    /// someone (see the type's documentation for how the header is read).
    public func clientAddress(peer: String?, forwardedFor: String?) -> String? {
        guard let peer, !ranges.isEmpty, let forwardedFor, isTrusted(peer) else { return peer }
        var client = peer
        for hop in forwardedFor.split(separator: ",").reversed() {
            let address = hop.trimmingSpaces
            guard Self.parse(address) != nil else { return client }
            client = address
            if !isTrusted(address) { return address }
        }
        return client
    }

    /// The 16 bytes of an IPv4 or IPv6 address, and whether it was IPv4 (`inet_pton`).
    static func parse(_ text: String) -> ([UInt8], Bool)? {
        guard !text.isEmpty, text.utf8.count <= 64 else { return nil }
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            let value = UInt32(bigEndian: v4.s_addr)
            return ([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF,
                     UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)], true)
        }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, text, &v6) == 1 else { return nil }
        let bytes = withUnsafeBytes(of: &v6) { Array($0) }
        return (bytes, false)
    }
}
