import GraphQLLanguage

/// Incremental delivery's state for one request: the format, and the `@defer`s met so far.
final class IncrementalRun {
    let format: IncrementalFormat
    private var nextOrder = 0

    init(format: IncrementalFormat) { self.format = format }

    func makeDeferUsage(label: String?, parent: DeferUsage?) -> DeferUsage {
        nextOrder += 1
        return DeferUsage(label: label, parent: parent, order: nextOrder)
    }
}

/// One payload after the first of an incremental response.
public struct IncrementalPayload: Sendable {
    /// The payload's JSON.
    public let body: [UInt8]
    /// Whether more payloads follow (the payload's `hasNext`).
    public let hasNext: Bool
    /// Whether the payload reports an error (a field error, a failed fragment or stream).
    public let hasErrors: Bool

    public init(body: [UInt8], hasNext: Bool, hasErrors: Bool) {
        self.body = body
        self.hasNext = hasNext
        self.hasErrors = hasErrors
    }
}

/// Executes an operation with `@defer` and `@stream` (graphql-js 17's
/// `experimentalExecuteIncrementally`, and its legacy format): an initial result, then the
/// deferred fragments and streamed items in later payloads, as they complete.
///
/// ```swift
/// switch await IncrementalExecution.start(schema: schema, request: request, format: .v0_2) {
/// case .complete(let result): send(result.serialized())          // nothing was deferred
/// case .incremental(let execution):
///     send(execution.initialPayload)
///     try await execution.run { payload in send(payload.body) }  // until hasNext is false
/// }
/// ```
///
/// The initial result is executed by ``start(schema:request:format:extensions:)``; deferred
/// work starts only in ``run(_:)`` (graphql-js's default, without early execution), so the first
/// payload costs what the query without its deferred parts costs. Within ``run(_:)`` every
/// released execution group and streamed item runs concurrently under one scheduler, so their
/// DataLoaders batch together; a payload is written whenever nothing more can complete without
/// waiting: what completes together is sent together.
public final class IncrementalExecution: @unchecked Sendable {
    // @unchecked: used by one task at a time (start, then run), like the executor's context.

    /// How an incremental execution began.
    public enum Start: Sendable {
        /// Nothing was deferred or streamed (or a null took its place): one ordinary result.
        case complete(ExecutionResult)
        /// The initial payload is ready; ``run(_:)`` sends the others.
        case incremental(IncrementalExecution)
    }

    /// The first payload (`hasNext: true`).
    public private(set) var initialPayload: [UInt8] = []
    /// Whether the first payload has errors.
    public private(set) var initialHasErrors = false

    private let shared: SharedInputs
    private var graph: IncrementalGraph!
    private var publisher: IncrementalPublisher
    private var unitsWithPending: [ExecutionUnit] = []
    private var streams: [ItemStream] = []

    /// What every execution of the request shares.
    private struct SharedInputs {
        let schema: GraphQLSchema
        let source: Source?
        let fragments: [String: FragmentDefinition]
        let variables: JSONObject
        let context: any Sendable
        let rootValue: any Sendable
        let run: IncrementalRun

        func makeContext() -> ExecutionContext {
            ExecutionContext(
                schema: schema, source: source, fragments: fragments, variables: variables, context: context,
                rootValue: rootValue, incremental: run)
        }
    }

    /// An execution whose async fields are running: an execution group or a streamed item.
    private final class ExecutionUnit {
        enum Kind {
            case task(ExecutionGroupTask, ResultObject)
            case item(ItemStream, position: Int, ResultList)
        }

        let kind: Kind
        let context: ExecutionContext
        var running = 0

        init(_ kind: Kind, _ context: ExecutionContext) {
            self.kind = kind
            self.context = context
        }
    }

    private init(shared: SharedInputs, publisher: IncrementalPublisher) {
        self.shared = shared
        self.publisher = publisher
    }

