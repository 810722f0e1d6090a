import GraphQLLanguage
import Testing

@testable import GraphQLEngine

/// A finished response must be freed with its result: every node of the result tree points
/// up at its container while execution runs, and the container down at it.
@Suite("Result tree: freed once the result is")
struct ResultTreeMemoryTests {
    @Test("a tree with async fields in nested objects and lists is freed when its result is dropped")
    func treeIsFreed() async throws {
        let unbound = try SchemaBuilder.build(sdl: """
            type Query { top: Node }
            type Node { name: String children: [Node] next: Node }
            """)
        var binder = SchemaBinder(schema: unbound)
        binder.bind("Query", "top") { _ in
            await Task.yield()
            return ["name": "top", "children": [["name": "a"], ["name": "b"]], "next": ["name": "n"]] as JSONValue
        }
        for field in ["children", "next"] {
            binder.bind("Node", field) { info in
                await Task.yield()
                return (info.parent as? JSONValue)?[field] ?? .null
            }
        }
        let schema = try binder.finish(requireAll: false)
        var result: ExecutionResult? = try await run(schema, "{ top { name children { name next { name } } next { name children { name } } } }")
        #expect(result?.jsonString == #"{"data":{"top":{"name":"top","children":[{"name":"a","next":null},{"name":"b","next":null}],"next":{"name":"n","children":null}}}}"#)
        // Weak references to nodes at every level; the strong ones end with this closure.
        let nodes: [() -> AnyObject?] = {
            guard case .object(let root)? = result?.dataTree, case .object(let top) = root.values[0],
                  case .list(let children) = top.values[1], case .object(let next) = top.values[2]
            else { return [] }
            return [{ [weak root] in root }, { [weak top] in top }, { [weak children] in children }, { [weak next] in next }]
        }()
        #expect(nodes.count == 4, "the response has a tree of async nodes")
        #expect(nodes.allSatisfy { $0() != nil })
        result = nil
        #expect(nodes.allSatisfy { $0() == nil }, "every node is freed with the result")
    }
}
