import Testing

@Suite("§5.5.2.2 Fragment Spreads Must Not Form Cycles")
struct NoFragmentCyclesRuleTests {
    @Test("§5.5.2.2 a fragment spread twice, without a cycle, is valid")
    func noCycle() {
        #expect(validate("{ dog { ...A ...A } } fragment A on Dog { ...B ...B } fragment B on Dog { name }").isEmpty)
    }

    @Test("§5.5.2.2 counter-example: two fragments spreading each other are rejected")
    func infiniteSpread() {
        let query = """
            {
              dog {
                ...nameFragment
              }
            }

            fragment nameFragment on Dog {
              name
              ...barkVolumeFragment
            }

            fragment barkVolumeFragment on Dog {
              barkVolume
              ...nameFragment
            }
            """
        #expect(
            validate(query) == [
                error("Cannot spread fragment \"nameFragment\" within itself via \"barkVolumeFragment\".", (9, 3), (14, 3))
            ])
    }

    @Test("§5.5.2.2 counter-example: a cycle through nested fields is rejected")
    func cyclicData() {
        let query = """
            {
              dog {
                ...dogFragment
              }
            }

            fragment dogFragment on Dog {
              name
              owner {
                ...ownerFragment
              }
            }

            fragment ownerFragment on Human {
              name
              pets {
                ...dogFragment
              }
            }
            """
        #expect(
            validate(query) == [
                error("Cannot spread fragment \"dogFragment\" within itself via \"ownerFragment\".", (10, 5), (17, 5))
            ])
    }

    @Test("§5.5.2.2 a fragment spreading itself is rejected")
    func selfSpread() {
        #expect(
            validate("{ dog { ...F } } fragment F on Dog { name ...F }") == [
                error("Cannot spread fragment \"F\" within itself.", (1, 43))
            ])
    }
}
