import Foundation
import GraphQLEngine
import GraphQLLanguage
import GraphQLValidation
import Logging
import ResponseCache
import SocialDomain

/// The gateway's GraphQL service: `schema.graphql` bound to the domain, and the
/// request pipeline parse -> validate -> execute, with the limits of ``GatewayOptions``.
///
/// It knows nothing of HTTP: the server turns HTTP requests into ``GatewayRequest``s
/// and ``GatewayResponse``s back into HTTP responses.
///
/// ```swift
/// let service = try GatewayService(stores: stores)
/// let response = await service.execute(GatewayRequest(query: "{ viewer { handle } }", viewer: viewer))
/// ```
public final class GatewayService: Sendable {
    public let schema: GraphQLSchema
    public let stores: GatewayStores
    public let options: GatewayOptions
    let logger: Logger
    /// Parsed and validated documents by request text, so repeated queries skip both.
    let documents = PreparedDocumentStore()

    /// - Throws: ``SchemaError`` or ``BindingError`` when `schema.graphql` and the resolvers disagree.
    public init(stores: GatewayStores, options: GatewayOptions = GatewayOptions(), logger: Logger = Logger(label: "social-gateway")) throws {
        self.schema = try GatewaySchema.make(sdl: try GatewaySchema.bundledSDL())
        self.stores = stores
        self.options = options
        self.logger = logger
    }

    /// The SDL this service serves.
    public static func schemaSDL() throws -> String { try GatewaySchema.bundledSDL() }

    /// Runs one GraphQL request: persisted-query lookup, the prepared (parsed, validated)
    /// document for its text, then the response cache for queries or execution (and
    /// invalidation) for mutations.
    ///
    /// Validation and the introspection switch come before the cache, so a cached answer is
    /// never served for a document this server would refuse (the cache file outlives restarts
    /// with other settings); with prepared documents both checks are free on repeats.
    public func execute(_ request: GatewayRequest) async -> GatewayResponse {
        let query: String
        switch await resolvePersistedQuery(request) {
        case .success(let text): query = text
        case .failure(let failure): return requestError([failure.error])
        }
        let prepared: PreparedDocument
        do throws(GraphQLSyntaxError) {
            prepared = try documents.document(for: query) { () throws(GraphQLSyntaxError) in
                try PreparedDocument(
                    text: query, schema: schema, parse: options.parse, validation: options.validation,
                    defaultMaxAge: options.cacheDefaultMaxAge)
            }
        } catch {
            return requestError([GraphQLError(error)])
        }
        let operation = prepared.operation(named: request.operationName)
        if request.isReadOnly, let operation, operation.operation != .query {
            return GatewayResponse(
                outcome: .mutationNotAllowed,
                body: ExecutionResult.requestError([
                    GraphQLError("Can only perform a \(operation.operation.rawValue) operation from a POST request.")
                ]).serialized(), hasErrors: true)
        }
        if !prepared.errors.isEmpty { return requestError(prepared.errors) }
        if !options.introspection, let location = prepared.introspectionUse {
            return requestError([
                GraphQLError(
                    "Introspection is disabled on this server.", ranges: [location], source: prepared.source,
                    extensions: ["code": "INTROSPECTION_DISABLED"])
            ])
        }
        var lookup: CacheLookup?
        if options.cache.isEnabled, request.fileMap.isEmpty, let operation {
            lookup = cacheLookup(prepared, operation: operation, request: request)
            if let lookup, let hit = await options.cache.lookup(lookup.key) {
                return GatewayResponse(
                    outcome: .executed, body: hit.body, hasErrors: false, cacheControl: lookup.policy.headerValue, etag: hit.etag)
            }
        }
        var variables = request.variables
        do {
            try UploadMap.apply(request.fileMap, files: request.files, to: &variables)
        } catch {
            return requestError([GraphQLError(error.message, extensions: ["code": "BAD_USER_INPUT"])])
        }
        let ready = PreparedRequest(
            document: prepared.document, source: prepared.source, operation: operation, variables: variables, request: request)
        if let lookup {
            return await executeCached(ready, lookup)
        }
        let (response, context) = await run(ready)
        let changed = context.changedTags.all
        if !changed.isEmpty { await options.cache.invalidate(tags: changed) }
        return response
    }

