import GraphQLLanguage

/// One operation to execute: a parsed (and validated) document plus its inputs.
public struct GraphQLRequest: Sendable {
    public var document: Document
    /// The source the document was parsed from, to locate errors.
    public var source: Source?
    public var operationName: String?
    public var variables: JSONObject
    /// Per-request state for resolvers: the viewer, the loaders...
    public var context: any Sendable
    /// The parent value of the root fields.
    public var rootValue: any Sendable
    /// The most bytes the response's JSON may have; nil: no bound. Counted while the response is
    /// built: past it execution stops, the data built so far is dropped, and the result is the
    /// `RESPONSE_TOO_LARGE` error alone (``ExecutionResult/responseTooLarge(limit:)``).
    public var maxResponseBytes: Int?
    /// Plans of this document kept from earlier requests (``ExecutionPlans``): nil builds a new
    /// one; pass the same instance for every request of the same document.
    public var plans: ExecutionPlans?

    public init(
        document: Document, source: Source? = nil, operationName: String? = nil, variables: JSONObject = JSONObject(),
        context: any Sendable = (), rootValue: any Sendable = (), maxResponseBytes: Int? = nil, plans: ExecutionPlans? = nil
    ) {
        self.plans = plans
        self.document = document
        self.source = source
        self.operationName = operationName
        self.variables = variables
        self.context = context
        self.rootValue = rootValue
        self.maxResponseBytes = maxResponseBytes
    }
}

/// The result of executing a request (§7.1): data (absent for request errors), errors, extensions.
public struct ExecutionResult: @unchecked Sendable {
    // @unchecked: `dataTree` is made of the executor's mutable result classes, finished before the
    // result is returned and never changed after (only read, to serialize).
    /// nil when execution did not start (a request error, §7.1.7); `.leaf(.null)` when data is null.
    let dataTree: ResultValue?
    /// The JSON text that `.raw` values of `dataTree` point into.
    let rawBytes: [UInt8]
    public var errors: [GraphQLError]
    public var extensions: JSONObject?
    /// The request's ``GraphQLRequest/maxResponseBytes``, which ``serialized()`` holds the JSON to.
    public let maxResponseBytes: Int?
    /// Whether execution stopped because the response grew past ``maxResponseBytes``: there is
    /// no data, and the one error is `RESPONSE_TOO_LARGE`.
    public let isResponseTooLarge: Bool

    init(
        data: ResultValue?, rawBytes: [UInt8] = [], errors: [GraphQLError], extensions: JSONObject? = nil,
        maxResponseBytes: Int? = nil, isResponseTooLarge: Bool = false
    ) {
        self.dataTree = data
        self.rawBytes = rawBytes
        self.errors = errors
        self.extensions = extensions
        self.maxResponseBytes = maxResponseBytes
        self.isResponseTooLarge = isResponseTooLarge
    }

    /// A result with only errors and no data: the request could not be executed.
    public static func requestError(_ errors: [GraphQLError]) -> ExecutionResult {
        ExecutionResult(data: nil, errors: errors)
    }

    /// The result of an execution stopped because its response would have been larger than
    /// `limit` bytes: no data, one `RESPONSE_TOO_LARGE` error.
    public static func responseTooLarge(limit: Int) -> ExecutionResult {
        ExecutionResult(data: nil, errors: [.responseTooLarge(limit: limit)], maxResponseBytes: limit, isResponseTooLarge: true)
    }

    /// Whether `data` is present in the response (it is once execution started).
    public var hasData: Bool { dataTree != nil }

    /// The `data` entry as a JSON value tree.
    public var data: JSONValue? { dataTree?.json(raw: rawBytes) }

    /// The response JSON, `errors` first when present, then `data`, then `extensions`; past
    /// ``maxResponseBytes``, the `RESPONSE_TOO_LARGE` response instead (``bounded()``).
    public func serialized() -> [UInt8] { bounded().body }

    /// This result and its JSON, or, when the JSON is longer than ``maxResponseBytes``, the
    /// `RESPONSE_TOO_LARGE` result and its JSON.
    ///
    /// Execution stops once the bytes it has built pass the limit, counting what the result tree
    /// will write at its least (its keys, brackets and leaves); this final check on the written
    /// bytes makes the bound exact, so no response over it is ever handed out.
    public func bounded() -> (result: ExecutionResult, body: [UInt8]) {
        var writer = JSONWriter(capacity: rawBytes.count + 4096)
        write(to: &writer)
        if let maxResponseBytes, writer.count > maxResponseBytes, !isResponseTooLarge {
            let refused = Self.responseTooLarge(limit: maxResponseBytes)
            var refusal = JSONWriter(capacity: 512)
            refused.write(to: &refusal)
            return (refused, refusal.bytes)
        }
        return (self, writer.bytes)
    }

    public func write(to writer: inout JSONWriter) {
        writer.writeByte(UInt8(ascii: "{"))
        var first = true
        if !errors.isEmpty {
            writer.writeRaw("\"errors\":")
            writer.write(.array(errors.map(\.json)))
            first = false
        }
        if let dataTree {
            if !first { writer.writeByte(UInt8(ascii: ",")) }
            writer.writeRaw("\"data\":")
            dataTree.write(to: &writer, raw: rawBytes)
            first = false
        }
        if let extensions, !extensions.isEmpty {
            if !first { writer.writeByte(UInt8(ascii: ",")) }
            writer.writeRaw("\"extensions\":")
            writer.write(.object(extensions))
        }
        writer.writeByte(UInt8(ascii: "}"))
    }

    /// The response as a JSON string.
    public var jsonString: String { String(decoding: serialized(), as: UTF8.self) }
}

extension GraphQLError {
    /// `RESPONSE_TOO_LARGE`: the answer would pass `limit` bytes. The one wording of the whole
    /// answer refused and of an incremental answer's closing payload.
    public static func responseTooLarge(limit: Int) -> GraphQLError {
        GraphQLError(
            "The response would be larger than \(limit) bytes, the most this server sends; select fewer fields or smaller pages.",
            extensions: ["code": "RESPONSE_TOO_LARGE", "maxBytes": .int(limit)])
    }
}
