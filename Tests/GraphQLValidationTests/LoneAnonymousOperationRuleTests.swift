import Testing

@Suite("§5.2.3.1 Lone Anonymous Operation")
struct LoneAnonymousOperationRuleTests {
    @Test("§5.2.3.1 a lone anonymous operation is valid")
    func lone() {
        #expect(validate("{\n  dog {\n    name\n  }\n}").isEmpty)
    }

    @Test("§5.2.3.1 counter-example: an anonymous operation next to a named one is rejected")
    func withNamed() {
        let query = """
            {
              dog {
                name
              }
            }

            query getName {
              dog {
                owner {
                  name
                }
              }
            }
            """
        #expect(validate(query) == [error("This anonymous operation must be the only defined operation.", (1, 1))])
    }

    @Test("§5.2.3.1 two anonymous operations are both rejected")
    func twoAnonymous() {
        #expect(
            validate("{ dog { name } }\n{ dog { nickname } }") == [
                error("This anonymous operation must be the only defined operation.", (1, 1)),
                error("This anonymous operation must be the only defined operation.", (2, 1)),
            ])
    }
}
