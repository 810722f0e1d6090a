import Testing

@Suite("§5.5.1.2 Fragment Spread Type Existence")
struct KnownTypeNamesRuleTests {
    @Test("§5.5.1.2 fragments on existing types, with or without a condition, are valid")
    func valid() {
        let query = """
            { dog { ...correctType ...inlineFragment ...inlineFragment2 } }
            fragment correctType on Dog {
              name
            }
            fragment inlineFragment on Dog {
              ... on Dog {
                name
              }
            }
            fragment inlineFragment2 on Dog {
              ... @include(if: true) {
                name
              }
            }
            """
        #expect(validate(query).isEmpty)
    }

    @Test("§5.5.1.2 counter-example: fragments on a type not in the schema are rejected")
    func unknown() {
        let query = """
            { dog { ...notOnExistingType ...inlineNotExistingType } }
            fragment notOnExistingType on NotInSchema {
              name
            }
            fragment inlineNotExistingType on Dog {
              ... on NotInSchema {
                name
              }
            }
            """
        #expect(
            validate(query) == [
                // Suggestions come from every type, introspection types included (as graphql-js).
                error("Unknown type \"NotInSchema\". Did you mean \"__Schema\"?", (2, 31)),
                error("Unknown type \"NotInSchema\". Did you mean \"__Schema\"?", (6, 10)),
            ])
    }

    @Test("§5.5.1.2 an unknown variable type is rejected with a suggestion")
    func variableType() {
        #expect(
            validate("query ($a: Strin) { dog { isHouseTrained(atOtherHomes: $a) } }") == [
                error("Unknown type \"Strin\". Did you mean \"String\"?", (1, 12))
            ])
    }
}
