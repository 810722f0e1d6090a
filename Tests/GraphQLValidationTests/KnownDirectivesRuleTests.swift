import Testing

@Suite("§5.7.1–5.7.2 Directives Are Defined and in Valid Locations")
struct KnownDirectivesRuleTests {
    @Test("§5.7.2 @skip and @include on fields, spreads and inline fragments are valid")
    func valid() {
        let query = """
            query ($b: Boolean!) { dog @include(if: $b) { name @skip(if: $b) ...F @skip(if: $b) ... @include(if: $b) { nickname } } }
            fragment F on Dog { barkVolume }
            """
        #expect(validate(query).isEmpty)
    }

    @Test("§5.7.2 counter-example: @skip on a query is rejected")
    func wrongLocation() {
        let query = """
            query @skip(if: $foo) {
              field
            }
            """
        #expect(
            validate(query) == [
                error("Directive \"@skip\" may not be used on QUERY.", (1, 7)),
                error("Cannot query field \"field\" on type \"Query\".", (2, 3)),
                error("Variable \"$foo\" is not defined.", (1, 17), (1, 1)),
            ])
    }

    @Test("§5.7.1 an unknown directive is rejected")
    func unknown() {
        #expect(validate("{ dog @unknown { name } }") == [error("Unknown directive \"@unknown\".", (1, 7))])
    }
}
