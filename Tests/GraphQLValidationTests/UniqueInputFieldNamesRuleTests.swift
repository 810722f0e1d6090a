import Testing

@Suite("§5.6.3 Input Object Field Uniqueness")
struct UniqueInputFieldNamesRuleTests {
    @Test("§5.6.3 distinct input field names, and the same name in nested objects, are valid")
    func valid() {
        #expect(validate("mutation { addPet(pet: { cat: { name: \"a\", nickname: \"b\" } }) { name } }").isEmpty)
    }

    @Test("§5.6.3 counter-example: a repeated input field is rejected at both names")
    func repeated() {
        #expect(
            validate("{ findDog(searchBy: { name: \"a\", name: \"b\" }) { name } }") == [
                error("There can be only one input field named \"name\".", (1, 23), (1, 34))
            ])
    }
}
