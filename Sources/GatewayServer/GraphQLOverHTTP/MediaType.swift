/// The two response media types of GraphQL over HTTP, and the `Accept` negotiation between them.
///
/// `application/graphql-response+json` lets the status code follow the outcome (400 for a
/// document that does not parse, 422 for one that does not validate or run); `application/json`
/// is for clients that do not name the new type, which get 200 for those request errors too
/// (GraphQL over HTTP, "Accept" and "Body"; docs/SERVER.md says where we differ from the draft).
///
/// ```swift
/// let type = try MediaType.negotiate(accept: request.headers[.accept])   // or 406
/// ```
public enum MediaType: Sendable, Hashable {
    case graphQLResponse
    case json

    /// `Content-Type` header value, with the charset the spec asks servers to state.
    public var headerValue: String {
        switch self {
        case .graphQLResponse: "application/graphql-response+json; charset=utf-8"
        case .json: "application/json; charset=utf-8"
        }
    }

    /// Picks the response type for an `Accept` header (RFC 9110 §12.5.1).
    ///
    /// Each type gets the q of the most specific range that matches it (`application/json`
    /// before `application/*` before `*/*`); the higher q wins. On a tie the spec's type wins only
    /// when the client named it: a client that did not (`*/*`, `application/*`, no header at
    /// all) may predate it, and gets `application/json`, as GraphQL over HTTP's "Accept" note
    /// leaves to the server and its compliance checks expect.
    /// - Throws: ``GatewayHTTPError/notAcceptable(_:)`` when neither type is acceptable.
    public static func negotiate(accept: String?) throws(GatewayHTTPError) -> MediaType {
        guard let accept else { return .json }
        // The values clients send on nearly every request, compared byte for byte: the general
        // parse below splits and lower-cases, 3% of the CPU of a cached answer (issue #17).
        switch accept {
        case "application/graphql-response+json",
             "application/graphql-response+json, application/json",
             "application/graphql-response+json, application/json;q=0.9":
            return .graphQLResponse
        case "application/json", "*/*": return .json
        default: break
        }
        guard !accept.allSatisfy({ $0 == " " || $0 == "\t" }) else { return .json }
        // Per type: (specificity of the best matching range, its q); specificity 0 = no match.
        var graphQL = (specificity: 0, q: 0.0)
        var json = (specificity: 0, q: 0.0)
        for range in accept.split(separator: ",") {
            let parameters = range.split(separator: ";").map { $0.trimmingSpaces.lowercased() }
            guard let name = parameters.first else { continue }
            var q = 1.0
            for parameter in parameters.dropFirst() where parameter.hasPrefix("q=") {
                q = Double(parameter.dropFirst(2)) ?? 0
            }
            let matchesGraphQL, matchesJSON: Int
            switch name {
            case "application/graphql-response+json": (matchesGraphQL, matchesJSON) = (3, 0)
            case "application/json": (matchesGraphQL, matchesJSON) = (0, 3)
            case "application/*": (matchesGraphQL, matchesJSON) = (2, 2)
            case "*/*": (matchesGraphQL, matchesJSON) = (1, 1)
            default: continue
            }
            if matchesGraphQL > graphQL.specificity { graphQL = (matchesGraphQL, q) }
            if matchesJSON > json.specificity { json = (matchesJSON, q) }
        }
        guard graphQL.q > 0 || json.q > 0 else { throw .notAcceptable(accept) }
        if graphQL.q != json.q { return graphQL.q > json.q ? .graphQLResponse : .json }
        return graphQL.specificity == 3 ? .graphQLResponse : .json
    }
}

/// A request `Content-Type`, split into its lower-cased essence and parameters.
struct ContentType: Sendable, Hashable {
    /// `type/subtype`, lower-cased.
    var essence: String
    /// Parameter names lower-cased; values unquoted, case kept (a multipart boundary is case-sensitive).
    var parameters: [String: String]

    init?(_ header: String?) {
        guard let header else { return nil }
        // What nearly every request sends, without splitting and lower-casing (issue #17).
        if header == "application/json" {
            essence = header
            parameters = [:]
            return
        }
        let parts = header.split(separator: ";")
        guard let first = parts.first?.trimmingSpaces.lowercased(), !first.isEmpty else { return nil }
        essence = first
        var parameters: [String: String] = [:]
        for part in parts.dropFirst() {
            guard let equals = part.firstIndex(of: "=") else { continue }
            let name = part[..<equals].trimmingSpaces.lowercased()
            var value = part[part.index(after: equals)...].trimmingSpaces
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") { value = String(value.dropFirst().dropLast()) }
            parameters[name] = value
        }
        self.parameters = parameters
    }

    /// The three types a browser may send cross-site without a CORS preflight (Fetch, "CORS-safelisted").
    var isSimpleForm: Bool {
        ["application/x-www-form-urlencoded", "multipart/form-data", "text/plain"].contains(essence)
    }

    /// `application/json` or a `+json` type, in UTF-8 (the only charset GraphQL over HTTP requires).
    var isJSON: Bool {
        (essence == "application/json" || essence == "application/graphql-response+json")
            && (parameters["charset"].map { $0.lowercased() == "utf-8" } ?? true)
    }
}

extension StringProtocol {
    /// The text without leading and trailing spaces and tabs (header whitespace, RFC 9110 §5.6.3).
    var trimmingSpaces: String {
        var slice = Substring(self)
        while let first = slice.first, first == " " || first == "\t" { slice.removeFirst() }
        while let last = slice.last, last == " " || last == "\t" { slice.removeLast() }
        return String(slice)
    }
}
