import Foundation
import GraphQLLanguage
import Synchronization
import Testing

@testable import GraphQLEngine

/// Counts arrivals; `wait(for:)` returns once `n` have arrived (or gives up after a bound).
final class Rendezvous: Sendable {
    private let arrived = Mutex(0)
    func arrive() { arrived.withLock { $0 += 1 } }
    func wait(for n: Int) async -> Bool {
        for _ in 0..<2000 {
            if arrived.withLock({ $0 }) >= n { return true }
            try? await Task.sleep(nanoseconds: 1_000_000)
        }
        return false
    }
}

/// Records events in order.
final class EventLog: Sendable {
    private let events = Mutex<[String]>([])
    func add(_ event: String) { events.withLock { $0.append(event) } }
    var all: [String] { events.withLock { $0 } }
}

@Suite("§6 Execution: concurrency, serial mutations, DataLoader batching")
struct ConcurrencyTests {
    @Test("§6.3 async query fields run concurrently: each waits until the other has started")
    func concurrentFields() async throws {
        let unbound = try SchemaBuilder.build(sdl: "type Query { a: Boolean b: Boolean }")
        let meeting = Rendezvous()
        var binder = SchemaBinder(schema: unbound)
        for field in ["a", "b"] {
            binder.bind("Query", field) { _ in
                meeting.arrive()
                return await meeting.wait(for: 2)
            }
        }
        let schema = try binder.finish(requireAll: true)
        let result = try await run(schema, "{ a b }")
        #expect(result.jsonString == #"{"data":{"a":true,"b":true}}"#)
    }

    @Test("§6.2.2 mutation root fields run one after another, in document order")
    func serialMutations() async throws {
        let unbound = try SchemaBuilder.build(sdl: "type Query { x: Int } type Mutation { first: Int second: Int third: Int }")
        let log = EventLog()
        var binder = SchemaBinder(schema: unbound)
        for (i, field) in ["first", "second", "third"].enumerated() {
            binder.bind("Mutation", field) { _ in
                log.add("start \(field)")
                // The first is the slowest: if fields overlapped, the others would start before it ends.
                try await Task.sleep(nanoseconds: UInt64(3 - i) * 5_000_000)
                log.add("end \(field)")
                return i
            }
        }
        let schema = try binder.finish(requireAll: false)
        let result = try await run(schema, "mutation { third second first }")
        #expect(result.jsonString == #"{"data":{"third":2,"second":1,"first":0}}"#)
        #expect(log.all == ["start third", "end third", "start second", "end second", "start first", "end first"])
    }

    /// A tree of numbered nodes: node n has children 10n+1 ... 10n+3. Labels come from a
    /// `DataLoader<Int, String>` in the context; children from a second loader when `asyncChildren`.
    struct Loaders: Sendable {
        let labels: DataLoader<Int, String>
        let children: DataLoader<Int, [Int]>?
    }

    func loaderSchema(asyncChildren: Bool = false) throws -> GraphQLSchema {
        let unbound = try SchemaBuilder.build(sdl: """
            type Query { roots: [Node!]! }
            type Node { id: Int! label: String children: [Node!]! }
            """)
        var binder = SchemaBinder(schema: unbound)
        binder.bindSync("Query", "roots") { _ in [1, 2, 3, 2] }
        binder.bindSync("Node", "id") { try $0.parent(as: Int.self) }
        if asyncChildren {
            binder.bind("Node", "children") { info in
                try await info.context(as: Loaders.self).children!.load(try info.parent(as: Int.self)) ?? []
            }
        } else {
            binder.bindSync("Node", "children") { info in
                let n = try info.parent(as: Int.self)
                return [10 * n + 1, 10 * n + 2, 10 * n + 3]
            }
        }
        binder.bind("Node", "label") { info in
            try await info.context(as: Loaders.self).labels.load(try info.parent(as: Int.self))
        }
        let schema = try binder.finish(requireAll: true)
        return schema
    }

