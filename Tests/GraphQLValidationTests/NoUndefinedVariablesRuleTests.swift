import Testing

@Suite("§5.8.3 All Variable Uses Defined")
struct NoUndefinedVariablesRuleTests {
    @Test("§5.8.3 variables defined by every operation using them, through fragments, are valid")
    func valid() {
        let query = """
            query houseTrainedQueryOne($atOtherHomes: Boolean) {
              dog {
                ...isHouseTrainedFragment
              }
            }

            query houseTrainedQueryTwo($atOtherHomes: Boolean) {
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

    @Test("§5.8.3 counter-example: a variable the operation does not define is rejected")
    func undefined() {
        let query = """
            query variableIsNotDefined {
              dog {
                isHouseTrained(atOtherHomes: $atOtherHomes)
              }
            }
            """
        #expect(
            validate(query) == [
                error("Variable \"$atOtherHomes\" is not defined by operation \"variableIsNotDefined\".", (3, 34), (1, 1))
            ])
    }

    @Test("§5.8.3 counter-example: undefined in a nested fragment of one of two operations")
    func throughFragments() {
        let query = """
            query houseTrainedQueryOne($atOtherHomes: Boolean) {
              dog {
                ...outerHouseTrainedFragment
              }
            }

            query houseTrainedQueryTwoNotDefined {
              dog {
                ...outerHouseTrainedFragment
              }
            }

            fragment outerHouseTrainedFragment on Dog {
              ...isHouseTrainedFragment
            }

            fragment isHouseTrainedFragment on Dog {
              isHouseTrained(atOtherHomes: $atOtherHomes)
            }
            """
        #expect(
            validate(query) == [
                error(
                    "Variable \"$atOtherHomes\" is not defined by operation \"houseTrainedQueryTwoNotDefined\".", (18, 32),
                    (7, 1))
            ])
    }
}
