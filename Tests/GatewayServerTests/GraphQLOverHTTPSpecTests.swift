import Foundation
import GatewayAssembly
import GatewayServer
import Hummingbird
import HummingbirdTesting
import Testing

/// GraphQL over HTTP, the working draft in `../shared/reference/GraphQLOverHTTP.md` (graphql-over-http
/// commit e1e46e7): every MUST, SHOULD and MAY of a *server*, one test (or one argument set) each,
/// through the real application.
///
/// Section numbers are the rendered draft's (its `#` headings counted from Overview = 1): §2 URL,
/// §3 Serialization Format, §3.1 Media Types, §4 Request, §4.1 Request Parameters, §4.2 Accept,
/// §4.3 GET, §4.4 POST, §4.4.1 JSON Encoding, §5 Response, §5.1 Body, §5.2 Validation,
/// §5.3 Execution, §5.4 Status Codes, §5.4.1 its Examples, §6.2 Security (non-normative).
/// Where this server departs from a SHOULD the test's name says so and docs/SERVER.md says why.
@Suite("GraphQL over HTTP specification (draft): server requirements")
struct GraphQLOverHTTPSpecTests {
    /// The media type a conforming client names.
    static let spec = HTTPSpecMedia.spec
    static let specType = HTTPSpecMedia.specType
    static let jsonType = HTTPSpecMedia.jsonType

    // MARK: Helpers

    /// One request to a fresh gateway (embedded store with the demo users).
    static func send(
        _ method: HTTPRequest.Method = .post, uri: String = "/graphql", body: String? = nil, accept: String? = HTTPSpecMedia.spec,
        contentType: String? = "application/json", headers extra: HTTPFields = [:],
        _ configure: (inout GatewaySettings) -> Void = { _ in }
    ) async throws -> TestResponse {
        let gateway = try await TestGateway.make(.embedded, configure)
        var fields = extra
        if let accept { fields[.accept] = accept }
        if let contentType, method == .post { fields[.contentType] = contentType }
        let headers = fields
        return try await gateway.test { client in
            try await client.execute(uri: uri, method: method, headers: headers, body: body.map { ByteBuffer(string: $0) })
        }
    }

    /// A POST of `{"query": query}` (plus `variables` when given), JSON-encoded.
    static func post(_ query: String, variables: String? = nil, accept: String? = HTTPSpecMedia.spec) async throws -> TestResponse {
        try await send(body: jsonBody(query, variables: variables), accept: accept)
    }

    static func jsonBody(_ query: String, variables: String? = nil) -> String {
        let quoted = String(decoding: try! JSONSerialization.data(withJSONObject: [query], options: []), as: UTF8.self).dropFirst().dropLast()
        return "{\"query\":\(quoted)" + (variables.map { ",\"variables\":\($0)" } ?? "") + "}"
    }

