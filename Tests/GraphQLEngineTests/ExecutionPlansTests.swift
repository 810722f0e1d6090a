import Foundation
import GraphQLLanguage
import Testing

@testable import GraphQLEngine

/// Execution plans kept per document between requests (`ExecutionPlans`): a reused plan answers
/// exactly as a new one would, whatever the request's variables.
@Suite("§6.3 Execution plans reused between requests of a document")
struct ExecutionPlansTests {
    /// `items(first:)` lists 1...first; each item's `label(prefix:)` and `id`.
    func schema() throws -> GraphQLSchema {
        let unbound = try SchemaBuilder.build(sdl: """
            type Query { items(first: Int!): [Item!]! echo(text: String, list: [String]): String }
            type Item { id: Int! label(prefix: String!): String! }
            """)
        var binder = SchemaBinder(schema: unbound)
        binder.bindSync("Query", "items") { info in Array(1...max(info.arguments.int("first") ?? 0, 1)) }
        binder.bindSync("Query", "echo") { info in
            (info.arguments.string("text") ?? "-") + "/" + (info.arguments["list"]?.arrayValue?.compactMap(\.stringValue).joined(separator: ",") ?? "")
        }
        binder.bindSync("Item", "id") { try $0.parent(as: Int.self) }
        binder.bind("Item", "label") { info in
            try await Task.sleep(nanoseconds: 100_000)
            return "\(info.arguments.string("prefix") ?? "?")\(try info.parent(as: Int.self))"
        }
        return try binder.finish(requireAll: true)
    }

    func execute(_ schema: GraphQLSchema, _ document: Document, _ source: Source, _ variables: JSONObject, _ plans: ExecutionPlans?) async -> String {
        await Executor.execute(
            schema: schema, request: GraphQLRequest(document: document, source: source, variables: variables, plans: plans)
        ).jsonString
    }

    @Test("a kept plan is reused with the next request's variables: arguments that read variables, nested in lists too, take the new values")
    func variablesAreTheRequests() async throws {
        let schema = try schema()
        let source = Source("query Q($n: Int!, $p: String!, $t: String) { items(first: $n) { id label(prefix: $p) } echo(text: $t, list: [$t, \"x\"]) }")
        let document = try Document(parsing: source)
        let plans = ExecutionPlans()
        for (n, p, t) in [(2, "a", "one"), (3, "b", "two"), (1, "c", "three")] {
            let variables: JSONObject = ["n": .int(n), "p": .string(p), "t": .string(t)]
            let reused = await execute(schema, document, source, variables, plans)
            #expect(reused == (await execute(schema, document, source, variables, nil)), "the reused plan answered otherwise for n=\(n)")
            #expect(reused.contains(#""echo":"\#(t)/\#(t),x""#))
            #expect(plans.count == 1)
        }
    }

    @Test("§6.3.2 a plan whose selections read a variable (@include(if: $v)) is not kept: each request collects its own")
    func directivesWithVariablesAreNotKept() async throws {
        let schema = try schema()
        let source = Source("query Q($v: Boolean!) { items(first: 1) { id label(prefix: \"p\") @include(if: $v) } }")
        let document = try Document(parsing: source)
        let plans = ExecutionPlans()
        #expect(await execute(schema, document, source, ["v": true], plans) == #"{"data":{"items":[{"id":1,"label":"p1"}]}}"#)
        #expect(await execute(schema, document, source, ["v": false], plans) == #"{"data":{"items":[{"id":1}]}}"#)
        #expect(plans.count == 0)
    }

    @Test("requests of one document running at once each get a plan of their own and their own answer")
    func concurrentRequests() async throws {
        let schema = try schema()
        let source = Source("query Q($n: Int!, $p: String!) { items(first: $n) { id label(prefix: $p) } }")
        let document = try Document(parsing: source)
        let plans = ExecutionPlans(limitPerOperation: 2)
        let mismatches = EventLog()
        await withTaskGroup(of: Void.self) { group in
            for i in 0..<64 {
                group.addTask {
                    let n = i % 5 + 1, p = "v\(i)-"
                    let answer = await execute(schema, document, source, ["n": .int(n), "p": .string(p)], plans)
                    let expected = (1...n).map { #"{"id":\#($0),"label":"\#(p)\#($0)"}"# }.joined(separator: ",")
                    if answer != #"{"data":{"items":[\#(expected)]}}"# { mismatches.add(answer) }
                }
            }
        }
        #expect(mismatches.all == [])
        #expect(plans.count <= 2)
    }

    @Test("a plan of more planned fields than the bound is not kept: its document's text does not bound it, fragments multiply it")
    func largePlansAreNotKept() async throws {
        let schema = try schema()
        let source = Source("query Q($p: String!) { items(first: 2) { id label(prefix: $p) } }")
        let document = try Document(parsing: source)
        let small = ExecutionPlans(maxFieldsPerPlan: 2)
        #expect(await execute(schema, document, source, ["p": "a"], small) == #"{"data":{"items":[{"id":1,"label":"a1"},{"id":2,"label":"a2"}]}}"#)
        #expect(small.count == 0, "a plan of 3 planned fields was kept under a bound of 2")
        let enough = ExecutionPlans(maxFieldsPerPlan: 3)
        _ = await execute(schema, document, source, ["p": "a"], enough)
        #expect(enough.count == 1)
    }
}
