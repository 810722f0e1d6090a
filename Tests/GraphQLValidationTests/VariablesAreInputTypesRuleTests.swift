import Testing

@Suite("§5.8.2 Variables Are Input Types")
struct VariablesAreInputTypesRuleTests {
    @Test("§5.8.2 scalars, input objects and lists of them are valid")
    func valid() {
        let query = """
            query takesBoolean($atOtherHomes: Boolean, $search: FindDogInput, $booleans: [Boolean!]) {
              dog {
                isHouseTrained(atOtherHomes: $atOtherHomes)
              }
              findDog(searchBy: $search) {
                name
              }
              booleanList(booleanListArg: $booleans)
            }
            """
        #expect(validate(query).isEmpty)
    }

    @Test("§5.8.2 counter-example: object, interface and union variable types are rejected at the type")
    func outputTypes() {
        let query = """
            query takesCat($cat: Cat, $dog: Dog!, $pets: [Pet], $catOrDog: CatOrDog) {
              dog { name }
            }
            """
        #expect(
            validate(query) == [
                error("Variable \"$cat\" cannot be non-input type \"Cat\".", (1, 22)),
                error("Variable \"$dog\" cannot be non-input type \"Dog!\".", (1, 33)),
                error("Variable \"$pets\" cannot be non-input type \"[Pet]\".", (1, 46)),
                error("Variable \"$catOrDog\" cannot be non-input type \"CatOrDog\".", (1, 64)),
                error("Variable \"$cat\" is never used in operation \"takesCat\".", (1, 16)),
                error("Variable \"$dog\" is never used in operation \"takesCat\".", (1, 27)),
                error("Variable \"$pets\" is never used in operation \"takesCat\".", (1, 39)),
                error("Variable \"$catOrDog\" is never used in operation \"takesCat\".", (1, 53)),
            ])
    }
}
