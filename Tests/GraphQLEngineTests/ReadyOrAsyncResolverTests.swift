import Foundation
import GraphQLLanguage
import Synchronization
import Testing

@testable import GraphQLEngine

/// `FieldResolver.readyOrAsync`: a field answered inline when its value is at hand, through its
/// async resolver otherwise; same answers and errors either way.
@Suite("Ready-or-async resolvers")
struct ReadyOrAsyncResolverTests {
    /// `items` lists 1...4; each `label` is ready for even ids (the value is "known"), waits
    /// for odd ones. The log says which path answered.
    func schema(_ log: EventLog, failReady: Int? = nil) throws -> GraphQLSchema {
        let unbound = try SchemaBuilder.build(sdl: "type Query { items: [Item!]! } type Item { id: Int! label: String }")
        var binder = SchemaBinder(schema: unbound)
        binder.bindSync("Query", "items") { _ in [1, 2, 3, 4] }
        binder.bindSync("Item", "id") { try $0.parent(as: Int.self) }
        binder.bind("Item", "label", ready: { info in
            let id = try info.parent(as: Int.self)
            if id == failReady { throw ResolverError("no label for \(id)") }
            guard id.isMultiple(of: 2) else { return .notReady }
            log.add("ready \(id)")
            return .ready(id == 4 ? nil : "label \(id)")
        }, otherwise: { info in
            let id = try info.parent(as: Int.self)
            try await Task.sleep(nanoseconds: 1_000_000)
            log.add("waited \(id)")
            return "label \(id)"
        })
        return try binder.finish(requireAll: true)
    }

    @Test("values at hand are answered inline, the others by the async resolver; nil is null either way")
    func bothPaths() async throws {
        let log = EventLog()
        let result = try await run(try schema(log), "{ items { id label } }")
        #expect(result.jsonString
            == #"{"data":{"items":[{"id":1,"label":"label 1"},{"id":2,"label":"label 2"},{"id":3,"label":"label 3"},{"id":4,"label":null}]}}"#)
        #expect(Set(log.all) == ["ready 2", "ready 4", "waited 1", "waited 3"])
    }

    @Test("an error from the inline path is a field error at its path, as from any resolver")
    func readyError() async throws {
        let result = try await run(try schema(EventLog(), failReady: 2), "{ items { id label } }")
        #expect(result.errors.map(\.message) == ["no label for 2"])
        #expect(result.errors.first?.path == [.key("items"), .index(1), .key("label")])
        #expect(result.data?["items"]?.arrayValue?[1] == ["id": 2, "label": nil])
    }

    @Test("DataLoader.peek tells a loaded value without loading: nil before, the value after, nil again once cleared")
    func peek() async throws {
        let loader = DataLoader<Int, String> { keys in Dictionary(uniqueKeysWithValues: keys.map { ($0, "v\($0)") }) }
        #expect(loader.peek(1) == nil)
        _ = try await loader.load(1)
        #expect(try loader.peek(1)?.get() == "v1")
        loader.prime(2, nil)
        #expect(try loader.peek(2)?.get() == .some(nil))
        loader.clear(1)
        #expect(loader.peek(1) == nil)
    }
}
