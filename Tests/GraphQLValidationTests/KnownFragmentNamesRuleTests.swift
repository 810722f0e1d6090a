import Testing

@Suite("§5.5.2.1 Fragment Spread Target Defined")
struct KnownFragmentNamesRuleTests {
    @Test("§5.5.2.1 a spread of a defined fragment is valid")
    func defined() {
        #expect(validate("{ dog { ...F } } fragment F on Dog { name }").isEmpty)
    }

    @Test("§5.5.2.1 counter-example: a spread of an undefined fragment is rejected at its name")
    func undefined() {
        let query = """
            {
              dog {
                ...undefinedFragment
              }
            }
            """
        #expect(validate(query) == [error("Unknown fragment \"undefinedFragment\".", (3, 8))])
    }
}
