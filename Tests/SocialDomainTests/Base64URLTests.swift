import Foundation
import Testing
@testable import SocialDomain

/// The one base64url of the code base (cursors, JWT segments, the fake's tokens).
@Suite("Base64URL (RFC 4648 §5, unpadded)")
struct Base64URLTests {
    @Test("encoding is Foundation's base64 with the URL alphabet and no padding (RFC 4648 §5), for every length")
    func matchesFoundation() {
        var generator = SystemRandomNumberGenerator()
        for length in 0..<200 {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let expected = Data(bytes).base64EncodedString()
                .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
                .replacingOccurrences(of: "=", with: "")
            #expect(Base64URL.encode(bytes) == expected)
            #expect(Base64URL.decode(expected) == bytes)
        }
    }

    @Test("RFC 4648 §10 test vectors round-trip without padding",
          arguments: [("", ""), ("f", "Zg"), ("fo", "Zm8"), ("foo", "Zm9v"), ("foob", "Zm9vYg"), ("fooba", "Zm9vYmE"), ("foobar", "Zm9vYmFy")])
    func vectors(plain: String, encoded: String) {
        #expect(Base64URL.encode(Array(plain.utf8)) == encoded)
        #expect(Base64URL.decode(encoded) == Array(plain.utf8))
    }

    @Test("the URL alphabet: - and _ where base64 has + and /; +, /, = and a length of 4n+1 are refused")
    func alphabet() {
        #expect(Base64URL.encode([0xFB, 0xFF]) == "-_8")
        #expect(Base64URL.decode("-_8") == [0xFB, 0xFF])
        for bad in ["+/8", "Zg==", "Zm9vY", "Zm 9v"] { #expect(Base64URL.decode(bad) == nil, "\(bad)") }
    }
}
