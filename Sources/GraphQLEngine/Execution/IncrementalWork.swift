/// The work an execution leaves for later under incremental delivery (graphql-js 17's delivery
/// groups, execution groups and item streams), and the values that work produces.

/// One deferred fragment at one place in the response: what the client sees as a `pending`
/// entry. Compared by identity: the same `@defer` in a list is one group per item.
final class DeliveryGroup {
    let path: [PathComponent]
    let label: String?
    /// The deferred fragment this one is nested in: it is released only after that one completes.
    let parent: DeliveryGroup?

    init(path: [PathComponent], label: String?, parent: DeliveryGroup?) {
        self.path = path
        self.label = label
        self.parent = parent
    }
}

/// Which delivery group each deferred fragment (``DeferUsage``) is at one place in the response.
typealias DeliveryMap = [ObjectIdentifier: DeliveryGroup]

/// Fields deferred from one object, executed together and sent with the first of their
/// delivery groups to complete (graphql-js 17's execution group).
final class ExecutionGroupTask {
    let groups: [DeliveryGroup]
    let path: [PathComponent]
    let type: GraphQLObjectType
    let source: any Sendable
    let fields: CollectedFields
    /// The deferred fragments these fields come from: what their sub-selections are split against.
    let usages: [DeferUsage]
    let deliveryMap: DeliveryMap
    /// The object the task's fields belong to: if a null replaces it (or a parent), the task is dropped.
    var owner: ResultObject?

    init(
        groups: [DeliveryGroup], path: [PathComponent], type: GraphQLObjectType, source: any Sendable,
        fields: CollectedFields, usages: [DeferUsage], deliveryMap: DeliveryMap, owner: ResultObject
    ) {
        self.groups = groups
        self.path = path
        self.type = type
        self.source = source
        self.fields = fields
        self.usages = usages
        self.deliveryMap = deliveryMap
        self.owner = owner
    }
}

/// The items of a `@stream` list field after its `initialCount`, sent in later payloads.
final class ItemStream {
    let path: [PathComponent]
    let label: String?
    /// The list field as its streamed items are completed (``PlannedField/streamedField(in:)``).
    let field: PlannedField
    let itemType: GraphQLType
    let parentType: GraphQLObjectType
    /// The items not yet sent, and the list index of the first of them.
    let items: [(any Sendable)?]
    let firstIndex: Int
    /// The list in the response: if a null replaces it (or a parent), the stream is dropped.
    var owner: ResultList?
    /// Items taken so far (sent, or being completed).
    var taken = 0
    /// The items of the batch being completed, by position in the batch; nil while one is running.
    var batch: [StreamItemOutcome?] = []
    var isPumping = false
    /// A failed item: its errors, sent on the next pump (after the items before it).
    var failure: [GraphQLError]?
    var isFinished = false

    init(
        path: [PathComponent], label: String?, field: PlannedField, itemType: GraphQLType, parentType: GraphQLObjectType,
        items: [(any Sendable)?], firstIndex: Int, owner: ResultList
    ) {
        self.path = path
        self.label = label
        self.field = field
        self.itemType = itemType
        self.parentType = parentType
        self.items = items
        self.firstIndex = firstIndex
        self.owner = owner
    }
}

/// What one unit of execution found for later: delivery groups, execution groups and streams,
/// in the order graphql-js 17 records them (a level's groups after those found below it).
struct IncrementalWorkList {
    var groups: [DeliveryGroup] = []
    var tasks: [ExecutionGroupTask] = []
    var streams: [ItemStream] = []

    var hasDeferredWork: Bool { !tasks.isEmpty || !streams.isEmpty }
}

/// The completed fields of an execution group, for one `incremental` entry.
struct ExecutionGroupValue {
    let groups: [DeliveryGroup]
    let path: [PathComponent]
    /// The `data` object as JSON.
    let data: [UInt8]
    let errors: [GraphQLError]
}

/// One streamed item as JSON, with the errors its completion recorded.
struct StreamItemValue {
    let item: [UInt8]
    let errors: [GraphQLError]
}

/// How a streamed item's completion ended.
enum StreamItemOutcome {
    case item(StreamItemValue, IncrementalWorkList)
    /// A null in a non-null item position: the stream ends with these errors.
    case failure([GraphQLError])
}
