import Testing

@Suite("§5.1.1 Executable Definitions")
struct ExecutableDefinitionsRuleTests {
    @Test("§5.1.1 operations and fragments only are valid")
    func executableOnly() {
        #expect(validate("query Q { dog { ...F } } fragment F on Dog { name }").isEmpty)
    }

    @Test("§5.1.1 counter-example: a type extension in the document is rejected")
    func typeExtension() {
        let query = """
            query getDogName {
              dog {
                name
                color
              }
            }

            extend type Dog {
              color: String
            }
            """
        // Reported when the document is entered, so before the field error (as graphql-js).
        #expect(
            validate(query) == [
                error("The \"Dog\" definition is not executable.", (8, 1)),
                error("Cannot query field \"color\" on type \"Dog\".", (4, 5)),
            ])
    }

    @Test("§5.1.1 schema and directive definitions are named in the message")
    func schemaAndDirective() {
        let query = """
            { dog { name } }
            schema { query: Query }
            directive @d on FIELD
            """
        #expect(
            validate(query) == [
                error("The schema definition is not executable.", (2, 1)),
                error("The \"d\" definition is not executable.", (3, 1)),
            ])
    }
}
