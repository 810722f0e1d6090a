import Testing

@Suite("§5.2.2.1 Operation Name Uniqueness")
struct UniqueOperationNamesRuleTests {
    @Test("§5.2.2.1 two differently named operations are valid")
    func distinct() {
        let query = """
            query getDogName {
              dog {
                name
              }
            }

            query getOwnerName {
              dog {
                owner {
                  name
                }
              }
            }
            """
        #expect(validate(query).isEmpty)
    }

    @Test("§5.2.2.1 counter-example: two operations named getName are rejected")
    func duplicate() {
        let query = """
            query getName {
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
        #expect(validate(query) == [error("There can be only one operation named \"getName\".", (1, 7), (7, 7))])
    }

    @Test("§5.2.2.1 counter-example: a query and a mutation with one name are rejected")
    func differentKinds() {
        let query = """
            query dogOperation {
              dog {
                name
              }
            }

            mutation dogOperation {
              addPet(pet: { dog: { name: "Rex" } }) {
                name
              }
            }
            """
        #expect(validate(query) == [error("There can be only one operation named \"dogOperation\".", (1, 7), (7, 10))])
    }
}
