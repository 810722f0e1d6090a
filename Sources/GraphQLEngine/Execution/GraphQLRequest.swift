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

    public init(
        document: Document, source: Source? = nil, operationName: String? = nil, variables: JSONObject = JSONObject(),
        context: any Sendable = (), rootValue: any Sendable = ()
    ) {
        self.document = document
        self.source = source
        self.operationName = operationName
        self.variables = variables
        self.context = context
        self.rootValue = rootValue
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

    init(data: ResultValue?, rawBytes: [UInt8] = [], errors: [GraphQLError], extensions: JSONObject? = nil) {
        self.dataTree = data
        self.rawBytes = rawBytes
        self.errors = errors
        self.extensions = extensions
    }

    /// A result with only errors and no data: the request could not be executed.
    public static func requestError(_ errors: [GraphQLError]) -> ExecutionResult {
        ExecutionResult(data: nil, errors: errors)
    }

    /// Whether `data` is present in the response (it is once execution started).
    public var hasData: Bool { dataTree != nil }

    /// The `data` entry as a JSON value tree.
    public var data: JSONValue? { dataTree?.json(raw: rawBytes) }

    /// The response JSON, `errors` first when present, then `data`, then `extensions`.
    public func serialized() -> [UInt8] {
        var writer = JSONWriter(capacity: rawBytes.count + 4096)
        write(to: &writer)
        return writer.bytes
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
