import Testing

@Suite("§5.5.1.4 Fragments Must Be Used")
struct NoUnusedFragmentsRuleTests {
    @Test("§5.5.1.4 fragments used directly or through other fragments are valid")
    func used() {
        #expect(validate("{ dog { ...A } } fragment A on Dog { ...B } fragment B on Dog { name }").isEmpty)
    }

    @Test("§5.5.1.4 counter-example: an unused fragment is rejected")
    func unused() {
        let query = """
            fragment nameFragment on Dog { # unused
              name
            }

            {
              dog {
                name
              }
            }
            """
        #expect(validate(query) == [error("Fragment \"nameFragment\" is never used.", (1, 1))])
    }

    @Test("§5.5.1.4 fragments only reachable from each other are unused, reported after everything else")
    func unreachableCycle() {
        let query = """
            { dog { name } }
            fragment A on Dog { ...B }
            fragment B on Dog { barkVolume ...A }
            """
        #expect(
            validate(query) == [
                error("Cannot spread fragment \"A\" within itself via \"B\".", (2, 21), (3, 32)),
                error("Fragment \"A\" is never used.", (2, 1)),
                error("Fragment \"B\" is never used.", (3, 1)),
            ])
    }
}
