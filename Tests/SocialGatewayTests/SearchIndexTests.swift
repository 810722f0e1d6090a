import Foundation
import GatewayTestSupport
import GraphQLEngine
import SocialDomain
import SocialFixtures
import SocialGateway
import Testing

/// Search read through indexes (issue 51) answers what the scan it replaced answered, on every
/// store: each of the ways a store reads a query (the prefix range, the trigram and bigram
/// indexes, the walk of a common query) is met by one of these queries.
@Suite("Search through its indexes: the answers of a scan, on every store (issue 51)")
struct SearchIndexTests {
    /// `user1`...`user260`, named "User <n>" but every tenth, every fifth one private.
    static let graph = LoadTestGraph(profiles: 260, followsPerProfile: 2)

    /// What a scan answers (seed 000, the order of ``SearchRank``): public profiles whose handle or
    /// display name, in Swift's lower case, contains the query's bytes; by rank, handle bytes, id.
    static func scanned(_ query: String) -> [String] {
        let key = Array(query.lowercased().utf8)
        func contains(_ text: String?) -> Bool {
            guard let text else { return false }
            let bytes = Array(text.lowercased().utf8)
            guard bytes.count >= key.count else { return false }
            return (0...(bytes.count - key.count)).contains { bytes[$0..<($0 + key.count)].elementsEqual(key) }
        }
        return graph.profiles.filter { $0.isPublic && (contains($0.handle) || contains($0.displayName)) }
            .map { (SearchRank(handleKey: $0.handle.lowercased(), queryKey: query.lowercased()).rawValue, Array($0.handle.lowercased().utf8),
                    $0.id.lowercased, $0.handle) }
            .sorted { a, b in
                if a.0 != b.0 { return a.0 < b.0 }
                if a.1 != b.1 { return a.1.lexicographicallyPrecedes(b.1) }
                return a.2 < b.2
            }
            .map(\.3)
    }

    /// Every page of the search, `first` at a time, each after the last one's end cursor.
    static func searched(_ gateway: GatewayFixture, _ query: String, first: Int, viewer: Viewer) async throws -> [String] {
        var handles: [String] = [], after: String?
        for _ in 0..<100 {
            let result = try await gateway.run(
                "query($q: String!, $n: Int, $a: String) { searchProfiles(query: $q, first: $n, after: $a) { nodes { handle } pageInfo { hasNextPage endCursor } } }",
                ["q": .string(query), "n": .int(first), "a": after.map(JSONValue.string) ?? .null], viewer: viewer)
            #expect(result.json["errors"] == nil, "\(result.json)")
            let page = result.json["data"]?["searchProfiles"]
            handles += page?["nodes"]?.arrayValue?.compactMap { $0["handle"]?.stringValue } ?? []
            guard page?["pageInfo"]?["hasNextPage"] == true else { return handles }
            after = page?["pageInfo"]?["endCursor"]?.stringValue
        }
        Issue.record("\(query): more than 100 pages")
        return handles
    }

    @Test("prefix, 2-character, 3-character, spaced and common queries (208 matches) answer a scan's profiles in its order, page by page",
          arguments: StoreKind.allCases)
    func answersOfAScan(_ kind: StoreKind) async throws {
        try await GatewayFixture.run(kind, seed: .loadTest(profiles: 260, followsPerProfile: 2)) { gateway in
            let viewer = gateway.store.viewer(try #require(UUID(uuidString: Self.graph.profileIds[1])))
            // "us": every handle starts with it; "er", "ser": every profile has it, none at the
            // start (more than 200: the walk); "r 1", "12", "r 25": names and handles, fewer.
            let queries = ["us", "er", "ser", "uSEr2", "r 1", "12", "r 25", " r 2 ", "zz"]
            for query in queries {
                let expected = Self.scanned(query.trimmingCharacters(in: .whitespaces))
                #expect(try await Self.searched(gateway, query, first: 50, viewer: viewer) == expected, "\(query), pages of 50")
                if expected.count < 120 {
                    #expect(try await Self.searched(gateway, query, first: 7, viewer: viewer) == expected, "\(query), pages of 7")
                }
            }
            #expect(Self.scanned("er").count == 208)
            #expect(Self.scanned("us").count == 208)
        }
    }

    @Test("50 aliased searches in one request: 10 run, 40 are TOO_MANY_SEARCHES unrun (data is null: the field is non-null), the store is asked 10 times",
          arguments: StoreKind.allCases)
    func searchesPerRequest(_ kind: StoreKind) async throws {
        try await GatewayFixture.run(kind) { gateway in
            let fields = (0..<50).map { "s\($0): searchProfiles(query: \"bob\") { nodes { handle } }" }
            gateway.store.resetRoundTrips()
            let json = try await gateway.run("{ \(fields.joined(separator: " ")) }", viewer: gateway.alice).json
            #expect(GatewayFixture.codes(json) == Array(repeating: "TOO_MANY_SEARCHES", count: 40))
            #expect(Set(GatewayFixture.messages(json)) == [
                "searchProfiles was not run: a request may run at most 10 searchProfiles fields (aliases and batched operations included). "
                    + "Send the others in another request.",
            ])
            let refused = Set((json["errors"]?.arrayValue ?? []).compactMap { $0["path"]?.arrayValue?.first?.stringValue })
            #expect(refused.count == 40)
            #expect(json["data"] == .null)
            switch kind {
            case .embedded, .postgres: #expect(gateway.store.callCounts?["searchProfiles"] == 10)
            case .supabase: #expect(try #require(gateway.store.fake).requestCounts["POST /rest/v1/rpc/search_profiles_ranked"] == 10)
            }
            // Ten in a request run whole.
            let ten = try await gateway.run("{ \(fields.prefix(10).joined(separator: " ")) }", viewer: gateway.alice).json
            #expect(ten["errors"] == nil)
            #expect((0..<10).allSatisfy { ten["data"]?["s\($0)"]?["nodes"] == [["handle": "bob_builder"]] })
        }
    }

    @Test("the search follows edits on every store: a new name, privacy both ways and a new handle", arguments: StoreKind.allCases)
    func followsEdits(_ kind: StoreKind) async throws {
        try await GatewayFixture.run(kind) { gateway in
            func search(_ query: String) async throws -> [String] {
                try await Self.searched(gateway, query, first: 20, viewer: gateway.alice)
            }
            func edit(_ input: String) async throws {
                let result = try await gateway.run("mutation { updateProfile(input: { \(input) }) { profile { handle } } }", viewer: gateway.bob)
                #expect(result.json["errors"] == nil, "\(result.json)")
            }
            #expect(try await search("zed") == [])
            try await edit(#"displayName: "Zed Climber""#)
            #expect(try await search("zed") == ["bob_builder"])
            #expect(try await search("d c") == ["bob_builder"])
            #expect(try await search("ZE") == ["bob_builder"])
            try await edit("isPublic: false")
            #expect(try await search("zed") == [])
            #expect(try await search("bob") == [])
            try await edit("isPublic: true")
            #expect(try await search("zed") == ["bob_builder"])
            try await edit(#"handle: "robert_b""#)
            #expect(try await search("robert") == ["robert_b"])
            #expect(try await search("bob_b") == [])
            #expect(try await search("ed c") == ["robert_b"])
        }
    }
}
