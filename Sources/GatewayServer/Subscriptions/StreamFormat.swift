import GraphQLEngine

/// The two HTTP streaming transports of `/graphql`, chosen by `Accept`:
/// - GraphQL over server-sent events, the `graphql-sse` protocol's distinct-connections mode
///   (`Accept: text/event-stream`): `event: next` per answer, `event: complete` at the end,
///   comment lines as keep-alives.
/// - Apollo's multipart subscriptions (`Accept: multipart/mixed;subscriptionSpec="1.0"`, what
///   Apollo iOS, Kotlin and Client send): one `application/json` part per answer as
///   `{"payload":...}`, `{}` parts as heartbeats, `{"payload":null,"errors":[...]}` for a
///   transport error, and the closing delimiter at the end.
enum StreamFormat: Sendable, Hashable {
    case serverSentEvents
    case multipart

    /// The streaming format an `Accept` header asks for, or nil for a plain answer.
    static func negotiate(accept: String?) -> StreamFormat? {
        guard let accept, HeaderScan.contains(accept, "event-stream") || HeaderScan.contains(accept, "multipart") else { return nil }
        for range in accept.split(separator: ",") {
            guard let type = ContentType(String(range)) else { continue }
            switch type.essence {
            case "text/event-stream": return .serverSentEvents
            case "multipart/mixed" where type.parameters["subscriptionspec"] != nil: return .multipart
            default: continue
            }
        }
        return nil
    }

    var contentType: String {
        switch self {
        case .serverSentEvents: "text/event-stream; charset=utf-8"
        case .multipart: #"multipart/mixed;boundary="graphql";subscriptionSpec="1.0""#
        }
    }

    // Each multipart part ends with the next delimiter, written right after its JSON (as Apollo
    // Router does): Apollo's clients treat a part as complete only when the delimiter arrives.
    private static let partHead = Array("\r\ncontent-type: application/json; charset=utf-8\r\n\r\n".utf8)
    private static let delimiter = Array("\r\n--graphql".utf8)

    /// What the stream starts with, written at once so that the status and headers reach the
    /// client before the first event: a comment line, or the first delimiter of a multipart body.
    var opening: [UInt8] {
        switch self {
        case .serverSentEvents: heartbeat
        case .multipart: Self.delimiter
        }
    }

    /// One answer (a GraphQL response body).
    func next(_ body: [UInt8]) -> [UInt8] {
        switch self {
        case .serverSentEvents: Array("event: next\ndata: ".utf8) + body + Array("\n\n".utf8)
        case .multipart: Self.partHead + Array(#"{"payload":"#.utf8) + body + [UInt8(ascii: "}")] + Self.delimiter
        }
    }

    /// A failure that ends the stream (errors of the transport, not of an answer).
    func failure(_ errors: [GraphQLError]) -> [UInt8] {
        let body = ExecutionResult.requestError(errors).serialized()
        switch self {
        case .serverSentEvents:
            return next(body)
        case .multipart:
            // {"errors":[...]} -> {"payload":null,"errors":[...]}
            return Self.partHead + Array(#"{"payload":null,"#.utf8) + body.dropFirst() + Self.delimiter
        }
    }

    /// The end of the stream.
    var complete: [UInt8] {
        switch self {
        case .serverSentEvents: Array("event: complete\ndata:\n\n".utf8)
        case .multipart: Array("--\r\n".utf8)
        }
    }

    /// A keep-alive, so proxies and clients see the stream is alive (and a gone client is noticed).
    var heartbeat: [UInt8] {
        switch self {
        case .serverSentEvents: Array(":\n\n".utf8)
        case .multipart: Self.partHead + Array("{}".utf8) + Self.delimiter
        }
    }
}
