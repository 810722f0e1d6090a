import Foundation
import GatewayTestSupport
import GraphQLEngine
import GraphQLLanguage
import SocialDomain
import SocialGateway
import Testing

/// Issue 51, item 1: introspection counts in depth and cost like any other selection, priced at
/// what its answer holds, and every answer is held to `MAX_RESPONSE_BYTES`.
@Suite("Introspection and response size: bounded by default")
struct IntrospectionLimitsTests {
    /// The playground's own introspection query, as the page sends it.
    static func playgroundQuery() throws -> String {
        let page = try ShippedDocumentCostTests.read("Sources/GatewayServer/Resources/playground.html")
        guard let start = page.range(of: "const introspectionQuery = `"),
            let end = page[start.upperBound...].range(of: "`;")
        else { throw CocoaError(.fileReadCorruptFile) }
        return String(page[start.upperBound..<end.lowerBound])
    }

    /// Every standard introspection document, by name.
    static func document(named name: String) throws -> String {
        if name == "the playground" { return try playgroundQuery() }
        return IntrospectionDocuments.all.first { $0.name == name }?.text ?? ""
    }

    static let documentNames = IntrospectionDocuments.all.map(\.name) + ["the playground"]

    /// `__type(name: "Node") { possibleTypes { interfaces { possibleTypes ... } } }`, `levels`
    /// list fields deep, each object's fields (names, arguments, type) at the bottom: every two
    /// levels four times more objects (Node has four implementations).
    static func nested(levels: Int, bottom: String = "name fields { name args { name type { name } } type { name kind ofType { name } } }") -> String {
        var text = #"{ __type(name: "Node") { "#
        for level in 0..<levels { text += (level % 2 == 0 ? "possibleTypes" : "interfaces") + " { " }
        return text + bottom + String(repeating: " }", count: levels + 2)
    }

    func request(_ query: String, askCost: Bool = false, budget: RequestBudget = RequestBudget()) -> GatewayRequest {
        GatewayRequest(query: query, extensions: askCost ? ["cost": true] : nil, budget: budget)
    }

    @Test("issue 51: each standard introspection query passes the default limits, priced at exactly what its answer holds", arguments: documentNames)
    func standardQueriesPass(_ name: String) async throws {
        let text = try Self.document(named: name)
        try await GatewayFixture.run(.embedded) { gateway in
            let response = await gateway.service.execute(request(text, askCost: true))
            let json = try JSONParser.parse(response.body)
            #expect(json["errors"] == nil, "\(name): \(GatewayFixture.messages(json))")
            let types = json["data"]?["__schema"]?["types"]?.arrayValue ?? []
            #expect(types.count == gateway.service.schema.typeNames.count, "\(name)")
            let estimated = json["extensions"]?["cost"]?["estimated"]?.intValue ?? -1
            let actual = json["extensions"]?["cost"]?["actual"]?.intValue ?? -2
            // The estimate counts the schema's real values: it is the answer's own cost, and
            // far under MAX_COST (1,117 of 10,000 for each of these documents on this schema).
            #expect(estimated == actual, "\(name)")
            #expect(estimated > types.count && estimated <= 3_000, "\(name): \(estimated)")
            #expect(response.body.count < 200_000, "\(name)")
        }
    }

    @Test("issue 51: a 9-level nested interfaces/possibleTypes introspection is refused before execution (QUERY_TOO_COMPLEX)")
    func nestedRefused() async throws {
        let text = Self.nested(levels: 9)
        #expect(text.utf8.count < 420)
        try await GatewayFixture.run(.embedded) { gateway in
            let response = await gateway.service.execute(request(text))
            let json = try JSONParser.parse(response.body)
            #expect(GatewayFixture.codes(json) == ["QUERY_TOO_COMPLEX"])
            #expect(json["data"] == nil)
            #expect(response.outcome == .requestError)
            // What it would have answered: a thousand types' fields with their arguments and
            // types, priced one unit an object (44,713 on this schema).
            let estimated = json["errors"]?.arrayValue?.first?["extensions"]?["cost"]?["estimated"]?.intValue ?? 0
            #expect(estimated > 40_000)
        }
    }

