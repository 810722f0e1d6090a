import Foundation
import GraphQLLanguage
import Synchronization
import Testing

@testable import GraphQLEngine

/// Issue 38: `ResolveInfo` held `unowned(unsafe)` references to the planned field and the
/// execution, so a resolver that kept its info past the request read freed memory. It holds
/// them strongly now: what a kept info reads is what it read during the request.
@Suite("ResolveInfo kept past its request")
struct ResolveInfoLifetimeTests {
    final class Kept: Sendable {
        let infos = Mutex<[ResolveInfo]>([])
    }

    func schema(_ kept: Kept) throws -> GraphQLSchema {
        let unbound = try SchemaBuilder.build(sdl: "type Query { greet(name: String!): String }")
        var binder = SchemaBinder(schema: unbound)
        binder.bindSync("Query", "greet") { info in
            kept.infos.withLock { $0.append(info) }
            return "hello " + (info.arguments.string("name") ?? "?")
        }
        return try binder.finish(requireAll: true)
    }

    @Test("after the request (and many others since), a kept info still names its field, arguments, type and context")
    func keptInfoStaysValid() async throws {
        let kept = Kept()
        let schema = try schema(kept)
        let first = try await run(schema, #"{ greet(name: "ada") }"#, context: "request one")
        #expect(first.jsonString == #"{"data":{"greet":"hello ada"}}"#)
        // Other requests allocate and free plans and contexts meanwhile.
        for index in 0..<200 { _ = try await run(schema, "{ greet(name: \"n\(index)\") }", context: "request \(index)") }
        let info = try #require(kept.infos.withLock { $0.first })
        #expect(info.field.name == "greet")
        #expect(info.arguments.string("name") == "ada")
        #expect(info.parentType.name == "Query")
        #expect(try info.context(as: String.self) == "request one")
        #expect(info.schema.queryType.name == "Query")
    }
}
