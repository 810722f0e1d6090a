import Hummingbird
import SocialGateway

extension GatewayResponse {
    /// The status of a request error (no `data`) under `application/graphql-response+json`,
    /// GraphQL over HTTP, "Status Codes" (the draft: 422 where older editions said 400).
    ///
    /// 422 when the document parsed but cannot run as sent: it does not validate (the spec's
    /// rules or ours, such as depth, cost, aliases and introspection switched off), the
    /// operation cannot be chosen, the variables do not coerce, or its answer would be larger
    /// than the server sends (`RESPONSE_TOO_LARGE`: the request asked for more than it may, as
    /// `QUERY_TOO_COMPLEX` says before execution). 400 otherwise: the document
    /// does not parse, or a persisted-query hash names nothing (Apollo's protocol, outside the spec).
    /// Codes are the ones ``SocialGateway/GatewayService`` puts in `extensions.code`.
    ///
    /// ```swift
    /// status = mediaType == .graphQLResponse ? result.requestErrorStatus : .ok
    /// ```
    var requestErrorStatus: HTTPResponse.Status {
        errorCodes.contains(where: Self.unprocessableCodes.contains) ? .unprocessableContent : .badRequest
    }

    /// The `extensions.code`s of request errors that are 422 (``requestErrorStatus``).
    static let unprocessableCodes: Set<String> = [
        "GRAPHQL_VALIDATION_FAILED", "QUERY_TOO_DEEP", "QUERY_TOO_COMPLEX", "TOO_MANY_ALIASES", "INTROSPECTION_DISABLED",
        "OPERATION_RESOLUTION_FAILURE", "BAD_USER_INPUT", "RESPONSE_TOO_LARGE",
    ]
}
