import GraphQLLanguage
import Testing

@testable import GraphQLEngine

/// The IBM GraphQL Cost Directive specification's rules, as Apollo Router's static estimator
/// applies them ("Calculating cost"), on a small schema with every kind of annotation.
@Suite("Demand control: estimated cost (IBM cost directives)")
struct CostEstimatorTests {
    static let sdl = """
        directive @cost(weight: Int!) on ARGUMENT_DEFINITION | ENUM | FIELD_DEFINITION | INPUT_FIELD_DEFINITION | OBJECT | SCALAR
        directive @listSize(assumedSize: Int, slicingArguments: [String!], sizedFields: [String!], requireOneSlicingArgument: Boolean = true) on FIELD_DEFINITION
        type Query {
          book(id: ID!): Book
          books(first: Int, last: Int): [Book!]! @listSize(assumedSize: 5, slicingArguments: ["first", "last"], requireOneSlicingArgument: false)
          shelf(first: Int): BookConnection! @listSize(assumedSize: 20, slicingArguments: ["first"], sizedFields: ["edges", "nodes"], requireOneSlicingArgument: false)
          unsized: [Book!]!
          search(text: String! @cost(weight: 7)): [Book!]! @cost(weight: 3) @listSize(assumedSize: 2)
          node: Node
        }
        type Mutation { rename(id: ID!, title: String!): Book }
        interface Node { id: ID! }
        type Book implements Node { id: ID! title: String! rating: Rating author: Author summary: String @cost(weight: 4) }
        type Author @cost(weight: 6) { name: String }
        scalar Rating @cost(weight: 2)
        type BookConnection { edges: [BookEdge!]! nodes: [Book!]! totalCount: Int! }
        type BookEdge { cursor: String! node: Book! }
        """
    let schema: GraphQLSchema
    let model: CostModel

    init() throws {
        schema = try SchemaBuilder.build(sdl: Self.sdl)
        model = CostModel(schema: schema, defaultListSize: 10)
    }

    func estimate(_ text: String, variables: JSONObject? = nil) throws -> CostEstimate {
        let document = try Document(parsing: text)
        let fragments = Dictionary(document.fragments.map { ($0.name.value, $0) }, uniquingKeysWith: { a, _ in a })
        return CostEstimator.estimate(
            document.operations[0], schema: schema, model: model, fragments: fragments, variables: variables)
    }

    @Test("field cost: an object costs 1, a scalar or enum 0, introspection nothing")
    func defaults() throws {
        #expect(try estimate("{ book(id: 1) { id title __typename } }").cost == 1)
        #expect(try estimate("{ __typename }").cost == 0)
        #expect(try estimate("{ node { id ... on Book { title author { name } } } }").cost == 1 + 6)
    }

    @Test("@cost: a field's weight replaces its type's; a type's weight applies wherever it is returned")
    func weights() throws {
        // book 1 + summary 4 + rating (scalar Rating @cost 2) + author (object Author @cost 6)
        #expect(try estimate("{ book(id: 1) { summary rating author { name } } }").cost == 1 + 4 + 2 + 6)
    }

    @Test("@cost on an argument definition counts when the argument is given")
    func argumentWeight() throws {
        // search: 2 (assumedSize) × (3 + 0) + argument text 7
        #expect(try estimate(#"{ search(text: "x") { id } }"#).cost == 2 * 3 + 7)
    }

    @Test("@listSize slicingArguments: the largest given counts; without one, assumedSize")
    func slicing() throws {
        #expect(try estimate("{ books(first: 3) { id } }").cost == 3)
        #expect(try estimate("{ books(first: 3, last: 8) { author { name } } }").cost == 8 * (1 + 6))
        #expect(try estimate("{ books { id } }").cost == 5)
    }

    @Test("a list without @listSize counts the default list size")
    func defaultListSize() throws {
        #expect(try estimate("{ unsized { id } }").cost == 10)
    }

    @Test("@listSize sizedFields: the slicing argument sizes a connection's edges and nodes, not the connection")
    func sizedFields() throws {
        // shelf 1 + edges 50 × (edge 1 + node 1) + nodes 50 × 1 + totalCount 0
        #expect(try estimate("{ shelf(first: 50) { edges { node { id } } nodes { id } totalCount } }").cost == 1 + 100 + 50)
        // through a fragment, the size still reaches the sized fields
        let text = "{ shelf(first: 4) { ...Page } } fragment Page on BookConnection { edges { cursor node { title } } }"
        #expect(try estimate(text).cost == 1 + 4 * 2)
        #expect(try estimate("{ shelf { edges { node { id } } } }").cost == 1 + 20 * 2)
    }

    @Test("a slicing variable takes the request's value, else its default, else assumedSize; the estimate says it depends on them")
    func variables() throws {
        let text = "query ($n: Int = 7) { books(first: $n) { id } }"
        #expect(try estimate(text, variables: ["n": 2]) == CostEstimate(cost: 2, dependsOnVariables: true))
        #expect(try estimate(text, variables: [:]).cost == 7)
        #expect(try estimate(text).cost == 7)
        #expect(try estimate("query ($n: Int) { books(first: $n) { id } }", variables: ["n": nil]).cost == 5)
        #expect(try estimate("{ books(first: 2) { id } }").dependsOnVariables == false)
    }

    @Test("a mutation costs 10 plus its fields")
    func mutationBase() throws {
        #expect(try estimate(#"mutation { rename(id: 1, title: "t") { author { name } } }"#).cost == 10 + 1 + 6)
    }

    @Test("arithmetic saturates instead of overflowing")
    func saturates() throws {
        let text = "{ books(first: 9223372036854775807) { author { name } } }"
        #expect(try estimate(text).cost == Int.max)
    }

    @Test("every fragment branch counts, an upper bound; a fragment is priced once")
    func fragments() throws {
        let text = "{ book(id: 1) { ...A ...B } } fragment A on Book { author { name } } fragment B on Book { author { name } ...A }"
        #expect(try estimate(text).cost == 1 + 6 + 6 + 6)
    }
}
