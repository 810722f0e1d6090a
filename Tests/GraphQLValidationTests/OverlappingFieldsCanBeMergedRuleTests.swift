import Testing

@testable import GraphQLValidation

@Suite("§5.3.2 Field Selection Merging")
struct OverlappingFieldsCanBeMergedRuleTests {
    @Test("§5.3.2 identical fields, aliases and arguments merge")
    func identical() {
        let query = """
            query ($dogCommand: DogCommand!) { dog { ...mergeIdenticalFields ...mergeIdenticalAliasesAndFields ...mergeIdenticalFieldsWithIdenticalArgs } other: dog { ...mergeIdenticalFieldsWithIdenticalValues } }
            fragment mergeIdenticalFields on Dog {
              name
              name
            }
            fragment mergeIdenticalAliasesAndFields on Dog {
              otherName: name
              otherName: name
            }
            fragment mergeIdenticalFieldsWithIdenticalArgs on Dog {
              doesKnowCommand(dogCommand: SIT)
              doesKnowCommand(dogCommand: SIT)
            }
            fragment mergeIdenticalFieldsWithIdenticalValues on Dog {
              doesKnowCommand(dogCommand: $dogCommand)
              doesKnowCommand(dogCommand: $dogCommand)
            }
            """
        #expect(validate(query).isEmpty)
    }