    /// Executes the initial result of `request`'s operation with `@defer` and `@stream` in force.
    ///
    /// Request errors (no such operation, variables that do not coerce) and subscriptions (which
    /// are never incremental) answer as ``Executor/execute(schema:request:)`` does.
    public static func start(
        schema: GraphQLSchema, request: GraphQLRequest, format: IncrementalFormat, extensions: JSONObject? = nil
    ) async -> Start {
        let operation: OperationDefinition
        switch Executor.selectOperation(request.document, name: request.operationName) {
        case .success(let op): operation = op
        case .failure(let error): return .complete(.requestError([error]))
        }
        guard operation.operation != .subscription, let rootType = schema.rootType(for: operation.operation) else {
            return .complete(await Executor.execute(schema: schema, request: request))
        }
        let variables: JSONObject
        switch VariableCoercion.coerceVariableValues(schema, operation.variableDefinitions, request.variables, source: request.source) {
        case .success(let v): variables = v
        case .failure(let failure): return .complete(.requestError(failure.errors))
        }
        var fragments: [String: FragmentDefinition] = [:]
        for fragment in request.document.fragments where fragments[fragment.name.value] == nil {
            fragments[fragment.name.value] = fragment
        }
        let shared = SharedInputs(
            schema: schema, source: request.source, fragments: fragments, variables: variables, context: request.context,
            rootValue: request.rootValue, run: IncrementalRun(format: format))
        let context = shared.makeContext()
        let collected = SelectionPlan(selectionSets: [operation.selectionSet]).collected(for: rootType, in: context)
        let rootSlot = ParentSlot(container: .root, index: 0, isNullable: false)
        var path: [PathComponent] = []
        let scheduler = ExecutionScheduler()
        let root: ResultObject
        if operation.operation == .mutation {
            // §6.2.2: each root field, and everything below it, before the next (a deferred
            // fragment never sits at a mutation's root: DeferStreamDirectiveOnRootFieldRule).
            root = ResultObject(keys: collected.keys)
            root.parent = rootSlot
            for (i, field) in collected.fields.enumerated() {
                path.append(.key(field.responseKey))
                context.executeField(field, of: rootType, parent: context.rootValue, into: Executor.slot(root, i, field), path: &path)
                path.removeLast()
                await Executor.drive(context, scheduler)
            }
        } else {
            root = context.executeDeferring(collected, of: rootType, parent: context.rootValue, into: rootSlot, path: &path)
            await Executor.drive(context, scheduler)
        }
        let work = context.keptWork()
        root.unlinkFromParents()
        let data: ResultValue = context.dataIsNull ? .null : .object(root)
        guard !context.dataIsNull, work.hasDeferredWork else {
            return .complete(ExecutionResult(data: data, rawBytes: context.output.bytes, errors: context.errors, extensions: extensions))
        }
        var writer = JSONWriter(capacity: context.output.count + 1024)
        data.write(to: &writer, raw: context.output.bytes)
        let execution = IncrementalExecution(shared: shared, publisher: IncrementalPublisher(format: format))
        // The graph is made before the payload, which announces the groups it kept.
        let graph = IncrementalGraph(
            initial: work, startTask: { [unowned execution] in execution.start($0) },
            startStream: { [unowned execution] in execution.streams.append($0) })
        execution.graph = graph
        execution.initialPayload = execution.publisher.initialPayload(
            data: writer.bytes, errors: context.errors, groups: graph.initialGroups, streams: graph.initialStreams,
            extensions: extensions)
        execution.initialHasErrors = !context.errors.isEmpty
        return .incremental(execution)
    }

    /// The payload to send instead of the one `emit` was just handed, when the answer must stop
    /// there (it grew past the server's size limit): every fragment and stream the client knows
    /// is still open fails with `error`, and `hasNext` is false. Call it from `emit`, then throw
    /// to stop the deferred work.
    public func closingPayload(_ error: GraphQLError) -> IncrementalPayload {
        IncrementalPayload(body: publisher.closingPayload(error), hasNext: false, hasErrors: true)
    }

