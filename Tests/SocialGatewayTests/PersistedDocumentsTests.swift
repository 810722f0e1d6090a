import Foundation
import GatewayTestSupport
import GraphQLEngine
import ResponseCache
import SocialGateway
import Testing

/// What reaches the persisted-query store, and the trusted-documents mode.
@Suite("Persisted documents: only what validates is stored; trusted documents only")
struct PersistedDocumentsTests {
    static func apq(_ hash: String) -> JSONObject { ["persistedQuery": ["version": 1, "sha256Hash": .string(hash)]] }
    static func text(_ response: GatewayResponse) -> String { String(decoding: response.body, as: UTF8.self) }
    static let notFound = #"{"errors":[{"message":"PersistedQueryNotFound","extensions":{"code":"PERSISTED_QUERY_NOT_FOUND"}}]}"#

    @Test("APQ: a registration whose document does not parse or does not validate stores nothing", arguments: [
        "{ profile(handle: ",  // syntax error
        "{ noSuchField }",  // fails validation
    ])
    func invalidDocumentsAreNotStored(_ document: String) async throws {
        try await withCachedGateway(.embedded) { gateway, cache in
            let hash = sha256Hex(document)
            let register = await gateway.service.execute(GatewayRequest(query: document, extensions: Self.apq(hash)))
            #expect(register.outcome == .requestError)
            #expect(await cache.persistedQuery(sha256Hash: hash) == nil)
            let lookup = await gateway.service.execute(GatewayRequest(query: nil, extensions: Self.apq(hash)))
            #expect(Self.text(lookup) == Self.notFound)
        }
    }

    @Test("APQ: a document that validates is stored on registration and found by hash alone")
    func validDocumentIsStored() async throws {
        try await withCachedGateway(.embedded) { gateway, cache in
            let document = "{ profile(handle: \"bob_builder\") { handle } }"
            let hash = sha256Hex(document)
            _ = await gateway.service.execute(GatewayRequest(query: document, extensions: Self.apq(hash)))
            #expect(await cache.persistedQuery(sha256Hash: hash) == document)
        }
    }

    static let manifestDocument = "query Card($h: String!) { profile(handle: $h) { handle } }"

    static func trustedGateway(only: Bool, _ body: (GatewayFixture) async throws -> Void) async throws {
        var options = GatewayOptions()
        options.trustedDocuments = try TrustedDocuments(documents: [sha256Hex(manifestDocument): manifestDocument])
        options.trustedDocumentsOnly = only
        try await GatewayFixture.run(.embedded, options: options, body)
    }

    @Test("Trusted documents only: a manifest document runs by hash, or by its exact text, with no cache at all")
    func trustedDocumentRuns() async throws {
        try await Self.trustedGateway(only: true) { gateway in
            let byHash = await gateway.service.execute(
                GatewayRequest(query: nil, variables: ["h": "alice_wonder"], extensions: Self.apq(sha256Hex(Self.manifestDocument).uppercased())))
            #expect(Self.text(byHash) == #"{"data":{"profile":{"handle":"alice_wonder"}}}"#)
            let byText = await gateway.service.execute(GatewayRequest(query: Self.manifestDocument, variables: ["h": "bob_builder"]))
            #expect(Self.text(byText) == #"{"data":{"profile":{"handle":"bob_builder"}}}"#)
        }
    }

    @Test("Trusted documents only: any other text, an unknown hash, or an APQ registration is refused with PERSISTED_QUERY_NOT_IN_LIST")
    func otherDocumentsAreRefused() async throws {
        try await Self.trustedGateway(only: true) { gateway in
            let other = "{ viewer { id } }"
            for request in [
                GatewayRequest(query: other),
                GatewayRequest(query: nil, extensions: Self.apq(sha256Hex(other))),
                GatewayRequest(query: other, extensions: Self.apq(sha256Hex(other))),
            ] {
                let response = await gateway.service.execute(request)
                #expect(response.outcome == .requestError)
                let json = try JSONParser.parse(response.body)
                #expect(GatewayFixture.codes(json) == ["PERSISTED_QUERY_NOT_IN_LIST"])
                #expect(GatewayFixture.messages(json).first?.hasPrefix("This server runs trusted documents only") == true)
            }
        }
    }

    @Test("A manifest without the only-mode: its documents are known by hash from the first request, others still run")
    func manifestWithoutOnlyMode() async throws {
        try await Self.trustedGateway(only: false) { gateway in
            let byHash = await gateway.service.execute(
                GatewayRequest(query: nil, variables: ["h": "alice_wonder"], extensions: Self.apq(sha256Hex(Self.manifestDocument))))
            #expect(Self.text(byHash) == #"{"data":{"profile":{"handle":"alice_wonder"}}}"#)
            let other = await gateway.service.execute(GatewayRequest(query: "{ profile(handle: \"bob_builder\") { handle } }"))
            #expect(Self.text(other) == #"{"data":{"profile":{"handle":"bob_builder"}}}"#)
        }
    }

    @Test("Manifests: Apollo's format and a plain hash -> document object are read; a wrong SHA-256 id is refused")
    func manifestFormats() throws {
        let hash = sha256Hex(Self.manifestDocument)
        let apollo = #"{"format":"apollo-persisted-query-manifest","version":1,"operations":[{"id":"\#(hash)","name":"Card","type":"query","body":"\#(Self.manifestDocument)"}]}"#
        #expect(try TrustedDocuments.parse(Array(apollo.utf8)).document(id: hash) == Self.manifestDocument)
        let plain = #"{"\#(hash)":"\#(Self.manifestDocument)","relay-md5-id":"{ viewer { id } }"}"#
        let parsed = try TrustedDocuments.parse(Array(plain.utf8))
        #expect(parsed.count == 2)
        #expect(parsed.document(id: "relay-md5-id") == "{ viewer { id } }")
        #expect(parsed.contains(text: "{ viewer { id } }"))
        let wrong = #"{"\#(sha256Hex("{ other }"))":"\#(Self.manifestDocument)"}"#
        #expect(throws: TrustedDocumentsError.self) { try TrustedDocuments.parse(Array(wrong.utf8)) }
        #expect(throws: TrustedDocumentsError.self) { try TrustedDocuments.parse(Array("[1]".utf8)) }
    }
}
