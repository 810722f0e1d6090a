import Foundation
import SocialDomain
import Testing

/// Per-address limits count an IPv6 client with its /64 and an IPv4 one alone (issue 51, item 6).
@Suite("Address groups for per-address limits")
struct AddressGroupTests {
    @Test("issue 51: IPv4 addresses stay per address; an IPv4-mapped IPv6 address is its IPv4 address")
    func ipv4() {
        #expect(AddressGroup.key("127.0.0.2") == "127.0.0.2")
        #expect(AddressGroup.key("127.0.0.3") == "127.0.0.3")
        #expect(AddressGroup.key("203.0.113.7") == "203.0.113.7")
        #expect(AddressGroup.key("::ffff:203.0.113.7") == "203.0.113.7")
        #expect(AddressGroup.key("::FFFF:cb00:7107") == "203.0.113.7")
        #expect(AddressGroup.key("[::ffff:127.0.0.1]") == "127.0.0.1")
        #expect(AddressGroup.key(nil) == nil)
    }

    @Test("issue 51: IPv6 addresses count with their /64, however they are written")
    func ipv6() {
        let key = "2001:db8:a:b::/64"
        for address in [
            "2001:db8:a:b::1", "2001:db8:a:b:ffff:ffff:ffff:ffff", "2001:0DB8:000a:000B:0:0:0:2", "[2001:db8:a:b::3]",
            "2001:db8:a:b::4%eth0", "2001:db8:a:b:1:2:1.2.3.4",
        ] {
            #expect(AddressGroup.key(address) == key, "\(address)")
        }
        #expect(AddressGroup.key("2001:db8:a:c::1") == "2001:db8:a:c::/64")
        #expect(AddressGroup.key("::1") == "0:0:0:0::/64")
        #expect(AddressGroup.key("fe80::1%lo") == "fe80:0:0:0::/64")
    }

    @Test("what is not an address is its own key: nothing is merged by mistake")
    func notAddresses() {
        for text in ["unknown", "2001:db8::a::1", "2001:db8:1:2:3:4:5:6:7", "12345::", "1.2.3", "::ffff:1.2.3.256", "g::1"] {
            #expect(AddressGroup.key(text) == text.lowercased(), "\(text)")
        }
    }
}
