import GraphQLEngine

/// A message of the `graphql-transport-ws` protocol (the `graphql-ws` library's, which Apollo
/// Client, Apollo Kotlin, urql and Relay speak), as a client sends it.
///
/// Reference: https://github.com/enisdenjo/graphql-ws/blob/master/PROTOCOL.md
enum TransportWSMessage: Sendable, Equatable {
    case connectionInit(payload: JSONObject?)
    case ping(payload: JSONObject?)
    case pong
    case subscribe(id: String, payload: GraphQLParameters)
    case complete(id: String)

    /// Why a text could not be read: the connection closes with 4400 and this reason.
    struct Invalid: Error, Equatable {
        let reason: String
    }

    /// Reads one text message; anything that is not one of the client's messages is ``Invalid``.
    static func parse(_ text: String, maxJSONValues: Int) throws(Invalid) -> TransportWSMessage {
        guard case .object(let object)? = try? JSONParser.parse(Array(text.utf8), maxValues: maxJSONValues) else {
            throw Invalid(reason: "Invalid message received: not a JSON object")
        }
        guard case .string(let type)? = object["type"] else { throw Invalid(reason: "Invalid message received: no type") }
        func payloadObject() throws(Invalid) -> JSONObject? {
            switch object["payload"] {
            case nil, .null?: return nil
            case .object(let payload)?: return payload
            default: throw Invalid(reason: "Invalid message received: \(type) payload must be an object")
            }
        }
        func id() throws(Invalid) -> String {
            guard case .string(let id)? = object["id"], !id.isEmpty else {
                throw Invalid(reason: "Invalid message received: \(type) needs an id")
            }
            return id
        }
        switch type {
        case "connection_init": return .connectionInit(payload: try payloadObject())
        case "ping": return .ping(payload: try payloadObject())
        case "pong": return .pong
        case "subscribe":
            let id = try id()
            guard let payload = try payloadObject() else { throw Invalid(reason: "Invalid message received: subscribe needs a payload") }
            do {
                return .subscribe(id: id, payload: try GraphQLHTTPRequest.parameters(payload, at: nil))
            } catch {
                throw Invalid(reason: "Invalid message received: \(error.message)")
            }
        case "complete": return .complete(id: try id())
        default: throw Invalid(reason: "Invalid message received: unknown type \"\(type)\"")
        }
    }

    /// The token a `connection_init` payload carries: `Authorization`/`authorization` as
    /// `Bearer <token>` (what Apollo and urql examples send), or `token`.
    static func authorization(in payload: JSONObject?) -> String? {
        guard let payload else { return nil }
        for key in ["Authorization", "authorization"] {
            if let value = payload[key]?.stringValue { return value }
        }
        if let headers = payload["headers"]?.objectValue {
            for key in ["Authorization", "authorization"] {
                if let value = headers[key]?.stringValue { return value }
            }
        }
        if let token = payload["token"]?.stringValue { return "Bearer " + token }
        return nil
    }
}

/// What the server sends, written as JSON text.
enum TransportWSReply {
    static let connectionAck = #"{"type":"connection_ack"}"#
    static let pong = #"{"type":"pong"}"#

    static func next(id: String, body: [UInt8]) -> String {
        #"{"id":"# + JSONWriter.string(.string(id)) + #","type":"next","payload":"# + String(decoding: body, as: UTF8.self) + "}"
    }

    static func error(id: String, errors: JSONValue) -> String {
        #"{"id":"# + JSONWriter.string(.string(id)) + #","type":"error","payload":"# + JSONWriter.string(errors) + "}"
    }

    static func complete(id: String) -> String {
        #"{"id":"# + JSONWriter.string(.string(id)) + #","type":"complete"}"#
    }
}

/// The protocol's close codes.
enum TransportWSClose: Int {
    case invalidMessage = 4400
    case unauthorized = 4401
    case forbidden = 4403
    case initialisationTimeout = 4408
    case subscriberExists = 4409
    case tooManyInitialisationRequests = 4429
    /// RFC 6455's "Try Again Later": a bound on sockets was reached (``StreamingAdmission``).
    case tryAgainLater = 1013
}
