import Testing

@Suite("§5.8.5 All Variable Usages Are Allowed")
struct VariablesInAllowedPositionRuleTests {
    @Test("§5.8.5 non-null lists into lists, defaults and non-null OneOf variables are allowed")
    func valid() {
        let queries = [
            "query nonNullListToList($nonNullBooleanList: [Boolean]!) { arguments { booleanListArgField(booleanListArg: $nonNullBooleanList) } }",
            "query booleanArgQueryWithDefault($booleanArg: Boolean) { arguments { optionalNonNullBooleanArgField(optionalBooleanArg: $booleanArg) } }",
            "query booleanArgQueryWithDefault($booleanArg: Boolean = true) { arguments { nonNullBooleanArgField(nonNullBooleanArg: $booleanArg) } }",
            "mutation addCat($cat: CatInput!) { addPet(pet: { cat: $cat }) { name } }",
            "mutation addCatWithDefault($cat: CatInput! = { name: \"Brontie\" }) { addPet(pet: { cat: $cat }) { name } }",
            "query nonNullIntoNullable($b: Boolean!) { dog { isHouseTrained(atOtherHomes: $b) } }",
        ]
        for query in queries { #expect(validate(query).isEmpty, "\(query)") }
    }

    @Test("§5.8.5 counter-example: an Int variable into a Boolean argument is rejected")
    func intIntoBoolean() {
        let query = """
            query intCannotGoIntoBoolean($intArg: Int) {
              arguments {
                booleanArgField(booleanArg: $intArg)
              }
            }
            """
        #expect(
            validate(query) == [
                error("Variable \"$intArg\" of type \"Int\" used in position expecting type \"Boolean\".", (1, 30), (3, 33))
            ])
    }

    @Test("§5.8.5 counter-example: list into scalar, nullable into non-null, [T] into [T]! are rejected")
    func mismatches() {
        #expect(
            validate(
                "query booleanListCannotGoIntoBoolean($booleanListArg: [Boolean]) { arguments { booleanArgField(booleanArg: $booleanListArg) } }"
            ) == [
                error(
                    "Variable \"$booleanListArg\" of type \"[Boolean]\" used in position expecting type \"Boolean\".", (1, 38),
                    (1, 108))
            ])
        #expect(
            validate(
                "query booleanArgQuery($booleanArg: Boolean) { arguments { nonNullBooleanArgField(nonNullBooleanArg: $booleanArg) } }"
            ) == [
                error("Variable \"$booleanArg\" of type \"Boolean\" used in position expecting type \"Boolean!\".", (1, 23), (1, 101))
            ])
        #expect(
            validate(
                "query listToNonNullList($booleanList: [Boolean]) { arguments { nonNullBooleanListField(nonNullBooleanListArg: $booleanList) } }"
            ) == [
                error(
                    "Variable \"$booleanList\" of type \"[Boolean]\" used in position expecting type \"[Boolean]!\".", (1, 25),
                    (1, 111))
            ])
    }

    @Test("§5.8.5 counter-example: a nullable variable for a OneOf field is rejected once, in graphql-js 17's words")
    func nullableOneOf() {
        let query = """
            mutation addNullableCat($cat: CatInput) {
              addPet(pet: { cat: $cat }) {
                name
              }
            }
            """
        #expect(
            validate(query) == [
                error(
                    "Variable \"$cat\" is of type \"CatInput\" but must be non-nullable to be used for OneOf Input Object \"PetInput\".",
                    (1, 25), (2, 22)),
            ])
    }

    @Test("§5.8.5 a nullable variable for a OneOf field is rejected even with a default (graphql-js 17)")
    func nullableOneOfWithDefault() {
        let query = """
            mutation addCatWithNullableDefault($cat: CatInput = { name: "Brontie" }) {
              addPet(pet: { cat: $cat }) { name }
            }
            """
        #expect(
            validate(query) == [
                error(
                    "Variable \"$cat\" is of type \"CatInput\" but must be non-nullable to be used for OneOf Input Object \"PetInput\".",
                    (1, 36), (2, 22))
            ])
    }

    @Test("§5.8.5 a nullable variable of the wrong type for a OneOf field gets both errors (graphql-js 17)")
    func wrongTypeForOneOf() {
        #expect(
            validate("mutation M($dog: DogInput) { addPet(pet: { cat: $dog }) { name } }") == [
                error("Variable \"$dog\" of type \"DogInput\" used in position expecting type \"CatInput\".", (1, 12), (1, 49)),
                error(
                    "Variable \"$dog\" is of type \"DogInput\" but must be non-nullable to be used for OneOf Input Object \"PetInput\".",
                    (1, 12), (1, 49)),
            ])
    }

    @Test("§5.8.5 usages in a fragment defined before the operation are checked too")
    func fragmentBeforeOperation() {
        #expect(
            validate("fragment F on Dog { isHouseTrained(atOtherHomes: $v) } query Q($v: Int) { dog { ...F } }") == [
                error("Variable \"$v\" of type \"Int\" used in position expecting type \"Boolean\".", (1, 64), (1, 50))
            ])
    }
}
