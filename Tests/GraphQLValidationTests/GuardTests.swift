import GraphQLEngine
import Testing

@testable import GraphQLValidation

@Suite("Guards: depth, cost, aliases")
struct GuardTests {
    let socialSchema = buildSchema(socialSchemaSDL)

    @Test("maxDepth: nesting deeper than the limit is rejected with QUERY_TOO_DEEP")
    func depth() {
        let query = "{ dog { owner { pets { name } } } }"
        #expect(validate(query, options: ValidationOptions(maxDepth: 4)).isEmpty)
        let errors = validateRaw(query, options: ValidationOptions(maxDepth: 3))
        #expect(errors.map(\.message) == ["Anonymous operation has depth 4, which exceeds the maximum depth of 3."])
        #expect(errors.first?.locations.map(\.description) == ["1:1"])
        #expect(errors.first?.extensions == ["code": "QUERY_TOO_DEEP"])
    }

    @Test("maxDepth counts through fragments")
    func depthThroughFragments() {
        #expect(
            validate(
                "query Deep { dog { ...F } } fragment F on Dog { owner { name } }", options: ValidationOptions(maxDepth: 2))
                == [error("Operation \"Deep\" has depth 3, which exceeds the maximum depth of 2.", (1, 1))])
    }

    @Test("issue 51: maxDepth counts introspection like any other selection, through its fragments")
    func depthCountsIntrospection() {
        #expect(
            validate(
                "{ __schema { types { fields { type { name } } } } dog { name } }", options: ValidationOptions(maxDepth: 4))
                == [error("Anonymous operation has depth 5, which exceeds the maximum depth of 4.", (1, 1))])
        #expect(
            validate(
                "{ __type(name: \"Dog\") { ...T } } fragment T on __Type { interfaces { possibleTypes { name } } }",
                options: ValidationOptions(maxDepth: 3))
                == [error("Anonymous operation has depth 4, which exceeds the maximum depth of 3.", (1, 1))])
        #expect(validate("{ __schema { types { fields { type { name } } } } }", options: ValidationOptions(maxDepth: 5)).isEmpty)
    }

    @Test("maxDepth: the benchmark query has depth 8")
    func socialDepth() {
        #expect(validate(socialQuery, schema: socialSchema, options: ValidationOptions(maxDepth: 8)).isEmpty)
        #expect(
            validate(socialQuery, schema: socialSchema, options: ValidationOptions(maxDepth: 7)).map(\.message) == [
                "Operation \"ViewerFollowers\" has depth 8, which exceeds the maximum depth of 7."
            ])
    }

    @Test("maxFieldCount: 1 per field, first/last multiply the subtree, variable defaults count")
    func cost() {
        let schema = buildSchema("type Query { items(first: Int, last: Int): [Item] } type Item { id: ID sub(first: Int): [Item] }")
        let query = "query ($n: Int = 5) { items(first: 10) { id sub(first: $n) { id } } }"
        // items = 1 + 10 × (id 1 + sub (1 + 5 × id 1)) = 71
        #expect(validate(query, schema: schema, options: ValidationOptions(maxFieldCount: 71)).isEmpty)
        let errors = validateRaw(query, schema: schema, options: ValidationOptions(maxFieldCount: 70))
        #expect(errors.map(\.message) == ["Anonymous operation has a cost of 71, which exceeds the maximum cost of 70."])
        #expect(errors.first?.extensions == ["code": "QUERY_TOO_COMPLEX"])
        // No page size: the subtree counts once.
        #expect(
            validate("{ items { id } }", schema: schema, options: ValidationOptions(maxFieldCount: 1)).map(\.message) == [
                "Anonymous operation has a cost of 2, which exceeds the maximum cost of 1."
            ])
    }

    @Test("maxFieldCount: the benchmark query costs 6,412")
    func socialCost() {
        // ProfileCard 7; inner edges 1 + (1 + node 8) = 10; topFollowing 1 + 10 × 11 = 111;
        // follower 1 + 7 + 1 + 111 = 120; edges 122; pageInfo 5;
        // followers 1 + 50 × (1 + 5 + 122) = 6401; me 1 + 7 + 3 + 6401 = 6412.
        #expect(validate(socialQuery, schema: socialSchema, options: ValidationOptions(maxFieldCount: 6412)).isEmpty)
        #expect(
            validate(socialQuery, schema: socialSchema, options: ValidationOptions(maxFieldCount: 6411)).map(\.message) == [
                "Operation \"ViewerFollowers\" has a cost of 6412, which exceeds the maximum cost of 6411."
            ])
    }

    @Test("maxFieldCount saturates instead of overflowing")
    func costOverflow() {
        let schema = buildSchema("type Query { items(first: Int): [Item] } type Item { sub(first: Int): [Item] id: ID }")
        let query = "{ items(first: 2000000000) { sub(first: 2000000000) { sub(first: 2000000000) { id } } } }"
        #expect(
            validate(query, schema: schema, options: ValidationOptions(maxFieldCount: 1000)).map(\.message) == [
                "Anonymous operation has a cost of \(Int.max), which exceeds the maximum cost of 1000."
            ])
    }

    @Test("maxAliases: aliases count through fragments, each spread again, with TOO_MANY_ALIASES")
    func aliases() {
        let query = "{ x: dog { ...F } y: dog { ...F } } fragment F on Dog { n1: name n2: nickname }"
        #expect(validate(query, options: ValidationOptions(maxAliases: 6)).isEmpty)
        let errors = validateRaw(query, options: ValidationOptions(maxAliases: 5))
        #expect(errors.map(\.message) == ["Anonymous operation has 6 aliases, which exceeds the maximum of 5."])
        #expect(errors.first?.extensions == ["code": "TOO_MANY_ALIASES"])
    }

    @Test("guards are off by default")
    func offByDefault() {
        let deep = "{ dog { " + String(repeating: "owner { pets { ... on Dog { ", count: 20) + "name"
            + String(repeating: " } } }", count: 20) + " } }"
        #expect(validate(deep).isEmpty)
    }
}
