import Testing

@Suite("§5.2.1.1 Operation Type Existence")
struct KnownOperationTypesRuleTests {
    let helloSchema = buildSchema("type Query { hello: String }")

    @Test("§5.2.1.1 a query on a schema with a query type is valid")
    func query() {
        #expect(validate("query helloQuery { hello }", schema: helloSchema).isEmpty)
    }

    @Test("§5.2.1.1 counter-example: a mutation without a mutation type is rejected")
    func mutation() {
        #expect(
            validate("mutation goodbyeMutation {\n  goodbye\n}", schema: helloSchema) == [
                error("The mutation operation is not supported by the schema.", (1, 1))
            ])
    }

    @Test("§5.2.1.1 a subscription without a subscription type is rejected")
    func subscription() {
        #expect(
            validate("subscription { hello }", schema: helloSchema) == [
                error("The subscription operation is not supported by the schema.", (1, 1))
            ])
    }
}
