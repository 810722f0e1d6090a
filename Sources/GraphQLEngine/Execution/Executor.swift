import GraphQLLanguage

/// Executes a validated request against a schema (§6).
///
/// ```swift
/// let result = await Executor.execute(schema: schema, request: GraphQLRequest(document: document))
/// let body = result.serialized()
/// ```
/// Query fields resolve concurrently where resolvers are async; mutation root
/// fields run strictly one after another (§6.2.2); subscriptions are refused.
public enum Executor {
    public static func execute(
        schema: GraphQLSchema, request: GraphQLRequest
    ) async -> ExecutionResult {
        // §6.1 GetOperation
        let operation: OperationDefinition
        switch selectOperation(request.document, name: request.operationName) {
        case .success(let op): operation = op
        case .failure(let error): return .requestError([error])
        }
        guard let rootType = schema.rootType(for: operation.operation) else {
            return .requestError([
                GraphQLError(
                    "Schema is not configured to execute \(operation.operation.rawValue) operation.",
                    ranges: [operation.range], source: request.source)
            ])
        }
        if operation.operation == .subscription {
            // A subscription is a stream (§6.2.3): Executor.subscriptionSource(schema:request:)
            // starts it and executeSubscriptionEvent(schema:request:) answers each event.
            return .requestError([
                GraphQLError(
                    "A subscription needs a transport that streams (WebSocket, server-sent events or multipart HTTP).",
                    ranges: [operation.range], source: request.source, extensions: ["code": "BAD_REQUEST"])
            ])
        }
        return await run(operation, rootType: rootType, schema: schema, request: request)
    }

    /// Executes `operation`, chosen and rooted at `rootType`: coerces its variables, then runs
    /// its selection set as a query (concurrently) or a mutation (one root field at a time).
    static func run(
        _ operation: OperationDefinition, rootType: GraphQLObjectType, schema: GraphQLSchema, request: GraphQLRequest
    ) async -> ExecutionResult {
        // §6.1.2 CoerceVariableValues
        let variables: JSONObject
        switch VariableCoercion.coerceVariableValues(schema, operation.variableDefinitions, request.variables, source: request.source) {
        case .success(let v): variables = v
        case .failure(let failure): return .requestError(failure.errors)
        }
        var fragments: [String: FragmentDefinition] = [:]
        for fragment in request.document.fragments where fragments[fragment.name.value] == nil {
            fragments[fragment.name.value] = fragment
        }
        let context = ExecutionContext(
            schema: schema, source: request.source, fragments: fragments, variables: variables, context: request.context,
            rootValue: request.rootValue, maxResponseBytes: request.maxResponseBytes)
        // A plan another request of this document built, when one waits (``ExecutionPlans``).
        let plans = operation.operation == .query ? request.plans : nil
        let plan: SelectionPlan
        if let kept = plans?.checkOut(operation: operation.name?.value) {
            context.reuse(kept)
            plan = kept.plan
        } else {
            plan = SelectionPlan(selectionSets: [operation.selectionSet])
        }
        defer { plans?.checkIn(plan, operation: operation.name?.value, from: context) }
        let collected = plan.collected(for: rootType, in: context)
        var path: [PathComponent] = []
        if operation.operation != .mutation && collected.isSynchronous(in: context) {
            // The whole response resolves synchronously: written straight to JSON, no tree.
            let isComplete = context.writeObject(
                collected, of: rootType, parent: context.rootValue, path: &path, into: &context.output)
            if context.responseTooLarge { return tooLarge(context) }
            let bytes = context.output.bytes
            return ExecutionResult(
                data: isComplete ? .raw(0..<bytes.count) : .null, rawBytes: isComplete ? bytes : [], errors: context.errors,
                maxResponseBytes: request.maxResponseBytes)
        }
        let root = ResultObject(keys: collected.keys)
        root.parent = ParentSlot(container: .root, index: 0, isNullable: false)
        context.treeBytes = collected.leastObjectBytes
        let scheduler = ExecutionScheduler()

        if operation.operation == .mutation {
            // §6.2.2: each root field, and everything below it, before the next.
            for (i, field) in collected.fields.enumerated() {
                path.append(.key(field.responseKey))
                context.executeField(field, of: rootType, parent: context.rootValue, into: slot(root, i, field), path: &path)
                path.removeLast()
                await drive(context, scheduler)
                // An answer past its limit stops the mutation: the next root fields do not run.
                if context.responseTooLarge { break }
            }
        } else {
            context.executeFields(collected, of: rootType, parent: context.rootValue, into: root, path: &path)
            await drive(context, scheduler)
        }
        root.unlinkFromParents()
        if context.responseTooLarge || context.isOverLimit(context.output.count) { return tooLarge(context) }
        let data: ResultValue = context.dataIsNull ? .null : .object(root)
        return ExecutionResult(
            data: data, rawBytes: context.output.bytes, errors: context.errors, maxResponseBytes: request.maxResponseBytes)
    }

