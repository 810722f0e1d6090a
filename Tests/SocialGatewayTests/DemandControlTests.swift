import Foundation
import GatewayTestSupport
import GraphQLEngine
import GraphQLLanguage
import GraphQLValidation
import ResponseCache
import SocialDomain
import SocialFixtures
@testable import SocialGateway
import Testing

/// Demand control in the service (issue 42, part 2): the schema's cost directives, the estimate
/// before execution and the actual cost after in `extensions.cost`, measure and enforce modes.
@Suite("Demand control in the gateway")
struct DemandControlTests {
    static let followerGraph = """
        query FollowerGraph($h: String!) { profile(handle: $h) { id handle displayName avatarURL isPublic followerCount viewerIsFollowing
          followers(first: 50) { totalCount pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
            edges { cursor node { id handle displayName avatarURL isPublic followerCount viewerIsFollowing
              following(first: 10) { totalCount edges { cursor node { id handle displayName avatarURL isPublic followerCount viewerIsFollowing } } } } } } } }
        """

    func request(_ query: String, _ variables: JSONObject = [:], viewer: Viewer = .anonymous, askCost: Bool = false) -> GatewayRequest {
        GatewayRequest(query: query, variables: variables, extensions: askCost ? ["cost": true] : nil, viewer: viewer)
    }

