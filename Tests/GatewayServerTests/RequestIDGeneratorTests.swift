import Foundation
import Testing
@testable import GatewayServer

/// Generated request ids: unique, and shaped as version 4 UUIDs for log tools.
@Suite("Request ids")
struct RequestIDGeneratorTests {
    @Test("ids are distinct, lower-case version 4 UUIDs, also across the counter's carry into the base's bytes")
    func distinctUUIDShaped() throws {
        // A base whose low bytes are near the top of the 62 counting bits: the count carries.
        let base = try #require(UUID(uuidString: "12345678-9ABC-4DEF-BFFF-FFFFFFFFFFF0"))
        let generator = RequestIDGenerator(base: base)
        var seen = Set<String>()
        for _ in 0..<10_000 {
            let id = generator.next()
            let uuid = try #require(UUID(uuidString: id))
            #expect(id == id.lowercased())
            #expect(uuid.uuid.6 >> 4 == 4, "version")
            #expect(uuid.uuid.8 >> 6 == 0b10, "variant")
            #expect(id.hasPrefix("12345678-9abc-4def-"))
            seen.insert(id)
        }
        #expect(seen.count == 10_000)
    }

    @Test("two processes' generators do not start on the same ids")
    func randomBase() {
        #expect(RequestIDGenerator().next() != RequestIDGenerator().next())
    }
}
