import Testing

@Suite("§5.8.4 All Variables Used")
struct NoUnusedVariablesRuleTests {
    @Test("§5.8.4 a variable used in a fragment is used")
    func valid() {
        let query = """
            query variableUsedInFragment($atOtherHomes: Boolean) {
              dog {
                ...isHouseTrainedFragment
              }
            }

            fragment isHouseTrainedFragment on Dog {
              isHouseTrained(atOtherHomes: $atOtherHomes)
            }
            """
        #expect(validate(query).isEmpty)
    }

    @Test("§5.8.4 counter-example: an unreferenced variable is rejected")
    func unused() {
        let query = """
            query variableUnused($atOtherHomes: Boolean) {
              dog {
                isHouseTrained
              }
            }
            """
        #expect(validate(query) == [error("Variable \"$atOtherHomes\" is never used in operation \"variableUnused\".", (1, 22))])
        #expect(validate("query ($a: Int) { dog { name } }") == [error("Variable \"$a\" is never used.", (1, 8))])
    }

    @Test("§5.8.4 counter-example: an extra variable in one of two operations is rejected")
    func extra() {
        let query = """
            query queryWithUsedVar($atOtherHomes: Boolean) {
              dog {
                ...isHouseTrainedFragment
              }
            }

            query queryWithExtraVar($atOtherHomes: Boolean, $extra: Int) {
              dog {
                ...isHouseTrainedFragment
              }
            }

            fragment isHouseTrainedFragment on Dog {
              isHouseTrained(atOtherHomes: $atOtherHomes)
            }
            """
        #expect(validate(query) == [error("Variable \"$extra\" is never used in operation \"queryWithExtraVar\".", (7, 49))])
    }
}
