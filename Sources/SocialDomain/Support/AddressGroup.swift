import Foundation

/// The key a per-address limit counts a client under (issue 51): an IPv4 address is its own
/// key, an IPv6 address counts with its whole /64.
///
/// Why the /64: an IPv6 subscriber is routinely given a /64 (or more) and picks the low 64 bits
/// itself, so per address one machine could count as 2^64 callers, each with its own five
/// sign-ups a minute and its own read bucket. A /64 is what one subscriber (one home, one server)
/// holds; the cost is that hosts sharing one /64 share a limit, as hosts behind one IPv4 NAT
/// share one today. An IPv4-mapped IPv6 address (`::ffff:203.0.113.7`, how a dual-stack socket
/// shows an IPv4 peer) is the IPv4 address it maps. Brackets and a zone (`%eth0`) are ignored;
/// what is not an address at all is its own key, lowercased.
///
/// Used by the anonymous callers' rate-limit bucket and by the account limits keyed by address
/// (sign-ups and reset requests, sign-ins, resets tried).
///
/// ```swift
/// AddressGroup.key("203.0.113.7")                   // "203.0.113.7"
/// AddressGroup.key("2001:db8:a:b:1:2:3:4")          // "2001:db8:a:b::/64"
/// AddressGroup.key("::ffff:203.0.113.7")            // "203.0.113.7"
/// ```
public enum AddressGroup {
    /// The limit key of `address`; nil stays nil (the address is unknown).
    public static func key(_ address: String?) -> String? {
        guard var text = address else { return nil }
        if text.hasPrefix("["), text.hasSuffix("]") { text = String(text.dropFirst().dropLast()) }
        if let zone = text.firstIndex(of: "%") { text = String(text[..<zone]) }
        guard text.contains(":"), let groups = ipv6Groups(text) else { return text.lowercased() }
        // ::ffff:a.b.c.d (or its hex form): the IPv4 address.
        if groups[0..<5].allSatisfy({ $0 == 0 }) && groups[5] == 0xFFFF {
            return "\(groups[6] >> 8).\(groups[6] & 0xFF).\(groups[7] >> 8).\(groups[7] & 0xFF)"
        }
        return groups[0..<4].map { String($0, radix: 16) }.joined(separator: ":") + "::/64"
    }

    /// The eight 16-bit groups of an IPv6 address in text (RFC 4291 §2.2: `::` once, an IPv4
    /// dotted quad in the last 32 bits), or nil when it is not one.
    static func ipv6Groups(_ text: String) -> [UInt16]? {
        guard text.utf8.count <= 45 else { return nil }
        let halves = text.components(separatedBy: "::")
        guard halves.count <= 2 else { return nil }
        func parse(_ part: String, allowsIPv4: Bool) -> [UInt16]? {
            if part.isEmpty { return [] }
            let pieces = part.split(separator: ":", omittingEmptySubsequences: false)
            var groups: [UInt16] = []
            for (index, piece) in pieces.enumerated() {
                if allowsIPv4 && index == pieces.count - 1 && piece.contains(".") {
                    guard let quad = ipv4(piece) else { return nil }
                    groups.append(UInt16(quad >> 16))
                    groups.append(UInt16(quad & 0xFFFF))
                } else {
                    guard (1...4).contains(piece.utf8.count), let value = UInt16(piece, radix: 16) else { return nil }
                    groups.append(value)
                }
            }
            return groups
        }
        if halves.count == 1 {
            guard let groups = parse(halves[0], allowsIPv4: true), groups.count == 8 else { return nil }
            return groups
        }
        guard let head = parse(halves[0], allowsIPv4: false), let tail = parse(halves[1], allowsIPv4: true),
            head.count + tail.count <= 7
        else { return nil }
        return head + Array(repeating: 0, count: 8 - head.count - tail.count) + tail
    }

    /// A dotted quad's 32 bits.
    static func ipv4(_ text: Substring) -> UInt32? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return nil }
        var value: UInt32 = 0
        for part in parts {
            guard (1...3).contains(part.utf8.count), let byte = UInt8(part) else { return nil }
            value = value << 8 | UInt32(byte)
        }
        return value
    }
}
