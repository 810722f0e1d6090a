import GraphQLLanguage

/// What a subscription operation subscribes to (§6.2.3.1 CreateSourceEventStream): its single
/// root field, with arguments and variables coerced. The server turns it into a stream of
/// events (``Executor/subscriptionSource(schema:request:)``), then answers each event by
/// executing the operation with the event as the root value
/// (``Executor/executeSubscriptionEvent(schema:request:)``).
///
/// ```swift
/// guard case .success(let source) = Executor.subscriptionSource(schema: schema, request: request) else { ... }
/// for await event in events(for: source.fieldName, source.arguments) {
///     var eventRequest = request
///     eventRequest.rootValue = event
///     let response = await Executor.executeSubscriptionEvent(schema: schema, request: eventRequest)
/// }
/// ```
public struct SubscriptionSource: Sendable {
    /// The subscription operation chosen from the document.
    public let operation: OperationDefinition
    /// The root field's name on the subscription type (`notifications`).
    public let fieldName: String
    /// The root field's coerced argument values.
    public let arguments: ArgumentValues
    /// The operation's coerced variable values.
    public let variables: JSONObject
}

/// Why a subscription could not start: request errors (§7.1.7), for the transport to send.
public struct SubscriptionRefusal: Error, Sendable {
    public let errors: [GraphQLError]
    public init(_ errors: [GraphQLError]) { self.errors = errors }
}

extension Executor {
    /// §6.2.3.1 CreateSourceEventStream, up to ResolveFieldEventStream (which is the server's):
    /// chooses the operation, coerces its variables, collects its root fields (a valid document
    /// has exactly one, §5.2.4.1) and coerces that field's arguments.
    ///
    /// Fails with request errors when the operation cannot be chosen, is not a subscription,
    /// the schema has no subscription type, or a variable or argument does not coerce.
    public static func subscriptionSource(
        schema: GraphQLSchema, request: GraphQLRequest
    ) -> Result<SubscriptionSource, SubscriptionRefusal> {
        let operation: OperationDefinition
        switch selectOperation(request.document, name: request.operationName) {
        case .success(let op): operation = op
        case .failure(let error): return .failure(SubscriptionRefusal([error]))
        }
        guard operation.operation == .subscription else {
            return .failure(SubscriptionRefusal([
                GraphQLError("Only a subscription operation opens a stream; this is a \(operation.operation.rawValue).",
                             ranges: [operation.range], source: request.source)
            ]))
        }
        guard let rootType = schema.subscriptionType else {
            return .failure(SubscriptionRefusal([
                GraphQLError("Schema is not configured to execute subscription operation.",
                             ranges: [operation.range], source: request.source)
            ]))
        }
        let variables: JSONObject
        switch VariableCoercion.coerceVariableValues(schema, operation.variableDefinitions, request.variables, source: request.source) {
        case .success(let v): variables = v
        case .failure(let failure): return .failure(SubscriptionRefusal(failure.errors))
        }
        var fragments: [String: FragmentDefinition] = [:]
        for fragment in request.document.fragments where fragments[fragment.name.value] == nil {
            fragments[fragment.name.value] = fragment
        }
        let context = ExecutionContext(
            schema: schema, source: request.source, fragments: fragments, variables: variables, context: request.context,
            rootValue: request.rootValue)
        let collected = SelectionPlan(selectionSets: [operation.selectionSet]).collected(for: rootType, in: context)
        guard let field = collected.fields.first(where: { !$0.isTypename }), field.definition != nil else {
            return .failure(SubscriptionRefusal([
                GraphQLError("A subscription must select one field of the subscription type.",
                             ranges: [operation.range], source: request.source)
            ]))
        }
        switch field.arguments {
        case .success(let arguments):
            return .success(SubscriptionSource(
                operation: operation, fieldName: field.nodes[0].name.value, arguments: arguments, variables: variables))
        case .failure(let error):
            return .failure(SubscriptionRefusal([error]))
        }
    }

    /// §6.2.3.2 ExecuteSubscriptionEvent: executes the subscription operation's selection set
    /// with `request.rootValue` as the event, the way a query runs (fields concurrently), so an
    /// event's answer is shaped by the subscription's own selection set and resolvers.
    public static func executeSubscriptionEvent(schema: GraphQLSchema, request: GraphQLRequest) async -> ExecutionResult {
        let operation: OperationDefinition
        switch selectOperation(request.document, name: request.operationName) {
        case .success(let op): operation = op
        case .failure(let error): return .requestError([error])
        }
        guard operation.operation == .subscription, let rootType = schema.subscriptionType else {
            return .requestError([
                GraphQLError("Only a subscription operation answers events.", ranges: [operation.range], source: request.source)
            ])
        }
        return await run(operation, rootType: rootType, schema: schema, request: request)
    }
}
