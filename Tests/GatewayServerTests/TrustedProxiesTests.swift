import GatewayServer
import SocialDomain
import Testing

/// `TRUSTED_PROXIES` (issue 37): which address a per-address limit counts.
@Suite("TRUSTED_PROXIES: X-Forwarded-For from trusted peers only")
struct TrustedProxiesTests {
    let proxies = try! TrustedProxies(parsing: "10.0.0.0/8, 192.168.1.10, 2001:db8::/32")

    @Test("an untrusted peer is the client, whatever X-Forwarded-For says")
    func untrustedPeer() {
        #expect(proxies.clientAddress(peer: "198.51.100.1", forwardedFor: "203.0.113.7") == "198.51.100.1")
        #expect(TrustedProxies.none.clientAddress(peer: "10.0.0.1", forwardedFor: "203.0.113.7") == "10.0.0.1")
    }

    @Test("from a trusted peer, the nearest untrusted hop, read right to left past trusted ones")
    func trustedChain() {
        #expect(proxies.clientAddress(peer: "10.1.2.3", forwardedFor: "203.0.113.7") == "203.0.113.7")
        // The client wrote a fake first entry; the proxies appended what they saw.
        #expect(proxies.clientAddress(peer: "10.1.2.3", forwardedFor: "1.2.3.4, 203.0.113.7, 192.168.1.10") == "203.0.113.7")
        #expect(proxies.clientAddress(peer: "2001:db8::1", forwardedFor: "2001:db9::5") == "2001:db9::5")
        // IPv4-mapped IPv6 peers match IPv4 ranges.
        #expect(proxies.clientAddress(peer: "::ffff:10.0.0.9", forwardedFor: "203.0.113.8") == "203.0.113.8")
        // Every hop trusted: the leftmost.
        #expect(proxies.clientAddress(peer: "10.0.0.1", forwardedFor: "10.0.0.2, 10.0.0.3") == "10.0.0.2")
        // No header: the proxy itself.
        #expect(proxies.clientAddress(peer: "10.0.0.1", forwardedFor: nil) == "10.0.0.1")
    }

    @Test("a malformed entry ends the walk at the last trusted hop, so garbage cannot choose an address")
    func malformedEntry() {
        #expect(proxies.clientAddress(peer: "10.0.0.1", forwardedFor: "203.0.113.7, not-an-ip") == "10.0.0.1")
        #expect(proxies.clientAddress(peer: "10.0.0.1", forwardedFor: "203.0.113.7, garbage, 10.0.0.2") == "10.0.0.2")
    }

    @Test("a bad TRUSTED_PROXIES entry is refused at start with the entry named")
    func badConfiguration() throws {
        #expect(throws: ConfigurationError("TRUSTED_PROXIES: \"10.0.0.0/33\" has a prefix length outside 0-32")) {
            _ = try TrustedProxies(parsing: "10.0.0.0/33")
        }
        #expect(throws: ConfigurationError("TRUSTED_PROXIES: \"proxy.local\" is not an IP address or CIDR range")) {
            _ = try ServerConfiguration.fromEnvironment(["TRUSTED_PROXIES": "proxy.local"])
        }
        #expect(try ServerConfiguration.fromEnvironment(["TRUSTED_PROXIES": "127.0.0.1"]).trustedProxies.isTrusted("127.0.0.1"))
    }
}