    func labelLoader(_ calls: EventLog, maxBatchSize: Int = 100) -> DataLoader<Int, String> {
        DataLoader(maxBatchSize: maxBatchSize) { keys in
            calls.add("labels " + keys.sorted().map(String.init).joined(separator: ","))
            return Dictionary(uniqueKeysWithValues: keys.map { ($0, "n\($0)") })
        }
    }

    @Test("DataLoader: every load found before anything waits is one batch call, de-duplicated")
    func batchingOneWave() async throws {
        let calls = EventLog()
        let loaders = Loaders(labels: labelLoader(calls), children: nil)
        let result = try await run(try loaderSchema(), "{ roots { id label children { label } } }", context: loaders)
        #expect(result.errors.isEmpty)
        #expect(calls.all == ["labels 1,2,3,11,12,13,21,22,23,31,32,33"])
        #expect(result.data?["roots"]?.arrayValue?[3]["children"]?.arrayValue?[2]["label"] == "n23")
    }

    @Test("DataLoader: when a level's objects come from a loader, each level is one call per loader")
    func batchingPerLevel() async throws {
        let calls = EventLog()
        let children = DataLoader<Int, [Int]> { keys in
            calls.add("children " + keys.sorted().map(String.init).joined(separator: ","))
            return Dictionary(uniqueKeysWithValues: keys.map { n in (n, [10 * n + 1, 10 * n + 2]) })
        }
        let loaders = Loaders(labels: labelLoader(calls), children: children)
        let result = try await run(
            try loaderSchema(asyncChildren: true), "{ roots { label children { label children { id } } } }", context: loaders)
        #expect(result.errors.isEmpty)
        #expect(calls.all.sorted() == [
            "children 1,2,3", "children 11,12,21,22,31,32", "labels 1,2,3", "labels 11,12,21,22,31,32",
        ])
        #expect(result.data?["roots"]?.arrayValue?[0]["children"]?.arrayValue?[1]["children"]?.arrayValue?[0]["id"] == 121)
    }

    @Test("DataLoader.prefetch: keys a resolver queues without waiting go in the wave it waits on, not in the next")
    func prefetchJoinsTheWave() async throws {
        let calls = EventLog()
        let children = DataLoader<Int, [Int]> { keys in
            calls.add("children " + keys.sorted().map(String.init).joined(separator: ","))
            return Dictionary(uniqueKeysWithValues: keys.map { n in (n, [10 * n + 1]) })
        }
        let labels = labelLoader(calls)
        let unbound = try SchemaBuilder.build(sdl: """
            type Query { roots: [Node!]! }
            type Node { id: Int! label: String children: [Node!]! }
            """)
        var binder = SchemaBinder(schema: unbound)
        binder.bindSync("Query", "roots") { _ in [1, 2] }
        binder.bindSync("Node", "id") { try $0.parent(as: Int.self) }
        // `children` knows its nodes will be asked their labels: it queues them with its own load.
        binder.bind("Node", "children") { info in
            let loaders = try info.context(as: Loaders.self)
            let n = try info.parent(as: Int.self)
            if case .object(let node) = info.field.type.namedType, info.selects("label", on: node) {
                loaders.labels.prefetch([10 * n + 1])
            }
            return try await loaders.children!.load(n) ?? []
        }
        binder.bind("Node", "label") { info in
            try await info.context(as: Loaders.self).labels.load(try info.parent(as: Int.self))
        }
        let schema = try binder.finish(requireAll: true)
        let result = try await run(schema, "{ roots { children { label } } }", context: Loaders(labels: labels, children: children))
        #expect(result.jsonString == #"{"data":{"roots":[{"children":[{"label":"n11"}]},{"children":[{"label":"n21"}]}]}}"#)
        // One wave: the children and the labels they will need, together; the labels' resolvers
        // then find their values loaded.
        #expect(calls.all.sorted() == ["children 1,2", "labels 11,21"])
        // Without the label in the selection, nothing is prefetched.
        let plain = EventLog()
        _ = try await run(schema, "{ roots { children { id } } }", context: Loaders(labels: labelLoader(plain), children: children))
        #expect(plain.all.isEmpty)
    }

    @Test("ResolveInfo.selects: a name found through fragments whose type applies, @skip and @include honoured (§6.3.2 CollectFields)")
    func selectsFollowsCollectFields() async throws {
        let unbound = try SchemaBuilder.build(sdl: """
            type Query { node: Node }
            interface Named { name: String }
            type Node implements Named { id: Int name: String other: Other }
            type Other { name: String }
            """)
        let seen = EventLog()
        var binder = SchemaBinder(schema: unbound)
        binder.bindSync("Query", "node") { info in
            guard case .object(let node) = info.field.type.namedType else { return nil }
            seen.add(["id", "name", "missing"].filter { info.selects($0, on: node) }.joined(separator: ","))
            return 1
        }
        binder.bindSync("Node", "id") { _ in 1 }
        binder.bindSync("Node", "name") { _ in "n" }
        binder.bindSync("Node", "other") { _ in nil }
        binder.bindSync("Other", "name") { _ in "o" }
        binder.resolveType("Named") { _ in "Node" }
        let schema = try binder.finish(requireAll: true)
        let documents = [
            "{ node { id } }",
            "{ node { ...F } } fragment F on Node { name }",
            "{ node { ... on Named { name } } }",
            "{ node { ... on Other { name } id } }",
            "{ node { other { name } } }",
            "query($s: Boolean = true) { node { name @skip(if: $s) id @include(if: $s) } }",
        ]
        for document in documents { _ = try await run(schema, document) }
        #expect(seen.all == ["id", "name", "name", "id", "", "id"])
    }

    @Test("DataLoader: maxBatchSize splits a level's keys into several calls")
    func maxBatchSize() async throws {
        let calls = EventLog()
        let loader = DataLoader<Int, String>(maxBatchSize: 4) { keys in
            calls.add("\(keys.count)")
            return Dictionary(uniqueKeysWithValues: keys.map { ($0, "n\($0)") })
        }
        _ = try await run(try loaderSchema(), "{ roots { children { label } } }", context: Loaders(labels: loader, children: nil))
        #expect(calls.all.map { Int($0)! }.reduce(0, +) == 9)
        #expect(calls.all.allSatisfy { Int($0)! <= 4 })
    }

    @Test("DataLoader: a failing batch fails every field that waited on it, with the error in the response")
    func batchErrors() async throws {
        let loader = DataLoader<Int, String> { _ in throw ResolverError("store is down", extensions: ["code": "BACKEND_UNAVAILABLE"]) }
        let result = try await run(try loaderSchema(), "{ roots { id label } }", context: Loaders(labels: loader, children: nil))
        #expect(result.errors.count == 4)
        #expect(result.errors.allSatisfy { $0.message == "store is down" && $0.extensions?["code"] == "BACKEND_UNAVAILABLE" })
        #expect(result.data?["roots"]?.arrayValue?.first == ["id": 1, "label": nil])
    }

    @Test("DataLoader: a key loaded once is memoized for the request; prime and clear control the cache")
    func memoization() async throws {
        let calls = EventLog()
        let loader = DataLoader<Int, String> { keys in
            calls.add(keys.map(String.init).joined(separator: ","))
            return Dictionary(uniqueKeysWithValues: keys.map { ($0, "v\($0)") })
        }
        #expect(try await loader.load(1) == "v1")
        #expect(try await loader.load(1) == "v1")
        loader.prime(2, "primed")
        #expect(try await loader.load(2) == "primed")
        loader.clear(1)
        #expect(try await loader.loadMany([1, 3]) == ["v1", "v3"])
        #expect(calls.all == ["1", "1,3"])
    }
}
