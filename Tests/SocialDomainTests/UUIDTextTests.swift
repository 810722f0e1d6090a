import Foundation
import SocialDomain
import Testing

@Suite("UUID text without sscanf")
struct UUIDTextTests {
    @Test("lowercased and parsing agree with Foundation on random ids, in both cases")
    func agreesWithFoundation() {
        for _ in 0..<2_000 {
            let id = UUID()
            #expect(id.lowercased == id.uuidString.lowercased())
            #expect(UUID(parsing: id.lowercased) == id)
            #expect(UUID(parsing: id.uuidString) == id)
        }
        let edges = UUID(uuidString: "00000000-0000-0000-0000-000000000000")!
        #expect(edges.lowercased == "00000000-0000-0000-0000-000000000000")
        let ones = UUID(uuidString: "FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF")!
        #expect(ones.lowercased == "ffffffff-ffff-ffff-ffff-ffffffffffff")
    }

    @Test("anything but the 36-character form is refused, as UUID(uuidString:) refuses it",
          arguments: [
              "", "a11ce000-0000-4000-8000-00000000000", "a11ce000-0000-4000-8000-0000000000011",
              "a11ce000-0000-4000-8000_000000000001", "a11ce0000-000-4000-8000-000000000001",
              "g11ce000-0000-4000-8000-000000000001", "a11ce000-0000-4000-8000-00000000000 ",
              "{a11ce000-0000-4000-8000-000000000001}", "a11ce00000004000800000000000000001xx",
              "a11ce000-0000-4000-8000-00000000000é",
          ])
    func refusesOtherForms(_ text: String) {
        #expect(UUID(parsing: text) == nil)
        #expect(UUID(uuidString: text) == nil)
    }

    @Test("a sign where a digit belongs is refused (Foundation's sscanf reads \"-1\" as the byte ff)")
    func refusesSigns() {
        #expect(UUID(parsing: "-11ce000-0000-4000-8000-000000000001") == nil)
        #expect(UUID(parsing: "a11ce000-0000-4000-8000-+00000000001") == nil)
    }
}
