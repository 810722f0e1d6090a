import Testing

@Suite("§5.8.1 Variable Uniqueness")
struct UniqueVariableNamesRuleTests {
    @Test("§5.8.1 one variable name in two operations sharing a fragment is valid")
    func valid() {
        let query = """
            query A($atOtherHomes: Boolean) {
              ...HouseTrainedFragment
            }

            query B($atOtherHomes: Boolean) {
              ...HouseTrainedFragment
            }

            fragment HouseTrainedFragment on Query {
              dog {
                isHouseTrained(atOtherHomes: $atOtherHomes)
              }
            }
            """
        #expect(validate(query).isEmpty)
    }

    @Test("§5.8.1 counter-example: a variable defined twice is rejected at both names")
    func duplicate() {
        let query = """
            query houseTrainedQuery($atOtherHomes: Boolean, $atOtherHomes: Boolean) {
              dog {
                isHouseTrained(atOtherHomes: $atOtherHomes)
              }
            }
            """
        #expect(validate(query) == [error("There can be only one variable named \"$atOtherHomes\".", (1, 26), (1, 50))])
    }
}
