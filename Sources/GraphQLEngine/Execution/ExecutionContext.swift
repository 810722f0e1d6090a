import GraphQLLanguage

/// The state of one execution: inputs, the growing result tree, field errors and
/// the async fields still to run. Only the executor's driver touches it, one step
/// at a time, which is why it needs no lock.
final class ExecutionContext: @unchecked Sendable {
    // @unchecked: see above; the driver is the only writer, one step at a time.
    let schema: GraphQLSchema
    let source: Source?
    let fragments: [String: FragmentDefinition]
    let variables: JSONObject
    let context: any Sendable
    let rootValue: any Sendable
    var errors: [GraphQLError] = []
    /// Async fields found while completing, waiting to be started by the driver.
    var pending: [PendingField] = []
    /// Set when null propagation reaches the root (§6.4.4): `data` is null.
    var dataIsNull = false
    /// The JSON of the subtrees completed synchronously, which the result tree
    /// refers to by range (``ResultValue/raw(_:)``).
    var output = JSONWriter(capacity: 16 * 1024)
    /// Set when a ready-or-async field inside a subtree tried inline was not ready: the attempt
    /// is abandoned up to the object it began at (``SubtreeResolution/ifReady``).
    var inlineAttemptAbandoned = false
    /// The most bytes the response may have (``GraphQLRequest/maxResponseBytes``; `Int.max`: no bound).
    let maxResponseBytes: Int
    /// The least the result tree's nodes will write (keys, brackets, commas, leaves), beside
    /// ``output``: with `output.count`, what the response has grown to so far.
    var treeBytes = 0
    /// Set once the response has grown past ``maxResponseBytes``: every loop stops, no field is
    /// started, and the result is `RESPONSE_TOO_LARGE`.
    var responseTooLarge = false

    /// Incremental delivery's state for the request; nil when `@defer` and `@stream` are
    /// ignored (the client did not ask for an incremental answer: everything is inline).
    let incremental: IncrementalRun?
    /// The deferred fragments whose fields this execution runs (an execution group); none for
    /// the initial result and streamed items.
    var deferUsages: [DeferUsage] = [] {
        didSet { deferKey = deferUsages.count == 1 ? .usage(ObjectIdentifier(deferUsages[0])) : deferUsages.isEmpty ? .none : .mixed }
    }
    /// ``deferUsages`` summed up, to compare with a selection's ``CollectedFields/deferKey``.
    private(set) var deferKey = DeferKey.none
    /// What this execution found for later payloads (deferred fields, streamed items).
    var work = IncrementalWorkList()
    /// The error whose null reached the root (which then fails, for an execution group or a streamed item).
    var rootNullError: GraphQLError?

    // What makes the plan this execution builds differ from another request's (``ExecutionPlans``).
    /// Set when a `@skip` or `@include` read a variable: the plan's selections are this request's alone.
    var selectionsReadVariables = false
    /// The planned fields whose arguments read variables: coerced again when the plan is reused.
    var variableArgumentFields: [PlannedField] = []
    /// The planned fields of this execution's plan (``ExecutionPlans/maxFieldsPerPlan``).
    var plannedFieldCount = 0
    /// Selections whose inline attempt was abandoned in this execution (tried again in the next).
    var abandonedSelections: [CollectedFields] = []

    init(
        schema: GraphQLSchema, source: Source?, fragments: [String: FragmentDefinition], variables: JSONObject,
        context: any Sendable, rootValue: any Sendable, maxResponseBytes: Int? = nil, incremental: IncrementalRun? = nil
    ) {
        self.incremental = incremental
        self.schema = schema
        self.source = source
        self.fragments = fragments
        self.variables = variables
        self.context = context
        self.rootValue = rootValue
        self.maxResponseBytes = maxResponseBytes ?? Int.max
    }

    /// Whether the response, `outputCount` bytes written plus what the tree holds, is past the
    /// limit; sets ``responseTooLarge`` when it is. The output's count is passed in because the
    /// writers hold ``output`` as `inout` while they call this.
    @inline(__always)
    func isOverLimit(_ outputCount: Int) -> Bool {
        if outputCount &+ treeBytes > maxResponseBytes { responseTooLarge = true }
        return responseTooLarge
    }

    func error(_ message: String, _ ranges: [SourceRange], path: [PathComponent]? = nil, extensions: JSONObject? = nil) -> GraphQLError {
        var error = GraphQLError(message, ranges: ranges, source: source, extensions: extensions)
        error.path = path
        return error
    }
}

/// An async field whose resolver has not run yet, and the slot its value goes to.
struct PendingField {
    let field: PlannedField
    let definition: GraphQLField
    let resolve: @Sendable (ResolveInfo) async throws -> (any Sendable)?
    let info: ResolveInfo
    let slot: ParentSlot
    let path: [PathComponent]
}
