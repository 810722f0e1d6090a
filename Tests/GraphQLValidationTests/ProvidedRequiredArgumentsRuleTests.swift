import Testing

@Suite("§5.4.3 Required Arguments")
struct ProvidedRequiredArgumentsRuleTests {
    @Test("§5.4.3 provided, nullable and defaulted arguments are valid")
    func valid() {
        let query = """
            { a: arguments { ...goodBooleanArg ...goodNonNullArg } b: arguments { ...goodBooleanArgDefault } }
            fragment goodBooleanArg on Arguments {
              booleanArgField(booleanArg: true)
            }
            fragment goodNonNullArg on Arguments {
              nonNullBooleanArgField(nonNullBooleanArg: true)
            }
            fragment goodBooleanArgDefault on Arguments {
              booleanArgField
              optionalNonNullBooleanArgField
            }
            """
        #expect(validate(query).isEmpty)
    }

    @Test("§5.4.3 counter-example: a missing required argument is rejected at the field")
    func missing() {
        let query = """
            { arguments { ...missingRequiredArg } }
            fragment missingRequiredArg on Arguments {
              nonNullBooleanArgField
            }
            """
        #expect(
            validate(query) == [
                error(
                    "Field \"nonNullBooleanArgField\" argument \"nonNullBooleanArg\" of type \"Boolean!\" is required, but it was not provided.",
                    (3, 3))
            ])
    }

    @Test("§5.4.3 counter-example: an explicit null for a required argument is rejected")
    func explicitNull() {
        let query = """
            { arguments { ...missingRequiredArg } }
            fragment missingRequiredArg on Arguments {
              nonNullBooleanArgField(nonNullBooleanArg: null)
            }
            """
        #expect(validate(query) == [error("Expected value of type \"Boolean!\", found null.", (3, 45))])
    }

    @Test("§5.4.3 errors inside the field come before its missing arguments (checked on leave)")
    func order() {
        #expect(
            validate("{ arguments { multipleRequirements(z: 1) } }") == [
                error("Unknown argument \"z\" on field \"Arguments.multipleRequirements\". Did you mean \"x\" or \"y\"?", (1, 36)),
                error("Field \"multipleRequirements\" argument \"x\" of type \"Int!\" is required, but it was not provided.", (1, 15)),
                error("Field \"multipleRequirements\" argument \"y\" of type \"Int!\" is required, but it was not provided.", (1, 15)),
            ])
    }
}
