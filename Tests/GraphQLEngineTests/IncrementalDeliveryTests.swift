import Foundation
import GraphQLLanguage
import Testing

@testable import GraphQLEngine

/// The hero schema of graphql-js 17's defer-test and stream-test, with the two directives.
private let heroSDL = """
    directive @defer(if: Boolean! = true, label: String) on FRAGMENT_SPREAD | INLINE_FRAGMENT
    directive @stream(if: Boolean! = true, label: String, initialCount: Int! = 0) on FIELD
    type Query {
      hero: Hero
      scalarList: [String]
      scalarListList: [[String]]
      nonNullFriendList: [Friend!]
      slowHero: Hero
      slowList: [Friend]
    }
    type Mutation { rename(name: String!): Hero }
    type Hero { id: ID name: String nonNullName: String! slowName: String friends: [Friend] }
    type Friend { id: ID name: String }
    """

private let heroData: JSONValue = [
    "hero": [
        "id": 1, "name": "Luke", "nonNullName": nil,
        "friends": [["id": 2, "name": "Han"], ["id": 3, "name": "Leia"], ["id": 4, "name": "C-3PO"]],
    ],
    "scalarList": ["apple", "banana", "coconut"],
    "scalarListList": [["apple", "apple"], ["banana", "banana"]],
    "nonNullFriendList": [["name": "Luke"], nil, ["name": "Leia"]],
]

/// graphql-js 17's `experimentalExecuteIncrementally` (v0.2) and its legacy format (v0.1):
/// each case's payloads byte for byte. The v0.2 ones are what graphql-core 3.3 answers for the
/// same document and data (`scripts/incremental-compare` checks more cases against it), with the
/// initial payload's keys in this engine's order (`errors` before `data`).
@Suite("Incremental delivery: @defer and @stream in the executor")
struct IncrementalDeliveryTests {
    let schema: GraphQLSchema

    init() throws {
        var binder = SchemaBinder(schema: try SchemaBuilder.build(sdl: heroSDL))
        // Async resolvers, to show what waits and what does not.
        binder.bind("Query", "slowHero") { _ in
            try await Task.sleep(for: .milliseconds(5))
            return heroData["hero"]
        }
        binder.bind("Hero", "slowName") { info in
            try await Task.sleep(for: .milliseconds(5))
            return (info.parent as? JSONValue)?["name"]
        }
        binder.bind("Query", "slowList") { _ in heroData["hero"]?["friends"] }
        binder.bindSync("Mutation", "rename") { info in
            JSONValue.object(["id": 1, "name": .string(info.arguments.string("name") ?? "")])
        }
        schema = try binder.finish(requireAll: false)
    }

    /// The payloads of `query` in `format`, one JSON text each.
    func payloads(_ query: String, _ format: IncrementalFormat, variables: JSONObject = [:]) async throws -> [String] {
        let source = Source(query)
        let request = GraphQLRequest(
            document: try Document(parsing: source), source: source, variables: variables, rootValue: heroData)
        switch await IncrementalExecution.start(schema: schema, request: request, format: format) {
        case .complete(let result):
            return [result.jsonString]
        case .incremental(let execution):
            var texts = [String(decoding: execution.initialPayload, as: UTF8.self)]
            try await execution.run { texts.append(String(decoding: $0.body, as: UTF8.self)) }
            return texts
        }
    }

