import GraphQLLanguage
import Testing

@testable import GraphQLEngine

@Suite("Demand control: actual cost of an answer")
struct ActualCostTests {
    let schema: GraphQLSchema
    let model: CostModel

    init() throws {
        schema = try SchemaBuilder.build(sdl: CostEstimatorTests.sdl)
        model = CostModel(schema: schema, defaultListSize: 10)
    }

    func actual(_ text: String, _ data: String) throws -> Int {
        let document = try Document(parsing: text)
        let fragments = Dictionary(document.fragments.map { ($0.name.value, $0) }, uniquingKeysWith: { a, _ in a })
        return ActualCost.of(
            document.operations[0], data: try JSONParser.parse(data), schema: schema, model: model, fragments: fragments)
    }

    @Test("lists count the elements they have, not the slicing argument")
    func listsAsReturned() throws {
        let text = "{ shelf(first: 50) { edges { node { author { name } } } totalCount } }"
        let data = #"{"shelf":{"edges":[{"node":{"author":{"name":"a"}}},{"node":{"author":null}}],"totalCount":2}}"#
        // shelf 1 + edge 1 + node 1 + author 6 + edge 1 + node 1 (a null author costs nothing)
        #expect(try actual(text, data) == 11)
    }

    @Test("aliases and fragments: each response key once, with its weights")
    func keysOnce() throws {
        let text = """
            mutation { a: rename(id: 1, title: "t") { ...F summary } }
            fragment F on Book { summary author { name } }
            """
        let data = #"{"a":{"summary":"s","author":{"name":"n"}}}"#
        #expect(try actual(text, data) == 10 + 1 + 4 + 6)
    }

    @Test("a null or absent data costs only the operation's base")
    func noData() throws {
        #expect(try actual("{ book(id: 1) { id } }", "null") == 0)
        #expect(try actual("{ book(id: 1) { id } }", #"{"book":null}"#) == 0)
    }
}