    /// A request that parsed and validated, ready to execute.
    struct PreparedRequest {
        let document: Document
        let source: Source
        let operation: OperationDefinition?
        let variables: JSONObject
        let request: GatewayRequest
    }

    /// Executes; the response, and the request context (with the tags it read and changed).
    func run(_ prepared: PreparedRequest) async -> (GatewayResponse, RequestContext) {
        let request = prepared.request
        let context = RequestContext(
            viewer: request.viewer, stores: stores, files: request.files, batchSize: options.loaderBatchSize, logger: logger)
        let result = await Executor.execute(
            schema: schema,
            request: GraphQLRequest(
                document: prepared.document, source: prepared.source, operationName: request.operationName,
                variables: prepared.variables, context: context))
        let response = GatewayResponse(
            outcome: result.hasData ? .executed : .requestError, body: result.serialized(), hasErrors: !result.errors.isEmpty,
            cacheControl: "no-store")
        return (response, context)
    }

    func requestError(_ errors: [GraphQLError]) -> GatewayResponse {
        GatewayResponse(outcome: .requestError, body: ExecutionResult.requestError(errors).serialized(), hasErrors: true)
    }
}

/// Finds `__schema` or `__type` selections, for servers with introspection off.
enum IntrospectionFinder {
    static func firstUse(in document: Document) -> SourceRange? {
        struct Finder: ASTVisitor {
            var found: SourceRange?
            mutating func enter(_ node: ASTNode) -> VisitorAction {
                if case .field(let field) = node, field.name.value == "__schema" || field.name.value == "__type" {
                    found = field.range
                    return .stop
                }
                return .continue
            }
        }
        var finder = Finder()
        walk(document, &finder)
        return finder.found
    }
}

/// Applies a multipart request's `map` to the operation's variables: each mapped
/// path gets a reference to its file (GraphQL multipart request spec).
enum UploadMap {
    struct Failure: Error { let message: String }

    static func apply(_ map: [String: [String]], files: [String: UploadedFile], to variables: inout JSONObject) throws(Failure) {
        for (key, paths) in map.sorted(by: { $0.key < $1.key }) {
            guard files[key] != nil else { throw Failure(message: "The multipart map names file \"\(key)\", which was not sent.") }
            for path in paths {
                var parts = path.split(separator: ".").map(String.init)
                guard parts.first == "variables", parts.count >= 2 else {
                    throw Failure(message: "The multipart map path \"\(path)\" must start with \"variables.\".")
                }
                parts.removeFirst()
                let reference: JSONValue = .object([GatewayScalars.uploadKey: .string(key)])
                var root = JSONValue.object(variables)
                guard set(reference, at: parts[...], in: &root), case .object(let updated) = root else {
                    throw Failure(message: "The multipart map path \"\(path)\" does not name a variable of the operation.")
                }
                variables = updated
            }
        }
    }

    static func set(_ value: JSONValue, at path: ArraySlice<String>, in target: inout JSONValue) -> Bool {
        guard let head = path.first else {
            target = value
            return true
        }
        switch target {
        case .object(var object):
            var child = object[head] ?? .null
            guard path.count == 1 || !child.isNull, set(value, at: path.dropFirst(), in: &child) else { return false }
            object[head] = child
            target = .object(object)
            return true
        case .array(var items):
            guard let index = Int(head), items.indices.contains(index) else { return false }
            guard set(value, at: path.dropFirst(), in: &items[index]) else { return false }
            target = .array(items)
            return true
        default:
            return false
        }
    }
}