    @Test("a deferred fragment arrives after the initial payload, announced as pending (v0.2) or by its path (v0.1)")
    func deferredFragment() async throws {
        let query = "{ hero { id ... @defer { name } } }"
        #expect(
            try await payloads(query, .v0_2) == [
                #"{"data":{"hero":{"id":"1"}},"pending":[{"id":"0","path":["hero"]}],"hasNext":true}"#,
                #"{"hasNext":false,"incremental":[{"data":{"name":"Luke"},"id":"0"}],"completed":[{"id":"0"}]}"#,
            ])
        #expect(
            try await payloads(query, .v0_1) == [
                #"{"data":{"hero":{"id":"1"}},"hasNext":true}"#,
                #"{"hasNext":false,"incremental":[{"data":{"name":"Luke"},"path":["hero"]}]}"#,
            ])
    }

    @Test("a fragment deferred in a deferred fragment is released when its parent completes, labels kept")
    func nestedDefer() async throws {
        let query = #"{ hero { ... @defer(label: "outer") { id ... @defer(label: "inner") { friends { name } } } } }"#
        #expect(
            try await payloads(query, .v0_2) == [
                #"{"data":{"hero":{}},"pending":[{"id":"0","path":["hero"],"label":"outer"}],"hasNext":true}"#,
                #"{"hasNext":false,"pending":[{"id":"1","path":["hero"],"label":"inner"}],"incremental":[{"data":{"id":"1"},"id":"0"},{"data":{"friends":[{"name":"Han"},{"name":"Leia"},{"name":"C-3PO"}]},"id":"1"}],"completed":[{"id":"0"},{"id":"1"}]}"#,
            ])
        #expect(
            try await payloads(query, .v0_1) == [
                #"{"data":{"hero":{}},"hasNext":true}"#,
                #"{"hasNext":false,"incremental":[{"data":{"id":"1"},"path":["hero"],"label":"outer"},{"data":{"friends":[{"name":"Han"},{"name":"Leia"},{"name":"C-3PO"}]},"path":["hero"],"label":"inner"}]}"#,
            ])
    }

    @Test("a field also selected outside the fragment is sent once in v0.2, and again with its fragment in v0.1")
    func overlappingFields() async throws {
        let query = "{ hero { name ... @defer { name id } } }"
        #expect(
            try await payloads(query, .v0_2) == [
                #"{"data":{"hero":{"name":"Luke"}},"pending":[{"id":"0","path":["hero"]}],"hasNext":true}"#,
                #"{"hasNext":false,"incremental":[{"data":{"id":"1"},"id":"0"}],"completed":[{"id":"0"}]}"#,
            ])
        #expect(
            try await payloads(query, .v0_1) == [
                #"{"data":{"hero":{"name":"Luke"}},"hasNext":true}"#,
                #"{"hasNext":false,"incremental":[{"data":{"name":"Luke","id":"1"},"path":["hero"]}]}"#,
            ])
    }

    @Test("fields shared by two deferred fragments go with the first to complete, under a subPath")
    func sharedFields() async throws {
        let query = #"{ ... @defer(label: "DeferID") { hero { id } } ... @defer(label: "DeferName") { hero { name } } }"#
        #expect(
            try await payloads(query, .v0_2) == [
                #"{"data":{},"pending":[{"id":"0","path":[],"label":"DeferID"},{"id":"1","path":[],"label":"DeferName"}],"hasNext":true}"#,
                #"{"hasNext":false,"incremental":[{"data":{"hero":{}},"id":"0"},{"data":{"id":"1"},"id":"0","subPath":["hero"]},{"data":{"name":"Luke"},"id":"1","subPath":["hero"]}],"completed":[{"id":"0"},{"id":"1"}]}"#,
            ])
        #expect(
            try await payloads(query, .v0_1) == [
                #"{"data":{},"hasNext":true}"#,
                #"{"hasNext":false,"incremental":[{"data":{"hero":{"id":"1"}},"path":[],"label":"DeferID"},{"data":{"hero":{"name":"Luke"}},"path":[],"label":"DeferName"}]}"#,
            ])
    }

    @Test("a null in a deferred non-null field fails that fragment alone, with the error")
    func nullInDeferredFragment() async throws {
        let query = "{ hero { id ... @defer { nonNullName } } }"
        let error = #"{"message":"Cannot return null for non-nullable field Hero.nonNullName.","locations":[{"line":1,"column":26}],"path":["hero","nonNullName"]}"#
        #expect(
            try await payloads(query, .v0_2) == [
                #"{"data":{"hero":{"id":"1"}},"pending":[{"id":"0","path":["hero"]}],"hasNext":true}"#,
                #"{"hasNext":false,"completed":[{"id":"0","errors":["# + error + "]}]}",
            ])
        #expect(
            try await payloads(query, .v0_1) == [
                #"{"data":{"hero":{"id":"1"}},"hasNext":true}"#,
                #"{"hasNext":false,"incremental":[{"data":null,"path":["hero"],"errors":["# + error + "]}]}",
            ])
    }

    @Test("a null outside a deferred fragment that nulls its parent drops the fragment: one ordinary result")
    func nullAboveDeferredFragment() async throws {
        let expected = #"{"errors":[{"message":"Cannot return null for non-nullable field Hero.nonNullName.","locations":[{"line":1,"column":10}],"path":["hero","nonNullName"]}],"data":{"hero":null}}"#
        for format in IncrementalFormat.allCases {
            #expect(try await payloads("{ hero { nonNullName ... @defer { id } } }", format) == [expected])
        }
    }

    @Test("@defer(if: false), and a fragment left empty by @skip, defer nothing")
    func nothingDeferred() async throws {
        #expect(try await payloads("{ hero { id ... @defer(if: false) { name } } }", .v0_2) == [#"{"data":{"hero":{"id":"1","name":"Luke"}}}"#])
        #expect(try await payloads("query($d: Boolean!) { hero { ... @defer(if: $d) { name } } }", .v0_2, variables: ["d": false])
            == [#"{"data":{"hero":{"name":"Luke"}}}"#])
        #expect(try await payloads("{ hero { ... @defer { name @skip(if: true) } } }", .v0_2) == [#"{"data":{"hero":{}}}"#])
    }

    @Test("@stream sends initialCount items now and the others later, with the stream's label")
    func stream() async throws {
        let query = #"{ scalarList @stream(initialCount: 1, label: "fruit") }"#
        #expect(
            try await payloads(query, .v0_2) == [
                #"{"data":{"scalarList":["apple"]},"pending":[{"id":"0","path":["scalarList"],"label":"fruit"}],"hasNext":true}"#,
                #"{"hasNext":false,"incremental":[{"items":["banana","coconut"],"id":"0"}],"completed":[{"id":"0"}]}"#,
            ])
        #expect(
            try await payloads(query, .v0_1) == [
                #"{"data":{"scalarList":["apple"]},"hasNext":true}"#,
                #"{"hasNext":false,"incremental":[{"items":["banana","coconut"],"path":["scalarList",1],"label":"fruit"}]}"#,
            ])
        // Only a field's own list streams: the inner lists of a list of lists come whole.
        #expect(
            try await payloads("{ scalarListList @stream(initialCount: 1) }", .v0_2) == [
                #"{"data":{"scalarListList":[["apple","apple"]]},"pending":[{"id":"0","path":["scalarListList"]}],"hasNext":true}"#,
                #"{"hasNext":false,"incremental":[{"items":[["banana","banana"]],"id":"0"}],"completed":[{"id":"0"}]}"#,
            ])
    }

    @Test("a null in a non-null streamed item ends the stream with its error")
    func nullInStreamedItem() async throws {
        let query = "{ nonNullFriendList @stream(initialCount: 1) { name } }"
        let error = #"{"message":"Cannot return null for non-nullable field Query.nonNullFriendList.","locations":[{"line":1,"column":3}],"path":["nonNullFriendList",1]}"#
        #expect(
            try await payloads(query, .v0_2) == [
                #"{"data":{"nonNullFriendList":[{"name":"Luke"}]},"pending":[{"id":"0","path":["nonNullFriendList"]}],"hasNext":true}"#,
                #"{"hasNext":false,"completed":[{"id":"0","errors":["# + error + "]}]}",
            ])
        #expect(
            try await payloads(query, .v0_1) == [
                #"{"data":{"nonNullFriendList":[{"name":"Luke"}]},"hasNext":true}"#,
                #"{"hasNext":false,"incremental":[{"items":null,"path":["nonNullFriendList",1],"errors":["# + error + "]}]}",
            ])
    }

    @Test("a negative initialCount is a field error, in graphql-js's words")
    func negativeInitialCount() async throws {
        #expect(
            try await payloads("{ scalarList @stream(initialCount: -1) }", .v0_2) == [
                #"{"errors":[{"message":"initialCount must be a positive integer","locations":[{"line":1,"column":3}],"path":["scalarList"]}],"data":{"scalarList":null}}"#
            ])
    }

    @Test("the initial payload does not wait for a deferred async field; it arrives when resolved")
    func asyncDeferredField() async throws {
        let query = "{ slowHero { id ... @defer { slowName } } slowList @stream(initialCount: 1) { name ... @defer { id } } }"
        #expect(
            try await payloads(query, .v0_2) == [
                #"{"data":{"slowHero":{"id":"1"},"slowList":[{"name":"Han"}]},"pending":[{"id":"0","path":["slowList",0]},{"id":"1","path":["slowHero"]},{"id":"2","path":["slowList"]}],"hasNext":true}"#,
                #"{"hasNext":true,"incremental":[{"data":{"id":"2"},"id":"0"}],"completed":[{"id":"0"}]}"#,
                #"{"hasNext":true,"pending":[{"id":"3","path":["slowList",1]},{"id":"4","path":["slowList",2]}],"incremental":[{"items":[{"name":"Leia"},{"name":"C-3PO"}],"id":"2"},{"data":{"id":"3"},"id":"3"},{"data":{"id":"4"},"id":"4"}],"completed":[{"id":"2"},{"id":"3"},{"id":"4"}]}"#,
                #"{"hasNext":false,"incremental":[{"data":{"slowName":"Luke"},"id":"1"}],"completed":[{"id":"1"}]}"#,
            ])
    }

    @Test("without incremental delivery @defer and @stream are ignored: the whole answer at once")
    func inlineFallback() async throws {
        let source = Source("{ hero { id ... @defer { name } friends @stream(initialCount: 1) { name } } }")
        let result = await Executor.execute(
            schema: schema, request: GraphQLRequest(document: try Document(parsing: source), source: source, rootValue: heroData))
        #expect(result.jsonString == #"{"data":{"hero":{"id":"1","name":"Luke","friends":[{"name":"Han"},{"name":"Leia"},{"name":"C-3PO"}]}}}"#)
    }

    @Test("a mutation's payload may defer below its root field; the write happens once")
    func mutationDefer() async throws {
        #expect(
            try await payloads(#"mutation { rename(name: "Ben") { id ... @defer { name } } }"#, .v0_2) == [
                #"{"data":{"rename":{"id":"1"}},"pending":[{"id":"0","path":["rename"]}],"hasNext":true}"#,
                #"{"hasNext":false,"incremental":[{"data":{"name":"Ben"},"id":"0"}],"completed":[{"id":"0"}]}"#,
            ])
    }
}
