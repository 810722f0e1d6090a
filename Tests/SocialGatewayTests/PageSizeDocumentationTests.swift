import Foundation
import GatewayTestSupport
import SocialDomain
import SocialGateway
import Testing

/// The page-size rules are defined once (``PageSize``); what people read about them, the README's
/// limits table and the schema's descriptions, must say the same (issue 38: the README said
/// "0 to 50" for every connection while search allowed 1 to 50 and the sync 1 to 100).
@Suite("page sizes: one definition, documented as defined")
struct PageSizeDocumentationTests {
    /// The README's `| page size (`a`, `b`) | 0 to 50, default 20 (...) |` rows, as connection -> summary.
    static func readmeRows() throws -> [String: String] {
        let readme = try String(contentsOf: SchemaContractTests.root.appendingPathComponent("README.md"), encoding: .utf8)
        var rows: [String: String] = [:]
        for line in readme.split(separator: "\n") where line.hasPrefix("| page size") {
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 2 else { continue }
            let names = cells[0].split(separator: "`").enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
            let summary = cells[1].components(separatedBy: " (").first ?? cells[1]
            for name in names { rows[name] = summary }
        }
        return rows
    }

    @Test("the README's limits table names every connection with its code-defined range and default")
    func readmeMatchesCode() throws {
        let rows = try Self.readmeRows()
        var expected: [String: String] = [:]
        for rule in PageSize.all { for connection in rule.connections { expected[connection] = rule.summary } }
        #expect(rows == expected)
        #expect(expected["searchProfiles"] == "1 to 50, default 20")
        #expect(expected["followsChangedSince"] == "1 to 100, default 50")
        #expect(expected["feed"] == "0 to 50, default 20")
    }

    @Test("each connection field's description states its page sizes as the code defines them")
    func schemaDescriptionsMatchCode() async throws {
        let schema = try await GatewayService(stores: TestStore.start(.embedded).stores).schema
        var checked = Set<String>()
        for rule in PageSize.all {
            for type in schema.definedTypes {
                for field in type.fields where rule.connections.contains(field.name) && "\(field.type)".contains("Connection") {
                    #expect(field.description?.contains(" \(rule.summary)") == true, "\(type.name).\(field.name): \(field.description ?? "")")
                    checked.insert(field.name)
                }
            }
        }
        #expect(checked == Set(PageSize.all.flatMap(\.connections)))
    }

    @Test("a size outside a connection's range is BAD_USER_INPUT naming the argument and the range")
    func outOfRange() async throws {
        try await GatewayFixture.run(.embedded) { gateway in
            for (query, message) in [
                ("{ feed(first: 51) { pageInfo { hasNextPage } } }", "first must be between 0 and 50"),
                (#"{ searchProfiles(query: "al", first: 0) { pageInfo { hasNextPage } } }"#, "first must be between 1 and 50"),
                (#"{ followsChangedSince(since: "2025-01-01T00:00:00Z", first: 101) { pageInfo { hasNextPage } } }"#,
                 "first must be between 1 and 100"),
            ] {
                let result = try await gateway.run(query, viewer: gateway.alice)
                #expect(GatewayFixture.messages(result.json) == [message], "\(query)")
                #expect(GatewayFixture.codes(result.json) == ["BAD_USER_INPUT"], "\(query)")
            }
        }
    }
}
