import EmbeddedStore
import Foundation
import GatewayTestSupport
import GraphQLEngine
import GraphQLLanguage
import GraphQLValidation
import ResponseCache
import SocialDomain
@testable import SocialGateway
import Testing

/// Documents are parsed and validated once per text; every answer stays what it was without.
@Suite("Prepared documents: parse and validate once per query text")
struct PreparedDocumentTests {
    static func prepare(_ text: String, _ schema: GraphQLSchema) throws -> PreparedDocument {
        try PreparedDocument(
            text: text, schema: schema, parse: ParseOptions(), validation: ValidationOptions(), defaultMaxAge: 30)
    }

    @Test("the same text is prepared once and shared; a different text is prepared on its own")
    func sameTextShared() async throws {
        try await GatewayFixture.run(.embedded) { gateway in
            let query = #"{ profile(handle: "bob_builder") { handle } }"#
            let first = try await gateway.run(query)
            let second = try await gateway.run(query)
            #expect(first.response.body == second.response.body)
            #expect(gateway.service.documents.count == 1)
            _ = try await gateway.run(#"{ profile(handle: "bob_builder") { handle bio } }"#)
            #expect(gateway.service.documents.count == 2)
        }
    }

    @Test("a repeated invalid document gets the same errors every time (§5) and is not kept")
    func invalidRepeats() async throws {
        try await GatewayFixture.run(.embedded) { gateway in
            let query = "{ profile(handle: \"x\") { nope } }"
            let first = try await gateway.run(query)
            let second = try await gateway.run(query)
            #expect(first.response.outcome == .requestError)
            #expect(String(decoding: second.response.body, as: UTF8.self) == String(decoding: first.response.body, as: UTF8.self))
            #expect(GatewayFixture.messages(second.json) == [#"Cannot query field "nope" on type "Profile"."#])
            #expect(gateway.service.documents.count == 0)
        }
    }

    @Test("a document that does not parse is answered with its syntax error and not kept")
    func syntaxErrorNotKept() async throws {
        try await GatewayFixture.run(.embedded) { gateway in
            let result = try await gateway.run("{ profile(handle: ")
            #expect(result.response.outcome == .requestError)
            #expect(GatewayFixture.messages(result.json).first?.hasPrefix("Syntax Error") == true)
            #expect(gateway.service.documents.count == 0)
        }
    }

    @Test("the store keeps at most maxEntries documents, dropping the least recently used")
    func entryBound() throws {
        let schema = try GatewaySchema.make(sdl: GatewaySchema.bundledSDL())
        let store = PreparedDocumentStore(limits: .init(maxEntries: 4, maxTotalTextBytes: 1 << 20, maxTextBytes: 1 << 16))
        let texts = (0..<4).map { "{ a\($0): viewer { id } }" }
        for text in texts { _ = try store.document(for: text) { try Self.prepare(text, schema) } }
        #expect(store.count == 4)
        // Use the first again, so the second is now the least recently used.
        var preparedAgain = false
        _ = try store.document(for: texts[0]) {
            preparedAgain = true
            return try Self.prepare(texts[0], schema)
        }
        #expect(!preparedAgain)
        _ = try store.document(for: "{ e: viewer { id } }") { try Self.prepare("{ e: viewer { id } }", schema) }
        #expect(store.count == 4)
        var evicted: [String] = []
        for text in texts {
            _ = try store.document(for: text) {
                evicted.append(text)
                return try Self.prepare(text, schema)
            }
            if !evicted.isEmpty { break }
        }
        #expect(evicted == [texts[1]])
    }

    @Test("a text over maxTextBytes is not kept; the total text budget holds as many as fit")
    func byteBounds() throws {
        let schema = try GatewaySchema.make(sdl: GatewaySchema.bundledSDL())
        let store = PreparedDocumentStore(limits: .init(maxEntries: 100, maxTotalTextBytes: 200, maxTextBytes: 80))
        let long = "{ viewer { id } }" + String(repeating: " ", count: 100)
        _ = try store.document(for: long) { try Self.prepare(long, schema) }
        #expect(store.count == 0)
        let texts = (0..<10).map { "{ a\($0): viewer { id handle bio } }" }
        for text in texts { _ = try store.document(for: text) { try Self.prepare(text, schema) } }
        // 32 bytes each: six fit in the 200-byte budget, the seventh and later push out the oldest.
        #expect(texts[0].utf8.count == 32)
        #expect(store.count == 6)
    }

    @Test("a server with introspection off never replays an introspection answer cached by one with it on")
    func introspectionOffBeatsCache() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cache-\(UUID().uuidString)")
        let path = directory.appendingPathComponent("cache.sqlite")
        let query = "{ __schema { queryType { name } } }"
        var options = GatewayOptions()
        options.cache = ResponseCacheStore.open(path: path)
        try await GatewayFixture.run(.embedded, options: options) { open in
            #expect(try await open.run(query).json["data"]?["__schema"]?["queryType"]?["name"]?.stringValue == "Query")
            // Until the answer is stored (off the request path) and replayed: the second server
            // shares the file, so without the check first it would replay this entry.
            let cache = options.cache
            for _ in 0..<200 where cache.counters.hits == 0 {
                try await Task.sleep(nanoseconds: 5_000_000)
                _ = try await open.run(query)
            }
            #expect(cache.counters.hits > 0)

            var closedOptions = GatewayOptions()
            closedOptions.cache = ResponseCacheStore.open(path: path)
            closedOptions.introspection = false
            try await GatewayFixture.run(.embedded, options: closedOptions) { closed in
                let answer = try await closed.run(query)
                #expect(answer.response.outcome == .requestError)
                #expect(GatewayFixture.codes(answer.json) == ["INTROSPECTION_DISABLED"])
            }
        }
    }
}
