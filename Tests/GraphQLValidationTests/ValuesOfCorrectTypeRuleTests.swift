import Testing

@Suite("§5.6 Values of Correct Type, Input Object Field Names and Required Fields")
struct ValuesOfCorrectTypeRuleTests {
    @Test("§5.6.1 literals coercible to their position, Int into Float and OneOf defaults, are valid")
    func valid() {
        let query = """
            query Q { arguments { ...goodBooleanArg ...coercedIntIntoFloatArg } }
            fragment goodBooleanArg on Arguments {
              booleanArgField(booleanArg: true)
            }
            fragment coercedIntIntoFloatArg on Arguments {
              # Note: The input coercion rules for Float allow Int literals.
              floatArgField(floatArg: 123)
            }
            query goodComplexDefaultValue($search: FindDogInput = { name: "Fido" }) {
              findDog(searchBy: $search) {
                name
              }
            }
            mutation addPet($pet: PetInput! = { cat: { name: "Brontie" } }) {
              addPet(pet: $pet) {
                name
              }
            }
            """
        #expect(validate(query).isEmpty)
    }

    @Test("§5.6.1 counter-example: a String into an Int and an Int into a String are rejected")
    func wrongScalars() {
        let query = """
            query Q { arguments { ...stringIntoInt } }
            fragment stringIntoInt on Arguments {
              intArgField(intArg: "123")
            }
            query badComplexValue {
              findDog(searchBy: { name: 123 }) {
                name
              }
            }
            """
        #expect(
            validate(query) == [
                error("Expected value of type \"Int\", found \"123\"; Int cannot represent non-integer value: \"123\"", (3, 23)),
                error("Expected value of type \"String\", found 123; String cannot represent a non string value: 123", (6, 29)),
            ])
    }

    @Test("§5.6.1 counter-example: OneOf objects with no field, two fields or a nullable variable are rejected, each once")
    func oneOf() {
        let query = """
            mutation oneOfWithNoFields {
              addPet(pet: {}) {
                name
              }
            }

            mutation oneOfWithTwoFields($dog: DogInput) {
              addPet(pet: { cat: { name: "Brontie" }, dog: $dog }) {
                name
              }
            }

            mutation listOfOneOfWithNullableVariable($dog: DogInput) {
              addPets(pets: [{ dog: $dog }]) {
                name
              }
            }
            """
        #expect(
            validate(query) == [
                error("OneOf Input Object \"PetInput\" must specify exactly one key.", (2, 15)),
                error("OneOf Input Object \"PetInput\" must specify exactly one key.", (8, 15)),
                // A nullable variable is reported by §5.8.5 only (graphql-js 17), not again here.
                error(
                    "Variable \"$dog\" is of type \"DogInput\" but must be non-nullable to be used for OneOf Input Object \"PetInput\".",
                    (7, 29), (8, 48)),
                error(
                    "Variable \"$dog\" is of type \"DogInput\" but must be non-nullable to be used for OneOf Input Object \"PetInput\".",
                    (13, 42), (14, 25)),
            ])
    }

    @Test("§5.6.1 a OneOf field set to null is rejected")
    func oneOfNull() {
        #expect(
            validate("mutation { addPet(pet: { cat: null }) { name } }") == [
                error("Field \"PetInput.cat\" must be non-null.", (1, 24))
            ])
    }

    @Test("§5.6.2 counter-example: an input field the type does not define is rejected")
    func unknownInputField() {
        let query = """
            {
              findDog(searchBy: { favoriteCookieFlavor: "Bacon" }) {
                name
              }
            }
            """
        #expect(validate(query) == [error("Field \"favoriteCookieFlavor\" is not defined by type \"FindDogInput\".", (2, 23))])
        #expect(
            validate("{ findDog(searchBy: { nam: \"Rex\" }) { name } }") == [
                error("Field \"nam\" is not defined by type \"FindDogInput\". Did you mean \"name\"?", (1, 23))
            ])
    }

    @Test("§5.6.4 a missing required input field is rejected at the object")
    func requiredInputField() {
        #expect(
            validate("mutation { addPet(pet: { cat: { nickname: \"x\" } }) { name } }") == [
                error("Field \"CatInput.name\" of required type \"String!\" was not provided.", (1, 31))
            ])
    }

    @Test("§5.6.1 enum values: a string or an unknown name is rejected with a suggestion")
    func enums() {
        #expect(
            validate("{ dog { doesKnowCommand(dogCommand: \"SIT\") } }") == [
                error("Enum \"DogCommand\" cannot represent non-enum value: \"SIT\". Did you mean the enum value \"SIT\"?", (1, 37))
            ])
        #expect(
            validate("{ dog { doesKnowCommand(dogCommand: SITT) } }") == [
                error("Value \"SITT\" does not exist in \"DogCommand\" enum. Did you mean the enum value \"SIT\"?", (1, 37))
            ])
    }

    @Test("§5.6.1 list items are checked; a list where a scalar is expected is rejected whole")
    func lists() {
        #expect(
            validate("{ arguments { booleanListArgField(booleanListArg: [true, 1]) } }") == [
                error("Expected value of type \"Boolean\", found 1; Boolean cannot represent a non boolean value: 1", (1, 58))
            ])
        #expect(validate("{ arguments { booleanListArgField(booleanListArg: true) } }").isEmpty)
        #expect(
            validate("{ arguments { intArgField(intArg: [1]) } }") == [
                error("Expected value of type \"Int\", found [1]; Int cannot represent non-integer value: [1]", (1, 35))
            ])
    }
}