    /// The result of an execution whose response grew past its limit: its data and field errors
    /// are dropped, and the one error says why.
    static func tooLarge(_ context: ExecutionContext) -> ExecutionResult {
        ExecutionResult.responseTooLarge(limit: context.maxResponseBytes)
    }

    static func slot(_ object: ResultObject, _ index: Int, _ field: PlannedField) -> ParentSlot {
        ParentSlot(container: .object(object), index: index, isNullable: !(field.definition?.type.isNonNull ?? false))
    }

    /// §6.1 GetOperation(document, operationName).
    static func selectOperation(_ document: Document, name: String?) -> Result<OperationDefinition, GraphQLError> {
        let operations = document.operations
        if let name {
            guard let op = operations.first(where: { $0.name?.value == name }) else {
                return .failure(GraphQLError("Unknown operation named \"\(name)\"."))
            }
            return .success(op)
        }
        guard let first = operations.first else { return .failure(GraphQLError("Must provide an operation.")) }
        guard operations.count == 1 else {
            return .failure(GraphQLError("Must provide operation name if query contains multiple operations."))
        }
        return .success(first)
    }

    /// Runs the async fields found so far, and those their completion finds, until none is left.
    ///
    /// Resolvers run concurrently in a task group; each result is completed here,
    /// one at a time, so the result tree needs no lock. The scheduler counts a
    /// resolver as running until its result has been completed, so DataLoaders
    /// dispatch only when every running resolver is waiting on one.
    static func drive(_ context: ExecutionContext, _ scheduler: ExecutionScheduler) async {
        guard !context.pending.isEmpty else { return }
        await ExecutionScheduler.$current.withValue(scheduler) {
            await withTaskGroup(of: (Int, Result<(any Sendable)?, any Error>).self) { group in
                var running: [Int: PendingField] = [:]
                var nextID = 0
                func startPending() {
                    let batch = context.responseTooLarge ? [] : context.pending
                    context.pending.removeAll(keepingCapacity: true)
                    scheduler.resolversStarting(batch.count)
                    for field in batch {
                        let id = nextID
                        nextID += 1
                        running[id] = field
                        let resolve = field.resolve
                        let info = field.info
                        group.addTask {
                            do {
                                return (id, .success(try await resolve(info)))
                            } catch {
                                return (id, .failure(error))
                            }
                        }
                    }
                }
                startPending()
                var cancelled = false
                while let (id, result) = await group.next() {
                    guard let field = running.removeValue(forKey: id) else { continue }
                    if context.responseTooLarge {
                        // The response is over its limit: what still runs is cancelled and left
                        // to finish (a loader's batch resumes its waiters), nothing is completed
                        // and nothing new starts.
                        if !cancelled {
                            group.cancelAll()
                            cancelled = true
                        }
                        context.pending.removeAll()
                        scheduler.resolverFinished()
                        continue
                    }
                    var path = field.path
                    switch result {
                    case .success(let value):
                        context.completeValue(
                            field.definition.type, value, field: field.field, parentType: field.info.parentType,
                            into: field.slot, path: &path)
                    case .failure(let error):
                        context.fieldError(error, field: field.field, path: path, slot: field.slot)
                    }
                    startPending()
                    scheduler.resolverFinished()
                }
            }
        }
    }
}
