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

    @Test("field cost: an object costs 1, a scalar or enum 0 (__typename too)")
    func defaults() throws {
        #expect(try estimate("{ book(id: 1) { id title __typename } }").cost == 1)
        #expect(try estimate("{ __typename }").cost == 0)
        #expect(try estimate("{ node { id ... on Book { title author { name } } } }").cost == 1 + 6)
    }

    @Test("issue 51: introspection costs what its answer holds: one unit per object, counted on the schema")
    func introspectionExact() throws {
        // __schema 1 + one __Type per type of the schema.
        #expect(try estimate("{ __schema { types { name } } }").cost == 1 + schema.typeNames.count)
        #expect(try estimate(#"{ __type(name: "Node") { possibleTypes { name } } }"#).cost == 1 + 1)
        #expect(try estimate(#"{ __type(name: "Book") { fields { name } } }"#).cost == 1 + 5)
        // Book's five fields, their five types, and the named types inside ID! and String!.
        #expect(try estimate(#"{ __type(name: "Book") { fields { type { ofType { name } } } } }"#).cost == 1 + 5 + 5 + 2)
        // A type that does not exist answers null: nothing.
        #expect(try estimate(#"{ __type(name: "Nope") { fields { name } } }"#).cost == 0)
        // Fragments and inline fragments on the introspection types count; others do not apply.
        #expect(try estimate(#"{ __type(name: "Book") { ...F ... on __Type { interfaces { name } } } } fragment F on __Type { fields { name } }"#).cost == 1 + 5 + 1)
        #expect(try estimate(#"{ __type(name: "Book") { ... on __Field { name } } }"#).cost == 1)
    }

    @Test("issue 51: nested interfaces/possibleTypes cost what they would answer, priced without walking it")
    func introspectionNested() throws {
        // Book -> [Node] -> [Book] -> [Node] -> [Book]: four objects.
        #expect(try estimate(#"{ __type(name: "Book") { interfaces { possibleTypes { interfaces { possibleTypes { name } } } } } }"#).cost == 1 + 4)
        // Under __schema.types, every type's chain counts: Book alone has an interface.
        #expect(try estimate("{ __schema { types { interfaces { possibleTypes { name } } } } }").cost == 1 + schema.typeNames.count + 2)
    }

    @Test("issue 51: __type(name: $v) and includeDeprecated: $v price the request's values, or the costliest before there are any")
    func introspectionVariables() throws {
        let query = "query ($t: String!) { __type(name: $t) { fields { name } } }"
        let known = try estimate(query, variables: ["t": "Book"])
        #expect(known.cost == 1 + 5)
        #expect(known.dependsOnVariables)
        let unknown = try estimate(query)
        #expect(unknown.dependsOnVariables)
        let most = schema.typeNames.compactMap { schema.type(named: $0)?.fields.count }.max() ?? 0
        #expect(unknown.cost == 1 + most)
        #expect(try estimate(#"query ($t: String! = "Author") { __type(name: $t) { fields { name } } }"#).cost == 1 + 1)
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

    @Test("a slicing variable takes the request's value, else its default, else assumedSize; the estimate names the variables it read")
    func variables() throws {
        let text = "query ($n: Int = 7) { books(first: $n) { id } }"
        #expect(try estimate(text, variables: ["n": 2]) == CostEstimate(cost: 2, variablesRead: ["n"]))
        // Only the slicing variable: a variable elsewhere does not change the price.
        let two = "query ($n: Int, $t: String!, $id: ID!) { books(first: $n) { id } search(text: $t) { id } book(id: $id) { id } }"
        #expect(try estimate(two, variables: ["n": 1, "t": "x", "id": "1"]).variablesRead == ["n"])
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