    @Test("issue 51: introspection counts in depth: 14 nested levels (depth 16) are QUERY_TOO_DEEP, the limit being 15")
    func nestedTooDeep() async throws {
        try await GatewayFixture.run(.embedded) { gateway in
            let (_, json) = try await gateway.run(Self.nested(levels: 14, bottom: "name"))
            #expect(GatewayFixture.codes(json) == ["QUERY_TOO_DEEP"])
            #expect(GatewayFixture.messages(json) == ["Anonymous operation has depth 16, which exceeds the maximum depth of 15."])
        }
    }

    @Test("issue 51: with pricing off (a pricing mistake), the nested document is stopped by MAX_RESPONSE_BYTES: RESPONSE_TOO_LARGE, no data")
    func sizeBoundsWhatPricingMisses() async throws {
        var options = GatewayOptions()
        options.demandControl.costMode = .off
        options.maxResponseBytes = 1 << 20
        try await GatewayFixture.run(.embedded, options: options) { gateway in
            let response = await gateway.service.execute(request(Self.nested(levels: 11, bottom: "name fields { name type { name } }")))
            let json = try JSONParser.parse(response.body)
            #expect(GatewayFixture.codes(json) == ["RESPONSE_TOO_LARGE"])
            #expect(GatewayFixture.messages(json) == [
                "The response would be larger than 1048576 bytes, the most one request is answered with (MAX_RESPONSE_BYTES); select fewer fields or smaller pages."
            ])
            #expect(json["errors"]?.arrayValue?.first?["extensions"]?["maxBytes"] == 1_048_576)
            #expect(json["data"] == nil)
            #expect(response.outcome == .requestError)
            #expect(response.cacheControl == "no-store")
            #expect(response.body.count < 512)
        }
    }

    @Test("issue 51: an answer over MAX_RESPONSE_BYTES is refused whole (RESPONSE_TOO_LARGE); under it, answered")
    func answerOverLimit() async throws {
        let text = IntrospectionDocuments.graphqlJS17
        var options = GatewayOptions()
        options.maxResponseBytes = 20_000
        try await GatewayFixture.run(.embedded, options: options) { gateway in
            let (response, json) = try await gateway.run(text)
            #expect(GatewayFixture.codes(json) == ["RESPONSE_TOO_LARGE"])
            #expect(json["data"] == nil)
            #expect(response.body.count < 512)
            let (small, smallJSON) = try await gateway.run("{ __schema { queryType { name } } }")
            #expect(smallJSON["data"]?["__schema"]?["queryType"]?["name"] == "Query")
            #expect(small.body.count < 20_000)
        }
    }

    @Test("issue 51: a batch's answers share MAX_RESPONSE_BYTES: the operation that would pass it is refused, later ones do not run")
    func batchShares() async throws {
        let text = IntrospectionDocuments.graphqlJS17
        // One answer's size, measured without a limit.
        var size = 0
        try await GatewayFixture.run(.embedded) { gateway in size = try await gateway.run(text).response.body.count }
        var options = GatewayOptions()
        options.maxResponseBytes = size * 2 + size / 2
        try await GatewayFixture.run(.embedded, options: options) { gateway in
            let budget = RequestBudget()
            var codes: [[String]] = []
            for _ in 0..<4 {
                let (_, json) = try await gateway.run(text, budget: budget)
                codes.append(GatewayFixture.codes(json))
            }
            #expect(codes == [[], [], ["RESPONSE_TOO_LARGE"], ["RESPONSE_TOO_LARGE"]])
            // A single request of its own still gets the whole answer.
            #expect(GatewayFixture.codes(try await gateway.run(text).json) == [])
        }
    }
}
