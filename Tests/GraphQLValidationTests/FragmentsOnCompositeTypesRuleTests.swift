import Testing

@Suite("§5.5.1.3 Fragments on Object, Interface or Union Types")
struct FragmentsOnCompositeTypesRuleTests {
    @Test("§5.5.1.3 fragments on objects, interfaces and unions are valid")
    func valid() {
        let query = """
            { dog { ...fragOnObject ...fragOnInterface ...fragOnUnion } }
            fragment fragOnObject on Dog {
              name
            }
            fragment fragOnInterface on Pet {
              name
            }
            fragment fragOnUnion on CatOrDog {
              ... on Dog {
                name
              }
            }
            """
        #expect(validate(query).isEmpty)
    }

    @Test("§5.5.1.3 counter-example: fragments on scalars are rejected at the type condition")
    func scalar() {
        let query = """
            { dog { ...fragOnScalar ...inlineFragOnScalar } }
            fragment fragOnScalar on Int {
              something
            }
            fragment inlineFragOnScalar on Dog {
              ... on Boolean {
                somethingElse
              }
            }
            """
        #expect(
            validate(query) == [
                error("Fragment \"fragOnScalar\" cannot condition on non composite type \"Int\".", (2, 26)),
                error("Fragment cannot condition on non composite type \"Boolean\".", (6, 10)),
            ])
    }
}