    /// Runs the deferred work and sends every later payload, in order, to `emit`, the last with
    /// `hasNext: false`. A throw from `emit` (the client went away) stops everything still running.
    public func run(_ emit: (IncrementalPayload) async throws -> Void) async throws {
        let scheduler = ExecutionScheduler()
        try await ExecutionScheduler.$current.withValue(scheduler) {
            try await withThrowingTaskGroup(of: (Int, Result<(any Sendable)?, any Error>).self) { group in
                defer { group.cancelAll() }
                var running: [Int: (PendingField, ExecutionUnit)] = [:]
                var nextID = 0
                func startPending() {
                    let units = unitsWithPending
                    unitsWithPending.removeAll()
                    let count = units.reduce(0) { $0 + $1.context.pending.count }
                    guard count > 0 else { return }
                    scheduler.resolversStarting(count)
                    for unit in units {
                        let batch = unit.context.pending
                        unit.context.pending.removeAll(keepingCapacity: true)
                        unit.running += batch.count
                        for field in batch {
                            let id = nextID
                            nextID += 1
                            running[id] = (field, unit)
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
                }
                graph.begin()
                var events = graph.drain()
                while true {
                    startPending()
                    events += graph.drain()
                    if !events.isEmpty {
                        let payload = publisher.subsequentPayload(events)
                        events.removeAll()
                        try await emit(IncrementalPayload(body: payload.body, hasNext: payload.hasNext, hasErrors: payload.hasErrors))
                        if !payload.hasNext { return }
                        continue
                    }
                    if pumpStreams() { continue }
                    guard let (id, result) = try await group.next() else {
                        // Nothing runs and nothing is left to report: close the response
                        // (`{"hasNext":false}`, a payload of the publisher's count like the others).
                        let last = publisher.subsequentPayload([.finished])
                        try await emit(IncrementalPayload(body: last.body, hasNext: false, hasErrors: false))
                        return
                    }
                    guard let (field, unit) = running.removeValue(forKey: id) else { continue }
                    unit.running -= 1
                    var path = field.path
                    switch result {
                    case .success(let value):
                        unit.context.completeValue(
                            field.definition.type, value, field: field.field, parentType: field.info.parentType,
                            into: field.slot, path: &path)
                    case .failure(let error):
                        unit.context.fieldError(error, field: field.field, path: path, slot: field.slot)
                    }
                    settle(unit)
                    events += graph.drain()
                    startPending()
                    scheduler.resolverFinished()
                }
            }
        }
    }

    // MARK: Units

    /// Starts an execution group released by the graph: its synchronous part now.
    private func start(_ task: ExecutionGroupTask) {
        let context = shared.makeContext()
        context.deferUsages = task.usages
        let root = ResultObject(keys: task.fields.keys)
        root.parent = ParentSlot(container: .root, index: 0, isNullable: false)
        root.deliveryMap = task.deliveryMap
        var path = task.path
        context.executeFields(task.fields, of: task.type, parent: task.source, into: root, path: &path)
        settle(ExecutionUnit(.task(task, root), context))
    }

    /// Starts the next batch of every released stream that is not completing one: at most 100
    /// items at a time (graphql-core's stream queue holds as many), all at once.
    /// - Returns: whether any stream was pumped.
    private func pumpStreams() -> Bool {
        var pumped = false
        for stream in streams where !stream.isFinished && !stream.isPumping {
            pumped = true
            pump(stream)
        }
        streams.removeAll { $0.isFinished }
        return pumped
    }

    private static let streamBatchLimit = 100

    private func pump(_ stream: ItemStream) {
        if let failure = stream.failure {
            stream.isFinished = true
            graph.push(.streamFailed(stream, failure))
            return
        }
        let remaining = stream.items.count - stream.taken
        guard remaining > 0 else {
            stream.isFinished = true
            graph.push(.streamSucceeded(stream))
            return
        }
        let count = min(remaining, Self.streamBatchLimit)
        let first = stream.taken
        stream.taken += count
        stream.isPumping = true
        stream.batch = [StreamItemOutcome?](repeating: nil, count: count)
        for position in 0..<count {
            let context = shared.makeContext()
            let list = ResultList(count: 1)
            list.parent = ParentSlot(container: .root, index: 0, isNullable: false)
            var path = stream.path + [.index(stream.firstIndex + first + position)]
            context.completeValue(
                stream.itemType, stream.items[first + position], field: stream.field, parentType: stream.parentType,
                into: ParentSlot(container: .list(list), index: 0, isNullable: !stream.itemType.isNonNull), path: &path)
            settle(ExecutionUnit(.item(stream, position: position, list), context))
        }
    }

    /// Finishes a unit with no field left to run, or queues the fields it found.
    private func settle(_ unit: ExecutionUnit) {
        if !unit.context.pending.isEmpty {
            if !unitsWithPending.contains(where: { $0 === unit }) { unitsWithPending.append(unit) }
            return
        }
        guard unit.running == 0 else { return }
        let context = unit.context
        switch unit.kind {
        case .task(let task, let root):
            let work = context.keptWork()
            root.unlinkFromParents()
            if context.dataIsNull {
                graph.push(.taskFailed(task, [context.rootNullError ?? context.errors.last].compactMap { $0 }))
            } else {
                var writer = JSONWriter(capacity: context.output.count + 256)
                ResultValue.object(root).write(to: &writer, raw: context.output.bytes)
                let value = ExecutionGroupValue(groups: task.groups, path: task.path, data: writer.bytes, errors: context.errors)
                graph.push(.taskSucceeded(task, value, work))
            }
        case .item(let stream, let position, let list):
            let work = context.keptWork()
            defer { list.unlinkFromParents() }
            if context.dataIsNull {
                stream.batch[position] = .failure([context.rootNullError ?? context.errors.last].compactMap { $0 })
            } else {
                var writer = JSONWriter(capacity: context.output.count + 64)
                list.items[0].write(to: &writer, raw: context.output.bytes)
                stream.batch[position] = .item(StreamItemValue(item: writer.bytes, errors: context.errors), work)
            }
            if stream.batch.allSatisfy({ $0 != nil }) { finishBatch(stream) }
        }
    }

    /// Reports a stream's completed batch: its items up to the first that failed (the failure
    /// goes in the next payload, after them, as in graphql-js).
    private func finishBatch(_ stream: ItemStream) {
        var items: [(StreamItemValue, IncrementalWorkList)] = []
        var failure: [GraphQLError]?
        for outcome in stream.batch {
            guard let outcome else { break }
            switch outcome {
            case .item(let value, let work): items.append((value, work))
            case .failure(let errors): failure = errors
            }
            if failure != nil { break }
        }
        let batchSize = stream.batch.count
        stream.batch = []
        stream.isPumping = false
        if let failure {
            if items.isEmpty {
                stream.isFinished = true
                graph.push(.streamFailed(stream, failure))
            } else {
                stream.failure = failure
                graph.push(.streamItems(stream, items, isStopped: false))
            }
            return
        }
        // Known to have ended only when the batch did not fill the queue (graphql-core's peek).
        let isStopped = stream.taken == stream.items.count && batchSize < Self.streamBatchLimit
        if isStopped { stream.isFinished = true }
        graph.push(.streamItems(stream, items, isStopped: isStopped))
    }
}
