import Testing

@Suite("§5.5.1.1 Fragment Name Uniqueness")
struct UniqueFragmentNamesRuleTests {
    @Test("§5.5.1.1 distinct fragment names are valid")
    func valid() {
        let query = """
            {
              dog {
                ...fragmentOne
                ...fragmentTwo
              }
            }

            fragment fragmentOne on Dog {
              name
            }

            fragment fragmentTwo on Dog {
              owner {
                name
              }
            }
            """
        #expect(validate(query).isEmpty)
    }

    @Test("§5.5.1.1 counter-example: two fragments named fragmentOne are rejected")
    func duplicate() {
        let query = """
            {
              dog {
                ...fragmentOne
              }
            }

            fragment fragmentOne on Dog {
              name
            }

            fragment fragmentOne on Dog {
              owner {
                name
              }
            }
            """
        #expect(validate(query) == [error("There can be only one fragment named \"fragmentOne\".", (7, 10), (11, 10))])
    }
}
