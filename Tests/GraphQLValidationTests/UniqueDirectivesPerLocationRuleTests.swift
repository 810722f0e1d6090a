import Testing

@Suite("§5.7.3 Directives Are Unique per Location")
struct UniqueDirectivesPerLocationRuleTests {
    @Test("§5.7.3 one @skip per location is valid, and repeatable directives may repeat")
    func valid() {
        let query = """
            query ($foo: Boolean = true, $bar: Boolean = false) {
              dog @skip(if: $foo) { name }
              dog @skip(if: $bar) { name }
            }
            """
        #expect(validate(query).isEmpty)
        let schema = buildSchema("directive @tag(name: String) repeatable on FIELD\ntype Query { a: Int }")
        #expect(validate("{ a @tag(name: \"x\") @tag(name: \"y\") }", schema: schema).isEmpty)
    }

    @Test("§5.7.3 counter-example: @skip twice on one field is rejected")
    func repeated() {
        let query = """
            query ($foo: Boolean = true, $bar: Boolean = false) {
              dog @skip(if: $foo) @skip(if: $bar) { name }
            }
            """
        #expect(validate(query) == [error("The directive \"@skip\" can only be used once at this location.", (2, 7), (2, 23))])
    }
}
