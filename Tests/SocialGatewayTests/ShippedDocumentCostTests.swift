import Foundation
import GatewayTestSupport
import GraphQLEngine
import GraphQLLanguage
import GraphQLValidation
import SocialGateway
import Testing

/// "Nothing that passes today fails" (issue 42, part 2): every document the project ships (the
/// examples, the playground's default, the load script's) is priced by the old rule (1 per
/// field, `first`/`last` multiply the selection; max 20,000) and by the cost directives (the
/// default `MAX_COST`), and passes both.
@Suite("Demand control: shipped documents, old and new cost")
struct ShippedDocumentCostTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func read(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    /// The shipped documents, each with where it comes from.
    static func documents() throws -> [(origin: String, text: String)] {
        var found: [(String, String)] = []
        let files = FileManager.default
        for folder in ["examples", "examples/curl", "examples/subscriptions"] {
            let names = try files.contentsOfDirectory(atPath: root.appendingPathComponent(folder).path).sorted()
            for name in names {
                let path = "\(folder)/\(name)"
                if name.hasSuffix(".graphql") { found.append((path, try read(path))) }
                if name.hasSuffix(".sh") || name.hasSuffix(".py") {
                    for text in shellDocuments(try read(path)) { found.append((path, text)) }
                }
            }
        }
        let playground = try read("Sources/GatewayServer/Resources/playground.html")
        if let start = playground.range(of: "const defaultQuery = `"),
            let end = playground[start.upperBound...].range(of: "`;") {
            found.append(("playground default query", String(playground[start.upperBound..<end.lowerBound])))
        }
        let load = try read("scripts/load-test")
        if let start = load.range(of: "graph_query='"), let end = load[start.upperBound...].range(of: "'") {
            found.append(("load-test follower graph", String(load[start.upperBound..<end.lowerBound])))
        }
        if let start = load.range(of: "\"query Feed "), let end = load[start.upperBound...].range(of: "\"") {
            found.append(("load-test feed", "query Feed " + String(load[start.upperBound..<end.lowerBound])))
        }
        found.append(("load-test toggle-follow", "mutation($id: ID!) { toggleFollow(profileId: $id) { following profile { followerCount } } }"))
        return found
    }

    /// The documents in a shell script's `gql "..."`, `gql '...'` and `query=...` arguments.
    static func shellDocuments(_ script: String) -> [String] {
        var documents: [String] = []
        let patterns = [#"gql "((?:[^"\\]|\\.)*)""#, #"gql '([^']*)'"#, #"query='([^']*)'"#, #""query=((?:[^"\\]|\\.)*)""#]
        for pattern in patterns {
            let regex = try! NSRegularExpression(pattern: pattern)
            let range = NSRange(script.startIndex..., in: script)
            for match in regex.matches(in: script, range: range) {
                guard let captured = Range(match.range(at: 1), in: script) else { continue }
                let text = String(script[captured])
                if text.contains("$(") || !text.contains("{") { continue }
                documents.append(text.replacingOccurrences(of: "\\$", with: "$").replacingOccurrences(of: "\\\"", with: "\""))
            }
        }
        return documents
    }

    /// The old rule's cost of each operation (its message says it when the maximum is 0).
    static func oldCost(_ document: Document, _ source: Source, schema: GraphQLSchema) -> [Int] {
        Validator.validate(schema: schema, document: document, source: source, options: ValidationOptions(maxFieldCount: -1))
            .compactMap { error in
                guard let range = error.message.range(of: "has a cost of ") else { return nil }
                return Int(error.message[range.upperBound...].prefix { $0.isNumber })
            }
    }

    /// `PRINT_COSTS=1` prints each document's old and new cost (the table in docs/DESIGN.md, "The cost model").
    @Test("every shipped document passes the old limit (20,000) and the new default MAX_COST (10,000)")
    func oldAndNew() async throws {
        let service = try await GatewayService(stores: TestStore.start(.embedded).stores)
        let schema = service.schema
        let maxCost = DemandControlOptions().maxCost
        var priced: [(origin: String, old: Int, new: Int)] = []
        for (origin, text) in try Self.documents() {
            let source = Source(text)
            guard let document = try? Document(parsing: source),
                Validator.validate(schema: schema, document: document, source: source, options: GatewayOptions().validation).isEmpty
            else { continue }
            let fragments = Dictionary(document.fragments.map { ($0.name.value, $0) }, uniquingKeysWith: { a, _ in a })
            let old = Self.oldCost(document, source, schema: schema)
            for (index, operation) in document.operations.enumerated() {
                let new = CostEstimator.estimate(
                    operation, schema: schema, model: service.costModel, fragments: fragments, variables: nil)
                priced.append((origin, index < old.count ? old[index] : 0, new.cost))
            }
        }
        // The examples, the playground and the load script: dozens of operations.
        #expect(priced.count >= 40)
        for document in priced {
            #expect(document.old <= 20_000, "\(document.origin): old cost \(document.old)")
            #expect(document.new <= maxCost, "\(document.origin): new cost \(document.new) over MAX_COST \(maxCost)")
        }
        let graph = priced.first { $0.origin == "load-test follower graph" }
        #expect(graph?.old == 6_359)
        #expect(graph?.new == 1_153)
        if ProcessInfo.processInfo.environment["PRINT_COSTS"] != nil {
            for document in priced { print("COST\t\(document.origin)\t\(document.old)\t\(document.new)") }
        }
        let highest = priced.max { $0.new < $1.new }
        // The story tray: 50 groups (assumedSize) of 30 stories, where the old rule counted one of each.
        #expect(highest?.origin == "examples/curl/stories.sh")
        #expect(highest?.new == 1_600)
    }
}
