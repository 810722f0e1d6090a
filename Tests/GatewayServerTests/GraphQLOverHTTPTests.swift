import Foundation
import GatewayServer
import Hummingbird
import HummingbirdTesting
import Testing

/// GraphQL over HTTP (reference/GraphQLOverHTTP.md): methods, media types, status codes, limits.
@Suite("GraphQL over HTTP")
struct GraphQLOverHTTPTests {
    static let preflight: HTTPFields = [HeaderName.graphQLPreflight: "1", .accept: "application/graphql-response+json"]

    @Test("GraphQL over HTTP: POST application/json runs a query and answers application/graphql-response+json")
    func postQuery() async throws {
        let gateway = try await TestGateway.make()
        try await gateway.test { client in
            try await client.execute(
                uri: "/graphql", method: .post, headers: .graphQL(),
                body: GraphQLBody.json("query($h: String!) { profile(handle: $h) { handle displayName } }", variables: ["h": "alice_wonder"])
            ) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "application/graphql-response+json; charset=utf-8")
                #expect(response.text == #"{"data":{"profile":{"handle":"alice_wonder","displayName":"Alice Wonderland"}}}"#)
            }
        }
    }

    @Test("GraphQL over HTTP: GET runs a query from the URL (form-encoded, + is a space)")
    func getQuery() async throws {
        let gateway = try await TestGateway.make()
        try await gateway.test { client in
            let query = "{+profile(handle:%22bob_builder%22)+{+handle+}+}"
            try await client.execute(uri: "/graphql?query=\(query)", method: .get, headers: Self.preflight) { response in
                #expect(response.status == .ok)
                #expect(response.text == #"{"data":{"profile":{"handle":"bob_builder"}}}"#)
            }
        }
    }

    @Test("GraphQL over HTTP: GET with variables and operationName as JSON strings")
    func getWithVariables() async throws {
        let gateway = try await TestGateway.make()
        try await gateway.test { client in
            var components = URLComponents()
            components.path = "/graphql"
            components.queryItems = [
                URLQueryItem(name: "query", value: "query A { __typename } query B($h: String!) { profile(handle: $h) { handle } }"),
                URLQueryItem(name: "operationName", value: "B"),
                URLQueryItem(name: "variables", value: #"{"h":"carol_creator"}"#),
            ]
            try await client.execute(uri: components.percentEncodedQuery.map { "/graphql?" + $0 }!, method: .get, headers: Self.preflight) { response in
                #expect(response.status == .ok)
                #expect(response.text == #"{"data":{"profile":{"handle":"carol_creator"}}}"#)
            }
        }
    }

    @Test("GraphQL over HTTP: a mutation over GET is 405 with Allow: POST")
    func mutationOverGet() async throws {
        let gateway = try await TestGateway.make()
        try await gateway.test { client in
            let query = "mutation { follow(profileId: \"x\") { following } }".addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
            try await client.execute(uri: "/graphql?query=\(query)", method: .get, headers: Self.preflight) { response in
                #expect(response.status == .methodNotAllowed)
                #expect(response.headers[.allow] == "POST")
                #expect(response.text == #"{"errors":[{"message":"Can only perform a mutation operation from a POST request."}]}"#)
            }
        }
    }

    @Test("GraphQL over HTTP: a plain GET runs without a preflight header (no cookie authenticates, so it carries no credentials)")
    func getNeedsNoPreflight() async throws {
        let gateway = try await TestGateway.make()
        try await gateway.test { client in
            try await client.execute(uri: "/graphql?query=%7B__typename%7D", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "application/json; charset=utf-8")
                #expect(response.text == #"{"data":{"__typename":"Query"}}"#)
            }
            try await client.execute(uri: "/graphql?query=%7B__typename%7D", method: .get, headers: [.contentType: "application/json"]) { response in
                #expect(response.status == .ok)
                #expect(response.text == #"{"data":{"__typename":"Query"}}"#)
            }
        }
    }

    @Test("GraphQL over HTTP Status Codes: a document that does not parse is 400 with application/graphql-response+json")
    func parseErrorIs400() async throws {
        let gateway = try await TestGateway.make()
        try await gateway.test { client in
            try await client.execute(uri: "/graphql", method: .post, headers: .graphQL(), body: ByteBuffer(string: #"{"query":"{"}"#)) { response in
                #expect(response.status == .badRequest)
                #expect(response.headers[.contentType] == "application/graphql-response+json; charset=utf-8")
                #expect(response.text.hasPrefix(#"{"errors":[{"message":"Syntax Error:"#))
                #expect(!response.text.contains(#""data""#))
            }
        }
    }

    @Test("GraphQL over HTTP Status Codes: a validation error is 422; application/json clients get 200")
    func validationErrorLegacy() async throws {
        let gateway = try await TestGateway.make()
        try await gateway.test { client in
            let body = GraphQLBody.json("{ nope }")
            let expected = #"{"errors":[{"message":"Cannot query field \"nope\" on type \"Query\". Did you mean \"node\"?","locations":[{"line":1,"column":3}],"extensions":{"code":"GRAPHQL_VALIDATION_FAILED"}}]}"#
            try await client.execute(uri: "/graphql", method: .post, headers: .graphQL(), body: body) { response in
                #expect(response.status == .unprocessableContent)
                #expect(response.text == expected)
            }
            try await client.execute(uri: "/graphql", method: .post, headers: .graphQL(accept: "application/json"), body: body) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "application/json; charset=utf-8")
                #expect(response.text == expected)
            }
        }
    }

    @Test("GraphQL over HTTP Accept: q-values pick the type; no Accept, */* and application/* mean application/json")
    func acceptNegotiation() throws {
        #expect(try MediaType.negotiate(accept: nil) == .json)
        #expect(try MediaType.negotiate(accept: "*/*") == .json)
        #expect(try MediaType.negotiate(accept: "application/*") == .json)
        #expect(try MediaType.negotiate(accept: "text/html, */*;q=0.8") == .json)
        #expect(try MediaType.negotiate(accept: "application/graphql-response+json, */*") == .graphQLResponse)
        #expect(try MediaType.negotiate(accept: "application/graphql-response+json;q=0.5, */*") == .json)
        #expect(try MediaType.negotiate(accept: "application/json;q=0.5, */*") == .graphQLResponse)
        #expect(try MediaType.negotiate(accept: "application/json, */*") == .json)
        #expect(try MediaType.negotiate(accept: "application/graphql-response+json, application/json;q=0.9") == .graphQLResponse)
        #expect(try MediaType.negotiate(accept: "application/graphql-response+json;q=0.5, application/json") == .json)
        #expect(try MediaType.negotiate(accept: "application/json, application/graphql-response+json") == .graphQLResponse)
        #expect(throws: GatewayHTTPError.notAcceptable("text/html")) { try MediaType.negotiate(accept: "text/html") }
    }

    @Test("GraphQL over HTTP: an Accept with neither JSON type is 406")
    func notAcceptable() async throws {
        let gateway = try await TestGateway.make()
        try await gateway.test { client in
            try await client.execute(uri: "/graphql", method: .post, headers: .graphQL(accept: "text/html"), body: GraphQLBody.json("{ __typename }")) { response in
                #expect(response.status == .notAcceptable)
                #expect(response.text == #"{"errors":[{"message":"None of the media types in Accept \"text/html\" can be produced: accept application/graphql-response+json or application/json.","extensions":{"code":"NOT_ACCEPTABLE"}}]}"#)
            }
        }
    }

    @Test("GraphQL over HTTP POST: an unsupported or missing Content-Type is 415")
    func unsupportedMediaType() async throws {
        let gateway = try await TestGateway.make()
        try await gateway.test { client in
            try await client.execute(
                uri: "/graphql", method: .post, headers: [.contentType: "application/xml", .accept: "application/json"],
                body: ByteBuffer(string: "<query/>")
            ) { response in
                #expect(response.status == .unsupportedMediaType)
                #expect(response.text == #"{"errors":[{"message":"Unsupported Content-Type \"application/xml\": send application/json, or multipart/form-data for uploads.","extensions":{"code":"UNSUPPORTED_MEDIA_TYPE"}}]}"#)
            }
            try await client.execute(
                uri: "/graphql", method: .post, headers: [.accept: "application/json", HeaderName.graphQLPreflight: "1"],
                body: ByteBuffer(string: "{}")
            ) { response in
                #expect(response.status == .unsupportedMediaType)
                #expect(response.firstErrorMessage == "Missing Content-Type: send application/json, or multipart/form-data for uploads.")
            }
        }
    }

    @Test("GraphQL over HTTP: a body that is not JSON is 400; a variables that is not an object is 422 naming it")
    func badBodies() async throws {
        let gateway = try await TestGateway.make()
        try await gateway.test { client in
            try await client.execute(uri: "/graphql", method: .post, headers: .graphQL(), body: ByteBuffer(string: "NONSENSE")) { response in
                #expect(response.status == .badRequest)
                #expect(response.firstErrorCode == "BAD_REQUEST")
                #expect(response.firstErrorMessage?.hasPrefix("The request body is not valid JSON: ") == true)
            }
            try await client.execute(
                uri: "/graphql", method: .post, headers: .graphQL(), body: ByteBuffer(string: #"{"query":"{__typename}","variables":[7]}"#)
            ) { response in
                #expect(response.status == .unprocessableContent)
                #expect(response.text == #"{"errors":[{"message":"The \"variables\" parameter must be a JSON object.","extensions":{"code":"BAD_REQUEST"}}]}"#)
            }
            try await client.execute(uri: "/graphql", method: .post, headers: .graphQL(), body: ByteBuffer(string: #"{"qeury":"{__typename}"}"#)) { response in
                #expect(response.status == .unprocessableContent)
                #expect(response.firstErrorMessage == "The \"query\" parameter is missing: send the GraphQL document as a string.")
            }
        }
    }

    @Test("Limits: a JSON body over the limit (default 1 MB) is 413 PAYLOAD_TOO_LARGE")
    func bodyLimit() async throws {
        let gateway = try await TestGateway.make { $0.server.maxBodyBytes = 1024 }
        try await gateway.test { client in
            let big = "{ __typename }" + String(repeating: " ", count: 2000)
            try await client.execute(uri: "/graphql", method: .post, headers: .graphQL(), body: GraphQLBody.json(big)) { response in
                #expect(response.status == .contentTooLarge)
                #expect(response.text == #"{"errors":[{"message":"The request body is larger than the limit of 1KB.","extensions":{"code":"PAYLOAD_TOO_LARGE"}}]}"#)
            }
        }
    }

    @Test("Batching: an array body runs every operation in order and answers an array")
    func batch() async throws {
        let gateway = try await TestGateway.make()
        try await gateway.test { client in
            let query = "query($h: String!) { profile(handle: $h) { handle } }"
            let body = GraphQLBody.batch([(query, ["h": "alice_wonder"]), (query, ["h": "bob_builder"]), ("{ nope }", [:])])
            try await client.execute(uri: "/graphql", method: .post, headers: .graphQL(), body: body) { response in
                #expect(response.status == .ok)
                let list = try #require(response.json as? [[String: Any]])
                #expect(list.count == 3)
                #expect(((list[0]["data"] as? [String: Any])?["profile"] as? [String: Any])?["handle"] as? String == "alice_wonder")
                #expect(((list[1]["data"] as? [String: Any])?["profile"] as? [String: Any])?["handle"] as? String == "bob_builder")
                #expect(list[2]["data"] == nil && list[2]["errors"] != nil)
            }
        }
    }

    @Test("Limits: a batch over the limit (default 20) is 400 BATCH_TOO_LARGE; an empty batch is 422")
    func batchLimit() async throws {
        let gateway = try await TestGateway.make { $0.server.maxBatchSize = 2 }
        try await gateway.test { client in
            let body = GraphQLBody.batch(Array(repeating: ("{ __typename }", [:]), count: 3))
            try await client.execute(uri: "/graphql", method: .post, headers: .graphQL(), body: body) { response in
                #expect(response.status == .badRequest)
                #expect(response.text == #"{"errors":[{"message":"A batch may hold at most 2 operations; this one has 3.","extensions":{"code":"BATCH_TOO_LARGE"}}]}"#)
            }
            try await client.execute(uri: "/graphql", method: .post, headers: .graphQL(), body: ByteBuffer(string: "[]")) { response in
                #expect(response.status == .unprocessableContent)
                #expect(response.firstErrorMessage == "A batch must hold at least one operation.")
            }
        }
    }

    @Test("GraphQL over HTTP: PUT, PATCH and DELETE on /graphql are 405 with Allow: GET, POST")
    func otherMethods() async throws {
        let gateway = try await TestGateway.make()
        try await gateway.test { client in
            try await client.execute(uri: "/graphql", method: .delete) { response in
                #expect(response.status == .methodNotAllowed)
                #expect(response.headers[.allow] == "GET, POST")
                #expect(response.firstErrorCode == "METHOD_NOT_ALLOWED")
            }
        }
    }

    @Test("Limits: introspection can be switched off and is then refused with INTROSPECTION_DISABLED")
    func introspectionOff() async throws {
        let gateway = try await TestGateway.make { $0.server.gateway.introspection = false }
        try await gateway.test { client in
            try await client.execute(uri: "/graphql", method: .post, headers: .graphQL(), body: GraphQLBody.json("{ __schema { queryType { name } } }")) { response in
                #expect(response.status == .unprocessableContent)
                #expect(response.firstErrorCode == "INTROSPECTION_DISABLED")
            }
        }
    }

    @Test("Limits: the engine's depth limit is on by default")
    func depthLimit() async throws {
        let gateway = try await TestGateway.make()
        try await gateway.test { client in
            var query = "handle"
            for _ in 0..<14 { query = "followers { nodes { \(query) } }" }
            try await client.execute(uri: "/graphql", method: .post, headers: .graphQL(), body: GraphQLBody.json("{ profile(handle: \"alice_wonder\") { \(query) } }")) { response in
                #expect(response.status == .unprocessableContent)
                #expect(response.text.contains("depth"))
            }
        }
    }
}
