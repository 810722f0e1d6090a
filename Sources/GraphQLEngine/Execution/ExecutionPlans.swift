import GraphQLLanguage
import Synchronization

/// The selection plans of one document's operations, kept for the requests that execute it next.
///
/// Why: a plan (which fields each selection collects per type, their definitions, encoded keys,
/// coerced arguments and how each subtree resolves) is the same for every request of a document
/// but its variables, and building it again was about a tenth of the CPU of a profile card asked
/// by many viewers (issue 53: `SelectionPlan.collected`, `resolution`, their deallocation). A
/// request checks a plan out, executes with it alone (a plan's lazily filled parts are not
/// thread-safe, so two requests never share one at once), and checks it in when done; up to
/// ``limitPerOperation`` wait per operation, so a burst of concurrent requests builds a few and
/// then reuses them.
///
/// What differs between requests is put right at checkout: the arguments that read variables are
/// coerced again with the request's (``PlannedField/coerceArguments(in:)``). A plan whose
/// selections depend on a variable (`@skip`/`@include(if: $var)`) is not kept, nor is an
/// incremental execution's; a selection abandoned to the result tree in one request is tried
/// inline again in the next.
///
/// Bounded: a plan of more than ``maxFieldsPerPlan`` planned fields is not kept (fragments spread
/// in many places make a plan far larger than its text), and all instances together keep at most
/// ``maxKeptFields`` planned fields (a few hundred bytes each): documents are kept by the size of
/// their text, and their plans must not multiply it.
///
/// ```swift
/// let plans = ExecutionPlans()   // one per parsed document, kept with it
/// let result = await Executor.execute(schema: schema, request: GraphQLRequest(document: document, plans: plans))
/// ```
public final class ExecutionPlans: Sendable {
    /// A plan and the fields of it whose arguments read variables.
    struct Kept: @unchecked Sendable {
        // @unchecked: a kept plan is reachable from this pool alone; it is used by one
        // execution at a time, between checkOut and checkIn.
        let plan: SelectionPlan
        let variableFields: [PlannedField]
        /// Its planned fields, counted against ``ExecutionPlans/maxKeptFields``.
        let fieldCount: Int
    }

    /// The most plans kept per operation.
    public let limitPerOperation: Int
    /// The most planned fields a kept plan may have.
    public let maxFieldsPerPlan: Int
    /// The most planned fields kept by every instance together.
    public static let maxKeptFields = 200_000
    /// Planned fields kept now, by every instance.
    private static let keptFields = Atomic<Int>(0)
    private let kept = Mutex<[String: [Kept]]>([:])

    public init(limitPerOperation: Int = 4, maxFieldsPerPlan: Int = 512) {
        self.limitPerOperation = limitPerOperation
        self.maxFieldsPerPlan = maxFieldsPerPlan
    }

    deinit {
        let fields = kept.withLock { $0.values.joined().reduce(0) { $0 + $1.fieldCount } }
        Self.keptFields.subtract(fields, ordering: .relaxed)
    }

    /// A kept plan of the operation named `operation` (nil: the document's only one), if one waits.
    func checkOut(operation: String?) -> Kept? {
        let taken = kept.withLock { $0[operation ?? ""]?.popLast() }
        if let taken { Self.keptFields.subtract(taken.fieldCount, ordering: .relaxed) }
        return taken
    }

    /// Keeps `plan`, as `context` executed it, for the operation's next request, if it may be reused.
    func checkIn(_ plan: SelectionPlan, operation: String?, from context: ExecutionContext) {
        guard context.incremental == nil, !context.selectionsReadVariables else { return }
        let fieldCount = context.plannedFieldCount
        guard fieldCount <= maxFieldsPerPlan else { return }
        guard Self.keptFields.add(fieldCount, ordering: .relaxed).newValue <= Self.maxKeptFields else {
            Self.keptFields.subtract(fieldCount, ordering: .relaxed)
            return
        }
        for selection in context.abandonedSelections { selection.resolution = nil }
        let entry = Kept(plan: plan, variableFields: context.variableArgumentFields, fieldCount: fieldCount)
        let stored = kept.withLock { kept -> Bool in
            var list = kept[operation ?? "", default: []]
            guard list.count < limitPerOperation else { return false }
            list.append(entry)
            kept[operation ?? ""] = list
            return true
        }
        if !stored { Self.keptFields.subtract(fieldCount, ordering: .relaxed) }
    }

    /// How many plans wait, over every operation (for tests).
    public var count: Int { kept.withLock { $0.values.reduce(0) { $0 + $1.count } } }
}

extension ExecutionContext {
    /// Takes over a kept plan: its variable-reading arguments are coerced with this request's variables.
    func reuse(_ kept: ExecutionPlans.Kept) {
        for field in kept.variableFields { field.coerceArguments(in: self) }
        variableArgumentFields = kept.variableFields
        plannedFieldCount = kept.fieldCount
    }
}

extension Value {
    /// Whether the value is, or holds, a variable.
    var readsVariables: Bool {
        switch self {
        case .variable: true
        case .list(let list): list.values.contains { $0.readsVariables }
        case .object(let object): object.fields.contains { $0.value.readsVariables }
        default: false
        }
    }
}