    @Test("__schema.directives lists @cost and @listSize with Apollo's arguments")
    func introspection() async throws {
        try await GatewayFixture.run(.embedded) { gateway in
            let (_, json) = try await gateway.run("{ __schema { directives { name locations args { name type { kind name ofType { name } } defaultValue } } } }")
            let directives = json["data"]?["__schema"]?["directives"]?.arrayValue ?? []
            let cost = directives.first { $0["name"] == "cost" }
            #expect(cost?["locations"] == ["ARGUMENT_DEFINITION", "ENUM", "FIELD_DEFINITION", "INPUT_FIELD_DEFINITION", "OBJECT", "SCALAR"])
            #expect(cost?["args"]?.arrayValue?.map { $0["name"] } == ["weight"])
            let listSize = directives.first { $0["name"] == "listSize" }
            #expect(listSize?["locations"] == ["FIELD_DEFINITION"])
            #expect(
                listSize?["args"]?.arrayValue?.map { $0["name"] }
                    == ["assumedSize", "slicingArguments", "sizedFields", "requireOneSlicingArgument"])
            #expect(listSize?["args"]?.arrayValue?.last?["defaultValue"] == "true")
        }
    }

    @Test("extensions.cost: only when asked; estimated before execution, actual from the answer's lists")
    func extensionsCost() async throws {
        try await GatewayFixture.run(.embedded) { gateway in
            let query = #"{ profile(handle: "alice_wonder") { handle followers(first: 50) { edges { node { handle } } } } }"#
            let plain = await gateway.service.execute(request(query, viewer: gateway.alice))
            let plainJSON = try JSONParser.parse(plain.body)
            #expect(plainJSON["extensions"] == nil)
            let asked = await gateway.service.execute(request(query, viewer: gateway.alice, askCost: true))
            let json = try JSONParser.parse(asked.body)
            #expect(json["data"] == plainJSON["data"])
            let followers = json["data"]?["profile"]?["followers"]?["edges"]?.arrayValue?.count ?? -1
            // profile 1 + followers 1 + edges 50 × (edge 1 + node 1)
            #expect(json["extensions"]?["cost"]?["estimated"] == 102)
            #expect(json["extensions"]?["cost"]?["actual"] == .int(2 + 2 * followers))
            #expect(json["extensions"]?["cost"]?["max"] == .int(DemandControlOptions().maxCost))
            #expect(json["extensions"]?["cost"]?["mode"] == "enforce")
            #expect(followers < 50)
        }
    }

    @Test("a slicing variable prices per request: the same document costs what each request's variables ask")
    func perVariables() async throws {
        try await GatewayFixture.run(.embedded) { gateway in
            let query = "query ($n: Int) { profile(handle: \"alice_wonder\") { followers(first: $n) { nodes { handle } } } }"
            for (n, estimated) in [(2, 4), (40, 42)] {
                let response = await gateway.service.execute(request(query, ["n": .int(n)], viewer: gateway.alice, askCost: true))
                let json = try JSONParser.parse(response.body)
                #expect(json["extensions"]?["cost"]?["estimated"] == .int(estimated))
            }
            // No value, no default: the field's assumedSize, 20.
            let response = await gateway.service.execute(request(query, viewer: gateway.alice, askCost: true))
            let json = try JSONParser.parse(response.body)
            #expect(json["extensions"]?["cost"]?["estimated"] == 22)
        }
    }

    @Test("issue 53: a price kept by the values of the variables it reads: other variables share it, a new slicing value or an explicit null gets its own")
    func pricesKeptByTheVariablesRead() async throws {
        try await GatewayFixture.run(.embedded) { gateway in
            let query = "query ($h: String!, $n: Int = 3) { profile(handle: $h) { followers(first: $n) { nodes { handle } } } }"
            let asked: [(String, JSONValue?, Int)] = [
                ("alice_wonder", 2, 4), ("bob_builder", 2, 4), ("alice_wonder", 40, 42), ("bob_builder", nil, 5),
                ("carol_creator", .null, 22), ("bob_builder", 2, 4), ("alice_wonder", 40, 42), ("carol_creator", nil, 5),
            ]
            for (handle, n, estimated) in asked {
                var variables: JSONObject = ["h": .string(handle)]
                if let n { variables["n"] = n }
                let response = await gateway.service.execute(request(query, variables, viewer: gateway.alice, askCost: true))
                let json = try JSONParser.parse(response.body)
                #expect(json["extensions"]?["cost"]?["estimated"] == .int(estimated), "\(handle), n: \(String(describing: n))")
            }
        }
    }

    @Test("issue 53: only small variable values key a kept price: a long string or a list is priced without being held")
    func costMemoKeepsSmallValues() {
        #expect(CostMemo.isKeepable(nil) && CostMemo.isKeepable(.null) && CostMemo.isKeepable(.int(50)))
        #expect(CostMemo.isKeepable(.string(String(repeating: "a", count: 64))))
        #expect(!CostMemo.isKeepable(.string(String(repeating: "a", count: 65))))
        #expect(!CostMemo.isKeepable(.array([.int(1)])) && !CostMemo.isKeepable(.object([:])))
    }

    @Test("a mutation costs 10 plus its selection")
    func mutationCost() async throws {
        try await GatewayFixture.run(.embedded) { gateway in
            let bob = DemoData.bobId.uuidString.lowercased()
            let response = await gateway.service.execute(
                request("mutation ($id: ID!) { toggleFollow(profileId: $id) { following profile { handle } } }", ["id": .string(bob)],
                        viewer: gateway.carol, askCost: true))
            let cost = try JSONParser.parse(response.body)["extensions"]?["cost"]
            #expect(cost?["estimated"] == 12)
            #expect(cost?["actual"] == 12)
        }
    }

    @Test("enforce: an operation over MAX_COST is refused with QUERY_TOO_COMPLEX before it runs")
    func enforce() async throws {
        var options = GatewayOptions()
        options.demandControl.maxCost = 101
        try await GatewayFixture.run(.embedded, options: options) { gateway in
            let query = #"query Big { profile(handle: "alice_wonder") { followers(first: 50) { edges { node { handle } } } } }"#
            let (response, json) = try await gateway.run(query, viewer: gateway.alice)
            #expect(response.outcome == .requestError)
            #expect(GatewayFixture.messages(json) == ["Operation \"Big\" has an estimated cost of 102, which exceeds the maximum cost of 101."])
            #expect(json["errors"]?.arrayValue?.first?["extensions"] == ["code": "QUERY_TOO_COMPLEX", "cost": ["estimated": 102, "max": 101]])
            #expect(json["errors"]?.arrayValue?.first?["locations"] == [["line": 1, "column": 1]])
            #expect(gateway.service.demandCounters.count(.cost, mode: .enforce) == 1)
            // One fewer follower fits.
            let (_, fits) = try await gateway.run(query.replacingOccurrences(of: "50", with: "49"), viewer: gateway.alice)
            #expect(fits["errors"] == nil)
        }
    }

    @Test("measure: an operation over MAX_COST runs, and is counted as one that would have been refused")
    func measure() async throws {
        var options = GatewayOptions()
        options.demandControl.maxCost = 10
        options.demandControl.costMode = .measure
        try await GatewayFixture.run(.embedded, options: options) { gateway in
            let query = #"{ profile(handle: "alice_wonder") { followers(first: 50) { edges { node { handle } } } } }"#
            let (response, json) = try await gateway.run(query, viewer: gateway.alice)
            #expect(response.outcome == .executed)
            #expect(json["errors"] == nil)
            #expect(gateway.service.demandCounters.count(.cost, mode: .measure) == 1)
            #expect(gateway.service.demandCounters.count(.cost, mode: .enforce) == 0)
        }
    }

    @Test("off: nothing is priced, nothing refused, extensions.cost is not added")
    func off() async throws {
        var options = GatewayOptions()
        options.demandControl.maxCost = 1
        options.demandControl.costMode = .off
        try await GatewayFixture.run(.embedded, options: options) { gateway in
            let response = await gateway.service.execute(
                request(#"{ profile(handle: "alice_wonder") { followers(first: 50) { nodes { handle } } } }"#, viewer: gateway.alice, askCost: true))
            let json = try JSONParser.parse(response.body)
            #expect(json["errors"] == nil)
            #expect(json["extensions"] == nil)
        }
    }

    @Test("cache hits: the stored answer never holds extensions.cost; a hit reports the stored answer's actual cost to those who ask")
    func cacheHits() async throws {
        try await withCachedGateway(.embedded) { gateway, cache in
            let query = #"{ profile(handle: "bob_builder") { handle followers(first: 5) { nodes { handle } } } }"#
            let asked = await gateway.service.execute(request(query, viewer: gateway.alice, askCost: true))
            let askedJSON = try JSONParser.parse(asked.body)
            #expect(askedJSON["extensions"]?["cost"]?["estimated"] == 7)
            #expect(asked.etag == nil)
            await settle(cache) { await cache.lookup(anyKeyProbe()) != nil || cache.counters.hits > 0 }
            try await Task.sleep(nanoseconds: 50_000_000)
            // A client that did not ask gets the stored body, without it.
            let plain = await gateway.service.execute(request(query, viewer: gateway.alice))
            #expect(try JSONParser.parse(plain.body)["extensions"] == nil)
            #expect(cache.counters.hits == 1)
            // A client that asks on a hit: the same estimate, and the stored answer's actual cost.
            let hit = await gateway.service.execute(request(query, viewer: gateway.alice, askCost: true))
            #expect(try JSONParser.parse(hit.body)["extensions"] == askedJSON["extensions"])
            #expect(cache.counters.hits == 2)
        }
    }
}
