import Testing

@testable import GraphQLEngine

/// Schema first: resolvers attach by name, mismatches stop start-up, and binding never writes into
/// a schema someone already holds.
@Suite("SchemaBinder")
struct SchemaBinderTests {
    static let sdl = """
        type Query { greeting: String node: Node }
        interface Node { id: ID! }
        type Item implements Node { id: ID! }
        """

    @Test("finish returns a bound schema and leaves the one it was given as it was")
    func bindingBuildsANewSchema() async throws {
        let unbound = try SchemaBuilder.build(sdl: Self.sdl)
        var binder = SchemaBinder(schema: unbound)
        binder.bindSync("Query", "greeting") { _ in "bound" }
        let bound = try binder.finish(requireAll: false)
        #expect(bound !== unbound)
        #expect(unbound.queryType.field(named: "greeting")?.resolver == nil)
        #expect(bound.queryType.field(named: "greeting")?.resolver != nil)
        let fromBound = try await run(bound, "{ greeting }", root: ["greeting": "default"])
        #expect(fromBound.jsonString == #"{"data":{"greeting":"bound"}}"#)
        // The unbound schema still reads the field by name from the root value.
        let fromUnbound = try await run(unbound, "{ greeting }", root: ["greeting": "default"])
        #expect(fromUnbound.jsonString == #"{"data":{"greeting":"default"}}"#)
    }

    @Test("§4 introspection resolvers are in every built schema, bound or not")
    func introspectionBuiltIn() async throws {
        let unbound = try SchemaBuilder.build(sdl: Self.sdl)
        let bound = try SchemaBinder(schema: unbound).finish(requireAll: false)
        for schema in [unbound, bound] {
            let result = try await run(schema, #"{ __schema { queryType { name } } __type(name: "Item") { kind interfaces { name } } }"#)
            #expect(result.jsonString == #"{"data":{"__schema":{"queryType":{"name":"Query"}},"__type":{"kind":"OBJECT","interfaces":[{"name":"Node"}]}}}"#)
        }
    }

    @Test("bindings to unknown types or fields, twice to one field, and (requireAll) unbound fields are all reported at once")
    func mismatchesReported() throws {
        let schema = try SchemaBuilder.build(sdl: Self.sdl)
        var binder = SchemaBinder(schema: schema)
        binder.bindSync("Nope", "x") { _ in nil }
        binder.bindSync("Node", "id") { _ in nil }
        binder.bindSync("Query", "missing") { _ in nil }
        binder.bindSync("Query", "greeting") { _ in nil }
        binder.bindSync("Query", "greeting") { _ in nil }
        binder.resolveType("Item") { _ in nil }
        do {
            _ = try binder.finish(requireAll: true)
            Issue.record("finish accepted bindings that do not match the schema")
        } catch {
            #expect(error.problems == [
                #"Resolver bound to Nope.x, but the schema has no type "Nope"."#,
                #"Resolver bound to Node.id, but "Node" is not an object type."#,
                #"Resolver bound to Query.missing, but "Query" has no field "missing"."#,
                "Resolver bound twice to Query.greeting.",
                #"Type resolver bound to "Item", which is not an interface or union of the schema."#,
                "No resolver bound to Query.node.",
                "No resolver bound to Item.id.",
                "No type resolver bound to interface Node.",
            ])
        }
    }
}
