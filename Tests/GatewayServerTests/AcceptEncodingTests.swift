import GatewayServer
import Testing

/// `Accept-Encoding` (RFC 9110 §12.5.3) reduced to the codings the gateway sends.
@Suite("Accept-Encoding negotiation")
struct AcceptEncodingTests {
    @Test("§12.5.3 gzip alone (OkHttp's header) and the browsers' lists choose gzip")
    func gzipAlone() {
        #expect(AcceptEncoding("gzip").preferred == .gzip)
        #expect(AcceptEncoding("gzip, deflate, br, zstd").preferred == .gzip)
        #expect(AcceptEncoding("br;q=1.0, gzip;q=0.8, *;q=0.1").preferred == .gzip)
    }

    @Test("§12.5.3 equal weights prefer gzip; a higher weight wins; q=0 means not acceptable")
    func weights() {
        #expect(AcceptEncoding("deflate, gzip").preferred == .gzip)
        #expect(AcceptEncoding("deflate;q=0.5, gzip;q=0.5").preferred == .gzip)
        #expect(AcceptEncoding("gzip;q=0.4, deflate;q=0.8").preferred == .deflate)
        #expect(AcceptEncoding("deflate").preferred == .deflate)
        #expect(AcceptEncoding("gzip;q=0, deflate").preferred == .deflate)
        #expect(AcceptEncoding("gzip;q=0").preferred == nil)
        #expect(AcceptEncoding("gzip;q=0, deflate;q=0.000").preferred == nil)
    }

    @Test("§12.5.3 * stands for every coding not listed, identity included; *;q=0 refuses identity unless listed")
    func wildcard() {
        #expect(AcceptEncoding("*").preferred == .gzip)
        #expect(AcceptEncoding("*, gzip;q=0").preferred == .deflate)
        let none = AcceptEncoding("*;q=0")
        #expect(none.preferred == nil)
        #expect(!none.acceptsIdentity)
        #expect(AcceptEncoding("*;q=0, identity").acceptsIdentity)
        #expect(AcceptEncoding("*;q=0, gzip").preferred == .gzip)
    }

    @Test("§12.5.3 identity;q=0 refuses an uncompressed answer; identity listed with more weight keeps answers uncompressed")
    func identity() {
        let refused = AcceptEncoding("gzip, identity;q=0")
        #expect(refused.preferred == .gzip)
        #expect(!refused.acceptsIdentity)
        #expect(AcceptEncoding("identity;q=0").preferred == nil)
        #expect(AcceptEncoding("identity, gzip;q=0.5").preferred == nil)
        #expect(AcceptEncoding("identity;q=0.5, gzip").preferred == .gzip)
        // Not listed, identity is acceptable but does not outweigh a listed coding.
        #expect(AcceptEncoding("gzip;q=0.5").preferred == .gzip)
        #expect(AcceptEncoding("gzip;q=0.5").acceptsIdentity)
    }

    @Test("no header, an empty one or only unknown codings: identity (§12.5.3)")
    func identityOnly() {
        #expect(AcceptEncoding(nil).preferred == nil)
        #expect(AcceptEncoding(nil).acceptsIdentity)
        #expect(AcceptEncoding("").preferred == nil)
        #expect(AcceptEncoding("").acceptsIdentity)
        #expect(AcceptEncoding("br, zstd").preferred == nil)
    }

    @Test("§8.4.1.3 x-gzip is gzip; coding names and q are case-insensitive, spaces allowed")
    func namesAndSpaces() {
        #expect(AcceptEncoding("x-gzip").preferred == .gzip)
        #expect(AcceptEncoding("GZip").preferred == .gzip)
        #expect(AcceptEncoding(" deflate ; Q=0.9 ,gzip;q=0.3").preferred == .deflate)
    }

    @Test("§12.4.2 a member whose q is not a qvalue is ignored")
    func malformedQ() {
        #expect(AcceptEncoding("gzip;q=2").preferred == nil)
        #expect(AcceptEncoding("gzip;q=0.1234").preferred == nil)
        #expect(AcceptEncoding("gzip;q=1.5, deflate").preferred == .deflate)
        #expect(AcceptEncoding("gzip;q=abc").preferred == nil)
        #expect(AcceptEncoding("gzip;q=1.000").preferred == .gzip)
        #expect(AcceptEncoding("gzip;q=0.001").gzip == 1)
        #expect(AcceptEncoding("gzip;q=0.5").gzip == 500)
    }
}
