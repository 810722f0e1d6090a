import Testing

@Suite("§5.4.1 Argument Names")
struct KnownArgumentNamesRuleTests {
    @Test("§5.4.1 arguments of fields and directives, in any order, are valid")
    func valid() {
        let query = """
            { dog { ...argOnRequiredArg } arguments { ...multipleArgs ...multipleArgsReverseOrder } }
            fragment argOnRequiredArg on Dog {
              doesKnowCommand(dogCommand: SIT)
              isHouseTrained(atOtherHomes: true) @include(if: true)
            }
            fragment multipleArgs on Arguments {
              multipleRequirements(x: 1, y: 2)
            }
            fragment multipleArgsReverseOrder on Arguments {
              multipleRequirements(y: 2, x: 1)
            }
            """
        #expect(validate(query).isEmpty)
    }

    @Test("§5.4.1 counter-example: an argument the field does not define is rejected")
    func unknownFieldArgument() {
        let query = """
            { dog { ...invalidArgName } }
            fragment invalidArgName on Dog {
              doesKnowCommand(command: CLEAN_UP_HOUSE)
            }
            """
        #expect(
            validate(query) == [
                error("Unknown argument \"command\" on field \"Dog.doesKnowCommand\". Did you mean \"dogCommand\"?", (3, 19)),
                error(
                    "Field \"doesKnowCommand\" argument \"dogCommand\" of type \"DogCommand!\" is required, but it was not provided.",
                    (3, 3)),
            ])
    }

    @Test("§5.4.1 counter-example: an argument the directive does not define is rejected")
    func unknownDirectiveArgument() {
        let query = """
            { dog { ...invalidArgName } }
            fragment invalidArgName on Dog {
              isHouseTrained(atOtherHomes: true) @include(unless: false)
            }
            """
        #expect(
            validate(query) == [
                error("Unknown argument \"unless\" on directive \"@include\".", (3, 47)),
                error("Directive \"@include\" argument \"if\" of type \"Boolean!\" is required, but it was not provided.", (3, 38)),
            ])
    }

    @Test("§5.4.1 a misspelt argument gets a suggestion")
    func suggestion() {
        #expect(
            validate("{ dog { isHouseTrained(atOtherHome: true) } }") == [
                error("Unknown argument \"atOtherHome\" on field \"Dog.isHouseTrained\". Did you mean \"atOtherHomes\"?", (1, 24))
            ])
    }

    @Test("§5.4.1 arguments of an unknown directive are not reported, only the directive")
    func unknownDirectiveArguments() {
        #expect(validate("{ dog @nope(a: 1) { name } }") == [error("Unknown directive \"@nope\".", (1, 7))])
    }
}
