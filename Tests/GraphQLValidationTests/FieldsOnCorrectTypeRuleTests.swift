import Testing

@Suite("§5.3.1 Field Selections")
struct FieldsOnCorrectTypeRuleTests {
    @Test("§5.3.1 fields, interface fields and __typename on a union are valid")
    func valid() {
        let query = """
            { dog { ...interfaceFieldSelection } catOrDog { ...inDirectFieldSelectionOnUnion } }
            fragment interfaceFieldSelection on Pet {
              name
            }
            fragment inDirectFieldSelectionOnUnion on CatOrDog {
              __typename
              ... on Pet {
                name
              }
              ... on Dog {
                barkVolume
              }
            }
            """
        #expect(validate(query).isEmpty)
    }

    @Test("§5.3.1 counter-example: undefined fields, aliased or not, are rejected with suggestions")
    func undefinedFields() {
        let query = """
            { dog { ...fieldNotDefined ...aliasedLyingFieldTargetNotDefined } }
            fragment fieldNotDefined on Dog {
              meowVolume
            }
            fragment aliasedLyingFieldTargetNotDefined on Dog {
              barkVolume: kawVolume
            }
            """
        #expect(
            validate(query) == [
                error("Cannot query field \"meowVolume\" on type \"Dog\". Did you mean \"barkVolume\"?", (3, 3)),
                error("Cannot query field \"kawVolume\" on type \"Dog\". Did you mean \"barkVolume\"?", (6, 3)),
            ])
    }

    @Test("§5.3.1 counter-example: a field of implementers only, on an interface, suggests inline fragments")
    func implementerField() {
        let query = """
            { pet { ...definedOnImplementersButNotInterface } }
            fragment definedOnImplementersButNotInterface on Pet {
              nickname
            }
            """
        #expect(
            validate(query) == [
                error(
                    "Cannot query field \"nickname\" on type \"Pet\". Did you mean to use an inline fragment on \"Cat\" or \"Dog\"?",
                    (3, 3))
            ])
    }

    @Test("§5.3.1 counter-example: fields on a union suggest interfaces first, then the most used types")
    func unionFields() {
        let query = """
            { catOrDog { ...directFieldSelectionOnUnion } }
            fragment directFieldSelectionOnUnion on CatOrDog {
              name
              barkVolume
            }
            """
        #expect(
            validate(query) == [
                error(
                    "Cannot query field \"name\" on type \"CatOrDog\". Did you mean to use an inline fragment on \"Pet\", \"Cat\", or \"Dog\"?",
                    (3, 3)),
                error(
                    "Cannot query field \"barkVolume\" on type \"CatOrDog\". Did you mean to use an inline fragment on \"Dog\"?",
                    (4, 3)),
            ])
    }

    @Test("§5.3.1 no suggestion when nothing is close; __schema only on the query root")
    func noSuggestion() {
        #expect(
            validate("{ dog { zzzzzzzz __schema { queryType { name } } } }") == [
                error("Cannot query field \"zzzzzzzz\" on type \"Dog\".", (1, 9)),
                error("Cannot query field \"__schema\" on type \"Dog\".", (1, 18)),
            ])
        #expect(validate("{ __schema { queryType { name } } __type(name: \"Dog\") { name } }").isEmpty)
    }
}
