import Testing

@Suite("§5.3.3 Leaf Field Selections")
struct ScalarLeafsRuleTests {
    @Test("§5.3.3 a scalar without selection and an object with one are valid")
    func valid() {
        let query = """
            { dog { ...scalarSelection } }
            fragment scalarSelection on Dog {
              barkVolume
            }
            query directQueryOnObjectWithSubFields {
              human {
                name
              }
            }
            """
        // The anonymous operation is not alone here; only that error is expected.
        #expect(validate(query) == [error("This anonymous operation must be the only defined operation.", (1, 1))])
    }

    @Test("§5.3.3 counter-example: a selection on a scalar is rejected at the selection set")
    func selectionOnScalar() {
        let query = """
            { dog { ...scalarSelectionsNotAllowedOnInt } }
            fragment scalarSelectionsNotAllowedOnInt on Dog {
              barkVolume {
                sinceWhen
              }
            }
            """
        #expect(
            validate(query) == [
                error("Field \"barkVolume\" must not have a selection since type \"Int\" has no subfields.", (3, 14))
            ])
    }

    @Test("§5.3.3 counter-example: objects, interfaces and unions without subselection are rejected")
    func missingSelection() {
        let query = """
            query directQueryOnObjectWithoutSubFields {
              human
            }

            query directQueryOnInterfaceWithoutSubFields {
              pet
            }

            query directQueryOnUnionWithoutSubFields {
              catOrDog
            }
            """
        #expect(
            validate(query) == [
                error("Field \"human\" of type \"Human\" must have a selection of subfields. Did you mean \"human { ... }\"?", (2, 3)),
                error("Field \"pet\" of type \"Pet\" must have a selection of subfields. Did you mean \"pet { ... }\"?", (6, 3)),
                error(
                    "Field \"catOrDog\" of type \"CatOrDog\" must have a selection of subfields. Did you mean \"catOrDog { ... }\"?",
                    (10, 3)),
            ])
    }

    @Test("§5.3.3 the message prints the full type, wrappers included")
    func wrappedType() {
        #expect(
            validate("{ dog { name { x } } human { pets } }") == [
                error("Field \"name\" must not have a selection since type \"String!\" has no subfields.", (1, 14)),
                error("Field \"pets\" of type \"[Pet!]\" must have a selection of subfields. Did you mean \"pets { ... }\"?", (1, 30)),
            ])
    }
}