    /// `/graphql?` with the pairs form-encoded the WHATWG way (every byte but unreserved ones escaped).
    static func getURI(_ pairs: [(String, String)]) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return "/graphql?" + pairs.map { name, value in
            name + "=" + value.addingPercentEncoding(withAllowedCharacters: allowed)!
        }.joined(separator: "&")
    }

    /// The status and type of a request error (a GraphQL response without `data`): `status` under
    /// the spec's type; 200 and `application/json` for a client that accepts only JSON.
    static func expectRequestError(
        _ response: TestResponse, accept: String, status: HTTPResponse.Status, code: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let legacy = accept != spec
        #expect(response.status == (legacy ? .ok : status), "\(response.text)", sourceLocation: sourceLocation)
        #expect(response.headers[.contentType] == (legacy ? jsonType : specType), sourceLocation: sourceLocation)
        #expect(response.firstErrorCode == code, "\(response.text)", sourceLocation: sourceLocation)
        #expect((response.json as? [String: Any])?.keys.contains("data") == false, "a request error has no data", sourceLocation: sourceLocation)
    }

    /// A refusal before GraphQL ran: a 4xx with a GraphQL-shaped body, never labelled
    /// `application/graphql-response+json` (§5.4 MUST NOT).
    static func expectRefusal(
        _ response: TestResponse, _ status: HTTPResponse.Status, code: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(response.status == status, "\(response.text)", sourceLocation: sourceLocation)
        #expect(response.headers[.contentType] == jsonType, sourceLocation: sourceLocation)
        #expect(response.firstErrorCode == code, "\(response.text)", sourceLocation: sourceLocation)
    }

    static let typename = #"{"data":{"__typename":"Query"}}"#

    // MARK: §2 URL

    @Test("§2 URL: a server MUST enable GraphQL requests to its schema, served via a URL (/graphql)")
    func servesSchemaAtURL() async throws {
        let response = try await Self.post("{ __typename }")
        #expect(response.status == .ok)
        #expect(response.text == Self.typename)
    }

    @Test("§2 URL: a server MAY forbid a request and SHOULD use a 4xx: a bearer token that does not verify is 401")
    func forbidsWithFourHundredSomething() async throws {
        let response = try await Self.send(body: #"{"query":"{ __typename }"}"#, headers: [.authorization: "Bearer not.a.token"])
        Self.expectRefusal(response, .unauthorized, code: "UNAUTHENTICATED")
        #expect(response.headers[.wwwAuthenticate]?.hasPrefix("Bearer ") == true)
    }

    @Test("§2 URL: forbidding SHOULD NOT depend on a well-formed request's contents: a field the caller may not read is a field error in a 200")
    func authorizationInTheSchema() async throws {
        let response = try await Self.post(#"{ profile(handle: "alice_wonder") { followers(first: 1) { totalCount } } }"#)
        #expect(response.status == .ok)
        #expect(response.text.hasPrefix(#"{"errors":[{"message":"You must be logged in to view followers""#))
        #expect(response.text.hasSuffix(#""data":{"profile":null}}"#))
    }

    @Test("§2 URL: the schema MAY differ by client; this server serves one schema to everyone, anonymous or signed in")
    func oneSchemaForAll() async throws {
        let gateway = try await TestGateway.make()
        let bearer = try await gateway.bearer("alice_wonder")
        let body = ByteBuffer(string: #"{"query":"{ __schema { types { name fields { name } } } }"}"#)
        try await gateway.test { client in
            let anonymous = try await client.execute(uri: "/graphql", method: .post, headers: .graphQL(), body: body)
            let signedIn = try await client.execute(uri: "/graphql", method: .post, headers: .graphQL(authorization: bearer), body: body)
            #expect(anonymous.status == .ok && anonymous.text.contains(#""name":"Profile""#))
            #expect(anonymous.text == signedIn.text)
        }
    }

    @Test("§2 URL: the URL MAY serve other purposes: /graphql also streams (graphql-sse) for Accept: text/event-stream, over GET with no preflight header")
    func urlServesStreamsToo() async throws {
        let response = try await Self.send(.get, uri: Self.getURI([("query", "{ __typename }")]), accept: "text/event-stream")
        #expect(response.status == .ok)
        #expect(response.headers[.contentType]?.hasPrefix("text/event-stream") == true)
        #expect(response.text.contains(Self.typename))
    }

    // MARK: §3 Serialization Format

    @Test("§3 Serialization Format: a server MUST support JSON, and MAY support more: multipart/form-data (uploads) is read, application/xml is 415")
    func serializationFormats() async throws {
        // A multipart request is read as one (it gets as far as the token check), not refused by type.
        let multipart = try await Self.send(
            body: "--b--\r\n", contentType: "multipart/form-data; boundary=b", headers: [HeaderName.graphQLPreflight: "1"])
        Self.expectRefusal(multipart, .unauthorized, code: "UNAUTHENTICATED")
        let xml = try await Self.send(body: "<query>{ __typename }</query>", contentType: "application/xml")
        Self.expectRefusal(xml, .unsupportedMediaType, code: "UNSUPPORTED_MEDIA_TYPE")
    }

    // MARK: §3.1 Media Types, §4.4 POST: UTF-8

    @Test(
        "§3.1 Media Types and §4.4 POST: application/json MUST be supported in UTF-8, and UTF-8 MUST be assumed when no charset is given",
        arguments: ["application/json", "application/json; charset=utf-8", "application/json;charset=UTF-8"])
    func utf8Assumed(contentType: String) async throws {
        // The engine's coercion error repeats the value: the bytes C3 AB come back as "ë" only if read as UTF-8.
        let response = try await Self.send(
            body: #"{"query":"query($n: Int) { feed(first: $n) { pageInfo { hasNextPage } } }","variables":{"n":"Zoë"}}"#, contentType: contentType)
        #expect(response.status == .unprocessableContent)
        #expect(response.firstErrorMessage == #"Variable "$n" got invalid value "Zoë"; Int cannot represent non-integer value: "Zoë""#)
    }

    @Test("§4.4 POST: other encodings MAY be supported; this server refuses them with 415")
    func otherEncodingRefused() async throws {
        let response = try await Self.send(body: #"{"query":"{ __typename }"}"#, contentType: "application/json; charset=iso-8859-1")
        Self.expectRefusal(response, .unsupportedMediaType, code: "UNSUPPORTED_MEDIA_TYPE")
    }

    @Test("§3.1 Media Types: an Accept type without charset means UTF-8; the answer is UTF-8 and says so", arguments: HTTPSpecMedia.accepts)
    func acceptWithoutCharset(accept: String) async throws {
        let response = try await Self.send(
            body: #"{"query":"query($n: Int) { feed(first: $n) { pageInfo { hasNextPage } } }","variables":{"n":"Zoë"}}"#, accept: accept)
        #expect(response.headers[.contentType]?.hasSuffix("; charset=utf-8") == true)
        // The bytes C3 AB in, the bytes C3 AB out (not \u00eb, not Latin-1).
        #expect(response.text.contains("Zoë"), "read and written as UTF-8: \(response.text)")
        #expect(response.firstErrorMessage?.hasSuffix(#"Int cannot represent non-integer value: "Zoë""#) == true)
    }

    // MARK: §4 Request

    @Test("§4 Request: a server MUST accept POST, and MAY accept GET: this one does, for queries")
    func postAndGet() async throws {
        let post = try await Self.post("{ __typename }")
        #expect(post.status == .ok && post.text == Self.typename)
        let get = try await Self.send(.get, uri: Self.getURI([("query", "{ __typename }")]))
        #expect(get.status == .ok && get.text == Self.typename)
    }

    // MARK: §4.1 Request Parameters

    @Test(
        "§4.1 Request Parameters: query is required; a body without it (or with null) is not a well-formed request: 422",
        arguments: [#"{}"#, #"{"query":null}"#, #"{"operationName":"A","variables":{}}"#], HTTPSpecMedia.accepts)
    func queryMissing(body: String, accept: String) async throws {
        let response = try await Self.send(body: body, accept: accept)
        Self.expectRefusal(response, .unprocessableContent, code: "BAD_REQUEST")
        #expect(response.firstErrorMessage == #"The "query" parameter is missing: send the GraphQL document as a string."#)
    }

    @Test(
        "§4.1 Request Parameters: query must be a string; a number, boolean, array or object is not a well-formed request: 422",
        arguments: ["1", "true", #"["{ __typename }"]"#, #"{"a":"{ __typename }"}"#], HTTPSpecMedia.accepts)
    func queryWrongType(value: String, accept: String) async throws {
        let response = try await Self.send(body: #"{"query":\#(value)}"#, accept: accept)
        Self.expectRefusal(response, .unprocessableContent, code: "BAD_REQUEST")
        #expect(response.firstErrorMessage == #"The "query" parameter must be a string."#)
    }

    @Test("§4.1 Request Parameters: query need not parse or validate to be well-formed: \"{\" gets a GraphQL response, not a 422", arguments: HTTPSpecMedia.accepts)
    func queryNeedNotParse(accept: String) async throws {
        let response = try await Self.send(body: #"{"query":"{"}"#, accept: accept)
        Self.expectRequestError(response, accept: accept, status: .badRequest, code: "GRAPHQL_PARSE_FAILED")
    }

    @Test("§4.1 Request Parameters: operationName is an optional string naming the operation to run (null or absent: the only one)")
    func operationNameSelects() async throws {
        let document = "query A { a: __typename } query B { b: __typename }"
        let named = try await Self.send(body: #"{"query":"\#(document)","operationName":"B"}"#)
        #expect(named.status == .ok && named.text == #"{"data":{"b":"Query"}}"#)
        let null = try await Self.send(body: #"{"query":"{ __typename }","operationName":null}"#)
        #expect(null.status == .ok && null.text == Self.typename)
    }

    @Test(
        "§4.1 Request Parameters: operationName of another type (number, boolean, array, object) is not a well-formed request: 422",
        arguments: ["1", "false", #"["A"]"#, #"{"name":"A"}"#], HTTPSpecMedia.accepts)
    func operationNameWrongType(value: String, accept: String) async throws {
        let response = try await Self.send(body: #"{"query":"query A { __typename }","operationName":\#(value)}"#, accept: accept)
        Self.expectRefusal(response, .unprocessableContent, code: "BAD_REQUEST")
        #expect(response.firstErrorMessage == #"The "operationName" parameter must be a string."#)
    }

    @Test("§4.1 Request Parameters: variables is an optional map of values for the operation's variables (null or absent: none)")
    func variablesMap() async throws {
        let query = #"query($h: String = \"alice_wonder\") { profile(handle: $h) { handle } }"#
        let given = try await Self.send(body: #"{"query":"\#(query)","variables":{"h":"bob_builder"}}"#)
        #expect(given.status == .ok && given.text == #"{"data":{"profile":{"handle":"bob_builder"}}}"#)
        let null = try await Self.send(body: #"{"query":"\#(query)","variables":null}"#)
        #expect(null.status == .ok && null.text == #"{"data":{"profile":{"handle":"alice_wonder"}}}"#)
    }

    @Test(
        "§4.1 Request Parameters: variables of another type (number, string, boolean, array) is not a well-formed request: 422",
        arguments: ["7", #""{\"h\":1}""#, "true", "[7]"], HTTPSpecMedia.accepts)
    func variablesWrongType(value: String, accept: String) async throws {
        let response = try await Self.send(body: #"{"query":"{ __typename }","variables":\#(value)}"#, accept: accept)
        Self.expectRefusal(response, .unprocessableContent, code: "BAD_REQUEST")
        #expect(response.firstErrorMessage == #"The "variables" parameter must be a JSON object."#)
    }

    @Test("§4.1 Request Parameters: extensions is an optional map (null or absent: none; entries this server does not use are ignored)")
    func extensionsMap() async throws {
        for extensions in [#"{"vendor":{"trace":true}}"#, "{}", "null"] {
            let response = try await Self.send(body: #"{"query":"{ __typename }","extensions":\#(extensions)}"#)
            #expect(response.status == .ok && response.text == Self.typename, "\(extensions): \(response.text)")
        }
    }

    @Test(
        "§4.1 Request Parameters: extensions of another type (number, string, boolean, array) is not a well-formed request: 422",
        arguments: ["7", #""x""#, "false", "[{}]"], HTTPSpecMedia.accepts)
    func extensionsWrongType(value: String, accept: String) async throws {
        let response = try await Self.send(body: #"{"query":"{ __typename }","extensions":\#(value)}"#, accept: accept)
        Self.expectRefusal(response, .unprocessableContent, code: "BAD_REQUEST")
        #expect(response.firstErrorMessage == #"The "extensions" parameter must be a JSON object."#)
    }

    // MARK: §4.2 Accept

    @Test("§4.2 Accept (note): without Accept the server answers in a type of its choosing: application/json")
    func noAccept() async throws {
        let response = try await Self.send(body: #"{"query":"{ __typename }"}"#, accept: nil)
        #expect(response.status == .ok)
        #expect(response.headers[.contentType] == Self.jsonType)
        #expect(response.text == Self.typename)
    }

    @Test("§4.2 Accept: what the spec tells clients to send, application/graphql-response+json, application/json;q=0.9, gets the spec's type")
    func recommendedAccept() async throws {
        let response = try await Self.send(
            body: #"{"query":"{ __typename }"}"#, accept: "application/graphql-response+json, application/json;q=0.9")
        #expect(response.status == .ok)
        #expect(response.headers[.contentType] == Self.specType)
    }

    // MARK: §4.3 GET

    @Test("§4.3 GET: parameters MUST come from the URL query, form-encoded (+ is a space, %XX a byte); no other header is needed")
    func getFormEncoded() async throws {
        let response = try await Self.send(.get, uri: "/graphql?query=%7B+profile(handle:%22bob_builder%22)+%7B+handle+%7D+%7D", accept: nil)
        #expect(response.status == .ok)
        #expect(response.headers[.contentType] == Self.jsonType)
        #expect(response.text == #"{"data":{"profile":{"handle":"bob_builder"}}}"#)
    }

    @Test("§4.3 GET: variables and extensions are JSON strings, operationName a string; a bearer token works as over POST")
    func getParameters() async throws {
        let gateway = try await TestGateway.make()
        let bearer = try await gateway.bearer("carol_creator")
        let uri = Self.getURI([
            ("query", "query A { __typename } query B($h: String!) { profile(handle: $h) { handle } viewer { handle } }"),
            ("operationName", "B"), ("variables", #"{"h":"alice_wonder"}"#), ("extensions", #"{"vendor":1}"#),
        ])
        try await gateway.test { client in
            try await client.execute(uri: uri, method: .get, headers: [.accept: Self.spec, .authorization: bearer]) { response in
                #expect(response.status == .ok)
                #expect(response.text == #"{"data":{"profile":{"handle":"alice_wonder"},"viewer":{"handle":"carol_creator"}}}"#)
            }
        }
    }

    @Test("§4.3 GET: the empty string for an optional parameter is the same as not sending it")
    func getEmptyOptionals() async throws {
        let uri = Self.getURI([("query", "{ __typename }"), ("operationName", ""), ("variables", ""), ("extensions", "")])
        let response = try await Self.send(.get, uri: uri)
        #expect(response.status == .ok && response.text == Self.typename)
    }

    @Test("§4.3 GET: operationName=null names the operation \"null\", not none")
    func getOperationNamedNull() async throws {
        let named = try await Self.send(.get, uri: Self.getURI([("query", "query null { __typename }"), ("operationName", "null")]))
        #expect(named.status == .ok && named.text == Self.typename)
        let other = try await Self.send(.get, uri: Self.getURI([("query", "query A { __typename }"), ("operationName", "null")]))
        Self.expectRequestError(other, accept: Self.spec, status: .unprocessableContent, code: "OPERATION_RESOLUTION_FAILURE")
        #expect(other.firstErrorMessage == #"Unknown operation named "null"."#)
    }

    @Test(
        "§4.3 GET: variables and extensions MUST be JSON: text that does not parse is 400, like a body that is not JSON",
        arguments: [("variables", "{"), ("extensions", "nope")])
    func getParameterNotJSON(name: String, value: String) async throws {
        let response = try await Self.send(.get, uri: Self.getURI([("query", "{ __typename }"), (name, value)]))
        Self.expectRefusal(response, .badRequest, code: "BAD_REQUEST")
        #expect(response.firstErrorMessage?.hasPrefix(#"The "\#(name)" parameter is not valid JSON: "#) == true)
    }

    @Test(
        "§4.3 GET: variables and extensions that are JSON but not a map, and a missing query, are not a well-formed request: 422",
        arguments: [("variables", "[7]"), ("variables", "1"), ("variables", #""x""#), ("extensions", "true"), ("extensions", "[]"), ("query", "")])
    func getParameterWrongType(name: String, value: String) async throws {
        let pairs = name == "query" ? [("operationName", "A")] : [("query", "{ __typename }"), (name, value)]
        let response = try await Self.send(.get, uri: Self.getURI(pairs))
        Self.expectRefusal(response, .unprocessableContent, code: "BAD_REQUEST")
    }

    @Test("§4.3 GET MUST NOT run a mutation: 405 (RECOMMENDED) with Allow: POST, and nothing is written")
    func getMutationRefused() async throws {
        let gateway = try await TestGateway.make()
        let bearer = try await gateway.bearer("alice_wonder")
        let mutation = #"mutation { updateProfile(input: {bio: "written over GET"}) { profile { bio } } }"#
        try await gateway.test { client in
            for uri in [
                Self.getURI([("query", mutation)]),
                // The operation chosen by operationName decides, not what else the document holds.
                Self.getURI([("query", "query Q { __typename } " + mutation.replacingOccurrences(of: "mutation", with: "mutation M")), ("operationName", "M")]),
            ] {
                try await client.execute(uri: uri, method: .get, headers: [.accept: Self.spec, .authorization: bearer]) { response in
                    #expect(response.status == .methodNotAllowed)
                    #expect(response.headers[.allow] == "POST")
                    #expect(response.text == #"{"errors":[{"message":"Can only perform a mutation operation from a POST request."}]}"#)
                }
            }
            let query = Self.getURI([("query", "query Q { __typename } mutation M { signOut }"), ("operationName", "Q")])
            try await client.execute(uri: query, method: .get, headers: [.accept: Self.spec, .authorization: bearer]) { response in
                #expect(response.status == .ok && response.text == Self.typename)
            }
            try await client.execute(
                uri: "/graphql", method: .post, headers: .graphQL(), body: GraphQLBody.json(#"{ profile(handle: "alice_wonder") { bio } }"#)
            ) { response in
                #expect(response.status == .ok)
                #expect(!response.text.contains("written over GET"))
            }
        }
    }

    // MARK: §4.4 POST

    @Test("§4.4 POST without Content-Type SHOULD be rejected with a 4xx: 415")
    func postWithoutContentType() async throws {
        let response = try await Self.send(body: #"{"query":"{ __typename }"}"#, contentType: nil)
        Self.expectRefusal(response, .unsupportedMediaType, code: "UNSUPPORTED_MEDIA_TYPE")
        #expect(response.firstErrorMessage == "Missing Content-Type: send application/json, or multipart/form-data for uploads.")
    }

    @Test(
        "§4.4 POST MAY support other media types; §5.4 an unsupported Content-Type SHOULD be 415 (a simple type like text/plain included)",
        arguments: ["text/plain", "application/x-www-form-urlencoded", "application/graphql", "application/xml"])
    func postOtherMediaTypes(contentType: String) async throws {
        let response = try await Self.send(body: #"{"query":"{ __typename }"}"#, contentType: contentType)
        Self.expectRefusal(response, .unsupportedMediaType, code: "UNSUPPORTED_MEDIA_TYPE")
    }

    // MARK: §4.4.1 JSON Encoding

    @Test("§4.4.1 JSON Encoding: a server MUST ignore properties it does not understand")
    func unknownPropertiesIgnored() async throws {
        let response = try await Self.send(body: #"{"query":"{ __typename }","documentId":"x","queryId":7,"variables":{}}"#)
        #expect(response.status == .ok && response.text == Self.typename)
    }

    @Test("§4.4.1 JSON Encoding: null for an optional parameter is the same as not specifying it")
    func nullOptionals() async throws {
        let response = try await Self.send(body: #"{"query":"{ __typename }","operationName":null,"variables":null,"extensions":null}"#)
        #expect(response.status == .ok && response.text == Self.typename)
    }

    @Test(
        "§4.4.1 JSON Encoding: a request is a JSON object; JSON of another kind is not a well-formed request: 422",
        arguments: [#""{ __typename }""#, "7", "null", "true"])
    func bodyNotAnObject(body: String) async throws {
        let response = try await Self.send(body: body)
        Self.expectRefusal(response, .unprocessableContent, code: "BAD_REQUEST")
    }

    // MARK: §5.1 Body

    @Test(
        "§5.1 Body: the response MUST state its media type in Content-Type and SHOULD state the encoding",
        arguments: [(HTTPSpecMedia.spec, HTTPSpecMedia.specType), ("application/json", HTTPSpecMedia.jsonType)])
    func contentTypeWithCharset(accept: String, contentType: String) async throws {
        let response = try await Self.send(body: #"{"query":"{ __typename }"}"#, accept: accept)
        #expect(response.status == .ok)
        #expect(response.headers[.contentType] == contentType)
    }

    @Test(
        "§5.1 Body: a server MUST respect Accept and answer in the highest-priority type it supports (q-values, then the more specific range)",
        arguments: [
            ("application/json;q=0.9, application/graphql-response+json", HTTPSpecMedia.specType),
            ("application/graphql-response+json;q=0.5, application/json", HTTPSpecMedia.jsonType),
            ("application/json, application/graphql-response+json", HTTPSpecMedia.specType),
            ("text/html, application/graphql-response+json;q=0.1", HTTPSpecMedia.specType),
            ("application/graphql-response+json, */*;q=0.5", HTTPSpecMedia.specType),
            ("*/*", HTTPSpecMedia.jsonType),
            ("application/*", HTTPSpecMedia.jsonType),
            ("text/html, */*;q=0.8", HTTPSpecMedia.jsonType),
            ("application/graphql-response+json;q=0, */*", HTTPSpecMedia.jsonType),
        ])
    func acceptPriority(accept: String, contentType: String) async throws {
        let response = try await Self.send(body: #"{"query":"{ __typename }"}"#, accept: accept)
        #expect(response.status == .ok)
        #expect(response.headers[.contentType] == contentType)
        #expect(response.text == Self.typename)
    }

    @Test(
        "§5.1 Body: with no acceptable type a server MUST answer 406 or ignore Accept; it SHOULD be 406 when application/json is not accepted either",
        arguments: ["text/html", "application/xml, text/plain;q=0.5", "application/graphql-response+json;q=0, application/json;q=0"])
    func notAcceptable(accept: String) async throws {
        let response = try await Self.send(body: #"{"query":"{ __typename }"}"#, accept: accept)
        Self.expectRefusal(response, .notAcceptable, code: "NOT_ACCEPTABLE")
    }

    @Test("§5.1 Body: a client accepting only application/json SHOULD get the spec's answers with 2xx relabelled; deviation: its request errors stay 200")
    func jsonOnlyClient() async throws {
        let success = try await Self.post("{ __typename }", accept: "application/json")
        #expect(success.status == .ok)
        #expect(success.headers[.contentType] == Self.jsonType)
        #expect(success.text == Self.typename)
        // The draft would answer 422 labelled application/graphql-response+json; this server keeps
        // the 200 older editions asked for, which such clients read (docs/SERVER.md).
        let invalid = try await Self.post("{ nope }", accept: "application/json")
        Self.expectRequestError(invalid, accept: "application/json", status: .unprocessableContent, code: "GRAPHQL_VALIDATION_FAILED")
    }

    // MARK: §5.2 Validation, §5.3 Execution

    @Test("§5.2 Validation SHOULD apply every rule of the GraphQL specification: an unknown field is a request error", arguments: HTTPSpecMedia.accepts)
    func validationApplied(accept: String) async throws {
        let response = try await Self.post("{ nope }", accept: accept)
        Self.expectRequestError(response, accept: accept, status: .unprocessableContent, code: "GRAPHQL_VALIDATION_FAILED")
        #expect(response.text == #"{"errors":[{"message":"Cannot query field \"nope\" on type \"Query\". Did you mean \"node\"?","locations":[{"line":1,"column":3}],"extensions":{"code":"GRAPHQL_VALIDATION_FAILED"}}]}"#)
    }

    @Test("§5.2 Validation: a server MAY apply more rules: the depth limit (QUERY_TOO_DEEP) is a validation error", arguments: HTTPSpecMedia.accepts)
    func additionalRules(accept: String) async throws {
        var selection = "handle"
        for _ in 0..<14 { selection = "followers { nodes { \(selection) } }" }
        let response = try await Self.post(#"{ profile(handle: "alice_wonder") { \#(selection) } }"#, accept: accept)
        Self.expectRequestError(response, accept: accept, status: .unprocessableContent, code: "QUERY_TOO_DEEP")
    }

    @Test("§5.3 Execution: a request that does not pass validation is not executed: a mutation with an unknown field writes nothing")
    func invalidNotExecuted() async throws {
        let gateway = try await TestGateway.make()
        let bearer = try await gateway.bearer("alice_wonder")
        try await gateway.test { client in
            let mutation = GraphQLBody.json(#"mutation { updateProfile(input: {bio: "never written"}) { profile { bio } nope } }"#)
            try await client.execute(uri: "/graphql", method: .post, headers: .graphQL(authorization: bearer), body: mutation) { response in
                Self.expectRequestError(response, accept: Self.spec, status: .unprocessableContent, code: "GRAPHQL_VALIDATION_FAILED")
            }
            try await client.execute(
                uri: "/graphql", method: .post, headers: .graphQL(), body: GraphQLBody.json(#"{ profile(handle: "alice_wonder") { bio } }"#)
            ) { response in
                #expect(response.status == .ok)
                #expect(!response.text.contains("never written"))
            }
        }
    }

    // MARK: §5.4 Status Codes

    @Test("§5.4 Status Codes: a JSON body that does not parse SHOULD be 400, and MUST NOT be labelled application/graphql-response+json", arguments: ["NONSENSE", #"{"query":"#, ""], HTTPSpecMedia.accepts)
    func jsonParseFailure(body: String, accept: String) async throws {
        let response = try await Self.send(body: body, accept: accept)
        Self.expectRefusal(response, .badRequest, code: "BAD_REQUEST")
        #expect(response.firstErrorMessage?.hasPrefix("The request body is not valid JSON: ") == true)
    }

    @Test("§5.4 Status Codes: a request that is not well-formed SHOULD be 422 (the draft's examples: a misspelt query, variables [7])", arguments: [#"{"qeury":"{ __typename }"}"#, #"{"query":"query Q ($i:Int!) { __typename }","variables":[7]}"#], HTTPSpecMedia.accepts)
    func notWellFormed(body: String, accept: String) async throws {
        let response = try await Self.send(body: body, accept: accept)
        Self.expectRefusal(response, .unprocessableContent, code: "BAD_REQUEST")
    }

    @Test("§5.4 Status Codes: a document that does not parse SHOULD be 400 (application/json clients: 200)", arguments: HTTPSpecMedia.accepts)
    func documentParseFailure(accept: String) async throws {
        let response = try await Self.send(body: #"{"query":"{"}"#, accept: accept)
        Self.expectRequestError(response, accept: accept, status: .badRequest, code: "GRAPHQL_PARSE_FAILED")
        #expect(response.firstErrorMessage?.hasPrefix("Syntax Error: ") == true)
    }

    @Test("§5.4 Status Codes: a document that does not validate SHOULD be 422 (application/json clients: 200)", arguments: HTTPSpecMedia.accepts)
    func documentValidationFailure(accept: String) async throws {
        let response = try await Self.post(#"{ profile(handle: 7) { handle } }"#, accept: accept)
        Self.expectRequestError(response, accept: accept, status: .unprocessableContent, code: "GRAPHQL_VALIDATION_FAILED")
    }

    @Test(
        "§5.4 Status Codes: an operation that cannot be determined SHOULD be 422 and not run (application/json clients: 200)",
        arguments: [
            (#"{"query":"query A { __typename } query B { __typename }"}"#, "Must provide operation name if query contains multiple operations."),
            (#"{"query":"query A { __typename }","operationName":"B"}"#, #"Unknown operation named "B"."#),
        ], HTTPSpecMedia.accepts)
    func operationUndetermined(request: (String, String), accept: String) async throws {
        let (body, message) = request
        let response = try await Self.send(body: body, accept: accept)
        Self.expectRequestError(response, accept: accept, status: .unprocessableContent, code: "OPERATION_RESOLUTION_FAILURE")
        #expect(response.firstErrorMessage == message)
    }

    @Test(
        "§5.4 Status Codes: variables that cannot be coerced SHOULD be 422 and not run (application/json clients: 200)",
        arguments: [
            (#"{}"#, #"Variable "$h" of required type "String!" was not provided."#),
            (#"{"h":7}"#, #"Variable "$h" got invalid value 7; String cannot represent a non string value: 7"#),
        ], HTTPSpecMedia.accepts)
    func variableCoercionFailure(request: (String, String), accept: String) async throws {
        let (variables, message) = request
        let response = try await Self.send(
            body: #"{"query":"query($h: String!) { profile(handle: $h) { handle } }","variables":\#(variables)}"#, accept: accept)
        Self.expectRequestError(response, accept: accept, status: .unprocessableContent, code: "BAD_USER_INPUT")
        #expect(response.firstErrorMessage == message)
    }

    @Test("§5.4 Status Codes: data present and not null MUST be 2xx; data without errors SHOULD be 200", arguments: HTTPSpecMedia.accepts)
    func dataWithoutErrors(accept: String) async throws {
        let response = try await Self.post(#"{ profile(handle: "carol_creator") { handle } }"#, accept: accept)
        #expect(response.status == .ok)
        #expect(response.text == #"{"data":{"profile":{"handle":"carol_creator"}}}"#)
    }

    @Test("§5.4 Status Codes: data with errors (a field error) is 200, as §5.4.1 \"Field errors\" says; deviation: not the 294 §5.4 recommends", arguments: HTTPSpecMedia.accepts)
    func dataWithFieldErrors(accept: String) async throws {
        let response = try await Self.post(#"{ profile(handle: "alice_wonder") { followers(first: 1) { totalCount } } }"#, accept: accept)
        #expect(response.status == .ok)
        #expect(response.firstErrorCode == "UNAUTHENTICATED")
        #expect(response.text.hasSuffix(#""data":{"profile":null}}"#))
    }

    @Test("§5.4 Status Codes: an unsupported HTTP method SHOULD be 405, with the Allow header RFC 9110 requires", arguments: [HTTPRequest.Method.put, .patch, .delete])
    func unsupportedMethod(method: HTTPRequest.Method) async throws {
        let response = try await Self.send(method, body: #"{"query":"{ __typename }"}"#)
        Self.expectRefusal(response, .methodNotAllowed, code: "METHOD_NOT_ALLOWED")
        #expect(response.headers[.allow] == "GET, POST")
    }

    @Test("§5.4 Status Codes: a POST body over the size limit SHOULD be 413")
    func bodyTooLarge() async throws {
        let response = try await Self.send(
            body: #"{"query":"{ __typename }"}"# + String(repeating: " ", count: 2048)) { $0.server.maxBodyBytes = 1024 }
        Self.expectRefusal(response, .contentTooLarge, code: "PAYLOAD_TOO_LARGE")
    }

    // MARK: §6.2 Security (non-normative)

    @Test("§6.2 Security: a request a browser sends cross-site without a preflight cannot run a mutation: simple types are 415, multipart needs a preflight header")
    func simpleRequestsCannotMutate() async throws {
        let body = #"{"query":"mutation { signOut }"}"#
        for contentType in ["text/plain", "application/x-www-form-urlencoded"] {
            let response = try await Self.send(body: body, contentType: contentType)
            Self.expectRefusal(response, .unsupportedMediaType, code: "UNSUPPORTED_MEDIA_TYPE")
        }
        let multipart = try await Self.send(body: "--b--\r\n", contentType: "multipart/form-data; boundary=b")
        Self.expectRefusal(multipart, .badRequest, code: "CSRF_PREFLIGHT_REQUIRED")
    }
}

/// The media types of the suite, where `@Test(arguments:)` can name them.
enum HTTPSpecMedia {
    static let spec = "application/graphql-response+json"
    static let specType = "application/graphql-response+json; charset=utf-8"
    static let jsonType = "application/json; charset=utf-8"
    /// The two ways a client may ask: the spec's type, or only `application/json` (a client that
    /// predates it).
    static let accepts = [spec, "application/json"]
}
