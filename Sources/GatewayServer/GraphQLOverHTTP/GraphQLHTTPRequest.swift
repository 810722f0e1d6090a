import Foundation
import GraphQLEngine

/// The GraphQL-over-HTTP request parameters of one operation: `query`, `operationName`,
/// `variables`, `extensions` (GraphQL over HTTP, "Request Parameters").
public struct GraphQLParameters: Sendable, Hashable {
    public var query: String?
    public var operationName: String?
    public var variables: JSONObject
    public var extensions: JSONObject?

    public init(query: String?, operationName: String? = nil, variables: JSONObject = [:], extensions: JSONObject? = nil) {
        self.query = query
        self.operationName = operationName
        self.variables = variables
        self.extensions = extensions
    }
}

/// A decoded `/graphql` request body: one operation, or a batch (a JSON array) that clients use to
/// fetch several profile graphs in one round trip.
///
/// Decoding is strict about shapes (a `variables` that is not an object is a 422 naming the
/// parameter) and lenient where the spec says so (`null` and `""` mean absent).
///
/// ```swift
/// let body = try GraphQLHTTPRequest.decodeJSON(bytes, maxBatchSize: 20, maxJSONValues: 10_000)
/// let get = try GraphQLHTTPRequest.decodeQueryString(request.uri.query, maxJSONValues: 10_000)
/// ```
public enum GraphQLHTTPRequest: Sendable, Hashable {
    case single(GraphQLParameters)
    case batch([GraphQLParameters])

    /// The operations in order (one for a single request).
    public var operations: [GraphQLParameters] {
        switch self {
        case .single(let parameters): [parameters]
        case .batch(let list): list
        }
    }

    /// Decodes a POST body (`application/json`).
    /// - Parameter maxJSONValues: the most values the body may hold (members and items at
    ///   every level); the parse stops there, so a hostile body costs at most that much work.
    /// - Throws: ``GatewayHTTPError`` `invalidJSON`, `tooManyJSONValues`, `invalidParameters`, `batchTooLarge`.
    public static func decodeJSON(_ bytes: [UInt8], maxBatchSize: Int, maxJSONValues: Int) throws(GatewayHTTPError) -> GraphQLHTTPRequest {
        try decode(try parseJSON(bytes, maxValues: maxJSONValues), maxBatchSize: maxBatchSize)
    }

    /// Parses one JSON document of a request under the value limit.
    /// - Throws: ``GatewayHTTPError`` `tooManyJSONValues` past the limit, `invalidJSON` otherwise.
    static func parseJSON(_ bytes: [UInt8], maxValues: Int) throws(GatewayHTTPError) -> JSONValue {
        do throws(JSONParser.Error) {
            return try JSONParser.parse(bytes, maxValues: maxValues)
        } catch {
            if error.exceedsValueLimit { throw .tooManyJSONValues(limit: maxValues) }
            throw .invalidJSON(error.description)
        }
    }

    /// Decodes an already parsed body (also the multipart `operations` field).
    public static func decode(_ value: JSONValue, maxBatchSize: Int) throws(GatewayHTTPError) -> GraphQLHTTPRequest {
        switch value {
        case .object(let object):
            return .single(try parameters(object, at: nil))
        case .array(let items):
            guard !items.isEmpty else { throw .invalidParameters("A batch must hold at least one operation.") }
            guard items.count <= maxBatchSize else { throw .batchTooLarge(count: items.count, limit: maxBatchSize) }
            var list: [GraphQLParameters] = []
            list.reserveCapacity(items.count)
            for (index, item) in items.enumerated() {
                guard case .object(let object) = item else {
                    throw .invalidParameters("Batch entry \(index) must be a JSON object with a \"query\".")
                }
                list.append(try parameters(object, at: index))
            }
            return .batch(list)
        default:
            throw .invalidParameters(
                "The request body must be a JSON object with a \"query\" (or an array of them for a batch).")
        }
    }

    /// Decodes the parameters of a GET request from the URL's query component
    /// (`application/x-www-form-urlencoded`; `variables` and `extensions` are JSON strings).
    /// - Throws: ``GatewayHTTPError`` `malformedRequest` (not percent-encoding, a JSON parameter
    ///   that does not parse), `invalidParameters`, `tooManyJSONValues`.
    public static func decodeQueryString(_ query: String?, maxJSONValues: Int) throws(GatewayHTTPError) -> GraphQLParameters {
        var fields: [String: String] = [:]
        for pair in (query ?? "").split(separator: "&", omittingEmptySubsequences: true) {
            let equals = pair.firstIndex(of: "=") ?? pair.endIndex
            let name = try formDecode(pair[..<equals])
            let value = equals == pair.endIndex ? "" : try formDecode(pair[pair.index(after: equals)...])
            guard fields[name] == nil else { throw .invalidParameters("The parameter \"\(name)\" is given more than once.") }
            fields[name] = value
        }
        var object = JSONObject()
        if let query = fields["query"], !query.isEmpty { object.append("query", .string(query)) }
        if let name = fields["operationName"], !name.isEmpty { object.append("operationName", .string(name)) }
        for key in ["variables", "extensions"] {
            guard let text = fields[key], !text.isEmpty else { continue }
            do throws(JSONParser.Error) {
                object.append(key, try JSONParser.parse(text, maxValues: maxJSONValues))
            } catch {
                if error.exceedsValueLimit { throw .tooManyJSONValues(limit: maxJSONValues) }
                throw .malformedRequest("The \"\(key)\" parameter is not valid JSON: \(error.description).")
            }
        }
        return try parameters(object, at: nil)
    }

    static func parameters(_ object: JSONObject, at index: Int?) throws(GatewayHTTPError) -> GraphQLParameters {
        let prefix = index.map { "Batch entry \($0): the" } ?? "The"
        var result = GraphQLParameters(query: nil)
        switch object["query"] {
        case nil, .null?: break
        case .string(let text)?: result.query = text
        default: throw .invalidParameters("\(prefix) \"query\" parameter must be a string.")
        }
        switch object["operationName"] {
        case nil, .null?: break
        case .string(let name)?: result.operationName = name.isEmpty ? nil : name
        default: throw .invalidParameters("\(prefix) \"operationName\" parameter must be a string.")
        }
        switch object["variables"] {
        case nil, .null?: break
        case .object(let variables)?: result.variables = variables
        default: throw .invalidParameters("\(prefix) \"variables\" parameter must be a JSON object.")
        }
        switch object["extensions"] {
        case nil, .null?: break
        case .object(let extensions)?: result.extensions = extensions
        default: throw .invalidParameters("\(prefix) \"extensions\" parameter must be a JSON object.")
        }
        if result.query == nil, result.extensions?["persistedQuery"] == nil {
            throw .invalidParameters("\(prefix) \"query\" parameter is missing: send the GraphQL document as a string.")
        }
        return result
    }

    /// `+` is a space, then percent-decoding (WHATWG URLSearchParams).
    static func formDecode(_ text: Substring) throws(GatewayHTTPError) -> String {
        let spaced = text.replacingOccurrences(of: "+", with: " ")
        guard let decoded = spaced.removingPercentEncoding else {
            throw .malformedRequest("The URL query is not valid percent-encoding.")
        }
        return decoded
    }
}