    @Test("§5.3.2 counter-example: an alias naming a different field conflicts")
    func aliasConflict() {
        let query = """
            { dog { ...conflictingBecauseAlias } }
            fragment conflictingBecauseAlias on Dog {
              name: nickname
              name
            }
            """
        #expect(
            validate(query) == [
                error(
                    "Fields \"name\" conflict because \"nickname\" and \"name\" are different fields. Use different aliases on the fields to fetch both if this was intentional.",
                    (3, 3), (4, 3))
            ])
    }

    @Test("§5.3.2 counter-example: differing arguments conflict")
    func differingArguments() {
        let query = """
            query ($dogCommand: DogCommand!) { dog { ...conflictingArgsOnValues ...differingArgs } }
            fragment conflictingArgsOnValues on Dog {
              doesKnowCommand(dogCommand: SIT)
              doesKnowCommand(dogCommand: HEEL)
            }
            fragment differingArgs on Dog {
              doesKnowCommand(dogCommand: SIT)
              doesKnowCommand(dogCommand: $dogCommand)
            }
            """
        let message =
            "Fields \"doesKnowCommand\" conflict because they have differing arguments. Use different aliases on the fields to fetch both if this was intentional."
        #expect(
            validate(query) == [
                // The operation's selection set compares the two fragments with each other
                // (line 3 and line 7 are the same field with the same argument)…
                error(message, (3, 3), (8, 3)),
                error(message, (4, 3), (7, 3)),
                error(message, (4, 3), (8, 3)),
                // …then each fragment's own selection set is checked.
                error(message, (3, 3), (4, 3)),
                error(message, (7, 3), (8, 3)),
            ])
    }

    @Test("§5.3.2 SameArguments: input object fields in another order are the same value, at any depth")
    func reorderedInputObjectFields() {
        let query = """
            query Q {
              a: findDog(searchBy: { name: "Fido", owner: "Ann" }) { name }
              a: findDog(searchBy: { owner: "Ann", name: "Fido" }) { name }
            }
            mutation M {
              b: addPet(pet: { dog: { name: "Rex", barkVolume: 2 } }) { name }
              b: addPet(pet: { dog: { barkVolume: 2, name: "Rex" } }) { name }
              c: addPets(pets: [{ dog: { name: "Rex", nickname: "R" } }, { cat: { name: "Tom" } }]) { name }
              c: addPets(pets: [{ dog: { nickname: "R", name: "Rex" } }, { cat: { name: "Tom" } }]) { name }
            }
            """
        #expect(validate(query).isEmpty)
    }

    @Test("§5.3.2 counter-example: reordered input objects with a different value, or list items reordered, conflict")
    func reorderedInputObjectsWithDifferentValues() {
        let query = """
            query Q {
              a: findDog(searchBy: { name: "Fido", owner: "Ann" }) { name }
              a: findDog(searchBy: { owner: "Bob", name: "Fido" }) { name }
            }
            mutation M {
              c: addPets(pets: [{ dog: { name: "Rex" } }, { cat: { name: "Tom" } }]) { name }
              c: addPets(pets: [{ cat: { name: "Tom" } }, { dog: { name: "Rex" } }]) { name }
            }
            """
        let message = { (key: String) in
            "Fields \"\(key)\" conflict because they have differing arguments. Use different aliases on the fields to fetch both if this was intentional."
        }
        #expect(validate(query) == [error(message("a"), (2, 3), (3, 3)), error(message("c"), (6, 3), (7, 3))])
    }

    @Test("§5.3.2 fields on distinct object types may differ; response shapes may not")
    func parentTypes() {
        let query = """
            { pet { ...safeDifferingFields ...safeDifferingArgs ...conflictingDifferingResponses } }
            fragment safeDifferingFields on Pet {
              ... on Dog {
                volume: barkVolume
              }
              ... on Cat {
                volume: meowVolume
              }
            }
            fragment safeDifferingArgs on Pet {
              ... on Dog {
                doesKnowCommand(dogCommand: SIT)
              }
              ... on Cat {
                doesKnowCommand(catCommand: JUMP)
              }
            }
            fragment conflictingDifferingResponses on Pet {
              ... on Dog {
                someValue: nickname
              }
              ... on Cat {
                someValue: meowVolume
              }
            }
            """
        #expect(
            validate(query) == [
                error(
                    "Fields \"someValue\" conflict because they return conflicting types \"String\" and \"Int\". Use different aliases on the fields to fetch both if this was intentional.",
                    (20, 5), (23, 5))
            ])
    }

    @Test("§5.3.2 conflicts in subfields are reported with every field on the path")
    func subfields() {
        let query = """
            {
              dog {
                owner { name: __typename }
              }
              dog {
                owner { name }
              }
            }
            """
        #expect(
            validate(query) == [
                error(
                    "Fields \"dog\" conflict because subfields \"owner\" conflict because subfields \"name\" conflict because \"__typename\" and \"name\" are different fields. Use different aliases on the fields to fetch both if this was intentional.",
                    (2, 3), (3, 5), (3, 13), (5, 3), (6, 5), (6, 13))
            ])
    }

    @Test("§5.3.2 1,000 identical fields and 1,000 aliases validate without quadratic work")
    func manyFields() {
        let identical = "{ dog { " + String(repeating: "name ", count: 1000) + "} }"
        #expect(validate(identical).isEmpty)
        let aliased = "{ dog { " + (0..<1000).map { "a\($0): name " }.joined() + "} }"
        #expect(validate(aliased).isEmpty)
        let viaFragments = "{ dog { ...A ...B } } fragment A on Dog { " + String(repeating: "name ", count: 1000)
            + "} fragment B on Dog { " + String(repeating: "name ", count: 1000) + "}"
        #expect(validate(viaFragments).isEmpty)
    }

    @Test("§5.3.2 among many identical fields, each conflicting pair is still reported")
    func manyWithConflict() {
        let query = "{ dog { " + String(repeating: "name ", count: 10) + "name: nickname } }"
        let errors = validate(query)
        #expect(errors.count == 10)
        #expect(
            errors.first
                == error(
                    "Fields \"name\" conflict because \"name\" and \"nickname\" are different fields. Use different aliases on the fields to fetch both if this was intentional.",
                    (1, 9), (1, 59)))
    }

    @Test("§5.3.2 a conflict with a field of a fragment spread inside a fragment is found")
    func nestedFragment() {
        #expect(
            validate("{ dog { name ...F } } fragment F on Dog { ...G } fragment G on Dog { name: nickname }") == [
                error(
                    "Fields \"name\" conflict because \"name\" and \"nickname\" are different fields. Use different aliases on the fields to fetch both if this was intentional.",
                    (1, 9), (1, 70))
            ])
    }
}

@Suite("§5.3.2 Field Selection Merging on fragments that spread themselves")
struct OverlappingFieldsRecursiveFragmentTests {
    static let schema = buildSchema("type Query { node: Node } type Node { name: String child: Node }")

    @Test("§5.3.2 a fragment spread inside its own subfields ends with NoFragmentCycles' error, not endless expansion (found by fuzzing)")
    func selfSpreadInSubfields() {
        let query = """
            { node { ...F } }
            fragment F on Node { child { ...F child { ...F name } } }
            """
        let messages = validate(query, schema: Self.schema).map(\.message)
        // One per spread, as graphql-js reports them; and nothing from merging, which terminates.
        #expect(messages == Array(repeating: #"Cannot spread fragment "F" within itself."#, count: 2))
    }

    @Test("§5.3.2 the shape the fuzzer found: a profile-like graph whose fragment spreads itself at two depths")
    func fuzzerShape() {
        let query = """
            query G { node { child { ...Card } } }
            fragment Card on Node { name child { child { ...Card name } } child { name child { child { ...Card } } } }
            """
        let messages = validate(query, schema: Self.schema).map(\.message)
        #expect(messages.contains(#"Cannot spread fragment "Card" within itself."#))
    }
}
