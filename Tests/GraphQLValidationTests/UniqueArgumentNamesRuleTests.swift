import Testing

@Suite("§5.4.2 Argument Uniqueness")
struct UniqueArgumentNamesRuleTests {
    @Test("§5.4.2 distinct argument names are valid")
    func valid() {
        #expect(validate("{ arguments { multipleRequirements(x: 1, y: 2) } }").isEmpty)
    }

    @Test("§5.4.2 a repeated field argument is rejected at every occurrence")
    func repeatedFieldArgument() {
        #expect(
            validate("{ arguments { multipleRequirements(x: 1, y: 2, x: 3, x: 4) } }") == [
                error("There can be only one argument named \"x\".", (1, 36), (1, 48), (1, 54))
            ])
    }

    @Test("§5.4.2 a repeated directive argument is rejected")
    func repeatedDirectiveArgument() {
        #expect(
            validate("{ dog @include(if: true, if: false) { name } }") == [
                error("There can be only one argument named \"if\".", (1, 16), (1, 26))
            ])
    }
}
