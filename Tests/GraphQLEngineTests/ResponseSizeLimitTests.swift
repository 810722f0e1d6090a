import Foundation
import GraphQLLanguage
import Synchronization
import Testing

@testable import GraphQLEngine

/// `GraphQLRequest.maxResponseBytes` (issue 51): the response is counted while it is built, on
/// both completion paths; past the limit execution stops, nothing of the data is kept, and the
/// result is one `RESPONSE_TOO_LARGE` error.
@Suite("Response size limit: execution stops past maxResponseBytes")
struct ResponseSizeLimitTests {
    static let sdl = """
        type Query { items(count: Int!): [Item!]! asyncItems(count: Int!): [Item!]! small: String }
        type Subscription { tick: Tick }
        type Tick { items(count: Int!): [Item!]! }
        type Item { n: Int! label: String! }
        """

    /// Counts the `label` resolutions: how far execution went.
    final class Counter: Sendable {
        private let value = Mutex(0)
        func increment() { value.withLock { $0 += 1 } }
        var count: Int { value.withLock { $0 } }
    }

    /// `items` resolves synchronously (the direct-to-JSON path), `asyncItems` asynchronously (the
    /// result tree, whose items are then written inline); `label` counts its calls.
    static func schema(_ counter: Counter) throws -> GraphQLSchema {
        var binder = SchemaBinder(schema: try SchemaBuilder.build(sdl: sdl))
        let items: @Sendable (ResolveInfo) -> [Int] = { info in Array(0..<(info.arguments.int("count") ?? 0)) }
        binder.bindSync("Query", "items") { info in items(info) }
        binder.bind("Query", "asyncItems") { info in items(info) }
        binder.bindSync("Query", "small") { _ in "ok" }
        binder.bindSync("Tick", "items") { info in items(info) }
        binder.bindSync("Item", "n") { info in try info.parent(as: Int.self) }
        binder.bindSync("Item", "label") { info in
            counter.increment()
            return "item number \(try info.parent(as: Int.self))"
        }
        return try binder.finish(requireAll: false)
    }

    static func execute(_ schema: GraphQLSchema, _ query: String, limit: Int?) async throws -> ExecutionResult {
        let document = try Document(parsing: query)
        return await Executor.execute(schema: schema, request: GraphQLRequest(document: document, maxResponseBytes: limit))
    }

    @Test("a response within the limit is answered whole, byte for byte as without a limit")
    func withinLimit() async throws {
        let schema = try Self.schema(Counter())
        let unbounded = try await Self.execute(schema, "{ items(count: 10) { n label } }", limit: nil).serialized()
        let bounded = try await Self.execute(schema, "{ items(count: 10) { n label } }", limit: unbounded.count)
        #expect(bounded.serialized() == unbounded)
        #expect(!bounded.isResponseTooLarge)
    }

    @Test("past the limit on the direct path, execution stops: few items resolved, no data, RESPONSE_TOO_LARGE")
    func directPathStops() async throws {
        let counter = Counter()
        let schema = try Self.schema(counter)
        let result = try await Self.execute(schema, "{ items(count: 100000) { n label } }", limit: 4_096)
        #expect(result.isResponseTooLarge)
        #expect(!result.hasData)
        #expect(result.errors.map(\.message) == [
            "The response would be larger than 4096 bytes, the most this server sends; select fewer fields or smaller pages."
        ])
        #expect(result.errors.first?.extensions == ["code": "RESPONSE_TOO_LARGE", "maxBytes": 4096])
        // Each item writes about 40 bytes: execution stopped within a few items past the limit,
        // not after building the 100,000 (about 4 MB) it was asked for.
        #expect(counter.count < 200)
        #expect(result.serialized().count < 512)
    }

    @Test("past the limit on the result-tree path (an async list), execution stops as well")
    func treePathStops() async throws {
        let counter = Counter()
        let schema = try Self.schema(counter)
        let result = try await Self.execute(schema, "{ small asyncItems(count: 100000) { n label } }", limit: 4_096)
        #expect(result.isResponseTooLarge)
        #expect(!result.hasData)
        #expect(counter.count < 200)
    }

    @Test("an answer just over the limit is refused, one at the limit is not: the bound is exact")
    func exactBound() async throws {
        let schema = try Self.schema(Counter())
        let query = "{ small asyncItems(count: 30) { n label } }"
        let size = try await Self.execute(schema, query, limit: nil).serialized().count
        #expect(try await !Self.execute(schema, query, limit: size).isResponseTooLarge)
        let over = try await Self.execute(schema, query, limit: size - 1)
        #expect(over.serialized() == ExecutionResult.responseTooLarge(limit: size - 1).serialized())
    }

    @Test("a subscription event's answer is held to the same limit")
    func subscriptionEvent() async throws {
        let schema = try Self.schema(Counter())
        let document = try Document(parsing: "subscription { tick { items(count: 5000) { n label } } }")
        let event: JSONValue = ["tick": [:]]
        let result = await Executor.executeSubscriptionEvent(
            schema: schema, request: GraphQLRequest(document: document, rootValue: event, maxResponseBytes: 2_048))
        #expect(result.isResponseTooLarge)
        #expect(result.errors.first?.extensions?["code"] == "RESPONSE_TOO_LARGE")
    }
}
