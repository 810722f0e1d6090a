import GraphQLEngine
import SocialDomain

/// Domain errors reach clients with their message and `extensions.code` (and the
/// offending input `field` where there is one).
extension DomainError: GraphQLErrorConvertible {
    public var graphQLMessage: String { message }

    public var graphQLExtensions: JSONObject? {
        var extensions: JSONObject = ["code": .string(code.rawValue)]
        if let field { extensions["field"] = .string(field) }
        if let retryAfterSeconds { extensions["retryAfter"] = .int(retryAfterSeconds) }
        return extensions
    }
}
