import Testing
@testable import ResponseCache
import SocialGateway

@Suite("CacheKey")
struct CacheKeyTests {
    @Test("equal parts give equal digests of 64 lower-case hex digits")
    func stableDigest() {
        let a = key("{ a }", name: "A", variables: "{\"x\":1}", scope: .viewer("u1"))
        let b = key("{ a }", name: "A", variables: "{\"x\":1}", scope: .viewer("u1"))
        #expect(a.digest == b.digest)
        #expect(a == b)
        #expect(a.digest.count == 64)
        #expect(a.digest.allSatisfy { "0123456789abcdef".contains($0) })
    }

    @Test("each part changes the digest: document, name, variables, scope")
    func everyPartCounts() {
        let base = key("{ a }", name: "A", variables: "{}", scope: .shared)
        let others = [
            key("{ b }", name: "A", variables: "{}", scope: .shared),
            key("{ a }", name: "B", variables: "{}", scope: .shared),
            key("{ a }", name: "A", variables: "{\"x\":1}", scope: .shared),
            key("{ a }", name: "A", variables: "{}", scope: .viewer("u1")),
        ]
        for other in others {
            #expect(other.digest != base.digest)
        }
    }

    @Test("two viewers' keys differ, and a viewer named PUBLIC is not the shared scope")
    func scopesDiffer() {
        #expect(key(scope: .viewer("u1")).digest != key(scope: .viewer("u2")).digest)
        #expect(key(scope: .viewer("PUBLIC")).digest != key(scope: .shared).digest)
    }

    @Test("parts are length-prefixed: moving text between parts changes the digest")
    func noConcatenationCollision() {
        let a = key("ab", name: "c", variables: "{}")
        let b = key("a", name: "bc", variables: "{}")
        #expect(a.digest != b.digest)
        let c = key("{}", name: nil, variables: "x{}")
        let d = key("{}x", name: nil, variables: "{}")
        #expect(c.digest != d.digest)
    }

    @Test("a missing operation name differs from an empty one")
    func nilNameIsNotEmpty() {
        #expect(key(name: nil).digest != key(name: "").digest)
    }
}
