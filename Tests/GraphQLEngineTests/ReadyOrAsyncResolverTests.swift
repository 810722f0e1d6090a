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

    /// Groups of items whose `label` is ready for even ids only, beside fields that fail
    /// (`broken` always, `required` is null for id 1), to see what an inline attempt that meets
    /// a label not at hand leaves behind once taken back.
    func attemptSchema() throws -> GraphQLSchema {
        let unbound = try SchemaBuilder.build(sdl: """
            type Query { items: [Item]! groups: [Group!]! }
            type Group { id: Int! items: [Item!]! }
            type Item { id: Int! broken: String required: String! label: String }
            """)
        var binder = SchemaBinder(schema: unbound)
        binder.bindSync("Query", "items") { _ in [1, 2, 3, 4] }
        binder.bindSync("Query", "groups") { _ in [1, 2] }
        binder.bindSync("Group", "id") { try $0.parent(as: Int.self) }
        binder.bindSync("Group", "items") { info in
            let id = try info.parent(as: Int.self)
            return id == 1 ? [10, 11] : [20, 22]
        }
        binder.bindSync("Item", "id") { try $0.parent(as: Int.self) }
        binder.bindSync("Item", "broken") { info in throw ResolverError("broken \(try info.parent(as: Int.self))") }
        binder.bindSync("Item", "required") { info in try info.parent(as: Int.self) == 1 ? nil : "present" }
        binder.bind("Item", "label", ready: { info in
            let id = try info.parent(as: Int.self)
            return id.isMultiple(of: 2) ? .ready("label \(id)") : .notReady
        }, otherwise: { info in
            try await Task.sleep(nanoseconds: 1_000_000)
            return "label \(try info.parent(as: Int.self))"
        })
        return try binder.finish(requireAll: true)
    }

    @Test("§6.4.4 an object tried inline and taken back at a value not at hand reports each error once, in order")
    func abandonedAttemptErrorsOnce() async throws {
        let result = try await run(try attemptSchema(), "{ items { broken label } }")
        #expect(result.errors.map(\.message) == ["broken 1", "broken 2", "broken 3", "broken 4"])
        #expect(result.errors.map(\.path) == (0..<4).map { [.key("items"), .index($0), .key("broken")] })
        #expect(result.data?["items"]?.arrayValue?.map { $0["label"] } == ["label 1", "label 2", "label 3", "label 4"])
    }

    @Test("§6.4.4 a non-null violation met before a value not at hand is reported once, and nulls its object once")
    func abandonedAttemptNonNullOnce() async throws {
        let result = try await run(try attemptSchema(), "{ items { id required label } }")
        #expect(result.jsonString == #"{"errors":[{"message":"Cannot return null for non-nullable field Item.required.","locations":[{"line":1,"column":14}],"path":["items",0,"required"]}],"data":{"items":[null,{"id":2,"required":"present","label":"label 2"},{"id":3,"required":"present","label":"label 3"},{"id":4,"required":"present","label":"label 4"}]}}"#)
    }

    @Test("a value not at hand deep in a list takes back its whole object; a sibling object with every value at hand is unaffected")
    func abandonedAttemptDeepInList() async throws {
        let result = try await run(try attemptSchema(), "{ groups { id items { id label } } }")
        #expect(result.jsonString == #"{"data":{"groups":[{"id":1,"items":[{"id":10,"label":"label 10"},{"id":11,"label":"label 11"}]},{"id":2,"items":[{"id":20,"label":"label 20"},{"id":22,"label":"label 22"}]}]}}"#)
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
