import GraphQLLanguage

/// The fields one merged selection set selects, worked out once per object type
/// for the whole request (§6.3.2 CollectFields).
///
/// Variables are fixed for a request, so which fields `@skip`/`@include` keep
/// and what their arguments coerce to are the same for every object of a type:
/// a list of 550 profiles collects its fields once, not 550 times.
///
/// Under incremental delivery each selection set carries the deferred fragment its fields
/// inherit (graphql-js 17's field details), and a `@defer` met while collecting starts a new
/// ``DeferUsage``; made once per plan and type, so every object of a list shares them.
final class SelectionPlan {
    /// The selection sets merged here: one per field node of the parent field (§6.4.3 MergeSelectionSets).
    let selectionSets: [SelectionSet]
    /// The deferred fragment each selection set's fields inherit; empty outside incremental delivery.
    let inheritedUsages: [DeferUsage?]
    private var byType: [ObjectIdentifier: CollectedFields] = [:]
    /// The last type asked for and its fields: a list of one type asks 550 times in a row.
    private var lastType: GraphQLObjectType?
    private var lastCollected: CollectedFields?

    init(selectionSets: [SelectionSet], inheritedUsages: [DeferUsage?] = []) {
        self.selectionSets = selectionSets
        self.inheritedUsages = inheritedUsages
    }

    func collected(for type: GraphQLObjectType, in context: ExecutionContext) -> CollectedFields {
        if lastType === type, let lastCollected { return lastCollected }
        if let cached = byType[ObjectIdentifier(type)] {
            lastType = type
            lastCollected = cached
            return cached
        }
        var collector = FieldCollector(type: type, context: context)
        for (i, selectionSet) in selectionSets.enumerated() {
            collector.collect(selectionSet, inherited: i < inheritedUsages.count ? inheritedUsages[i] : nil)
        }
        let fields = collector.grouped.map { group in
            PlannedField(
                responseKey: group.key, nodes: group.nodes, parentType: type, context: context,
                deferUsages: collector.isIncremental ? group.usages : [])
        }
        let collected = CollectedFields(
            keys: collector.grouped.map(\.key), fields: fields, newDeferUsages: collector.newDeferUsages)
        byType[ObjectIdentifier(type)] = collected
        lastType = type
        lastCollected = collected
        return collected
    }
}

/// CollectFields(objectType, selectionSet, variableValues, visitedFragments), with the
/// deferred fragment of each field node (graphql-js 17's `collectFieldsImpl`).
private struct FieldCollector {
    let type: GraphQLObjectType
    let context: ExecutionContext
    var grouped: [(key: String, nodes: [Field], usages: [DeferUsage?])] = []
    var index: [String: Int] = [:]
    /// Fragments already collected, and whether as deferred: a fragment spread again without
    /// `@defer` after a deferred spread is collected again (its fields are needed now).
    var visited: [String: Bool] = [:]
    var newDeferUsages: [DeferUsage] = []
    var isIncremental: Bool { context.incremental != nil }

    init(type: GraphQLObjectType, context: ExecutionContext) {
        self.type = type
        self.context = context
    }

    mutating func collect(_ selectionSet: SelectionSet, inherited: DeferUsage?) {
        for selection in selectionSet.selections {
            guard context.shouldInclude(selection.directives) else { continue }
            switch selection {
            case .field(let field):
                let key = field.responseKey
                if let i = index[key] {
                    grouped[i].nodes.append(field)
                    grouped[i].usages.append(inherited)
                } else {
                    index[key] = grouped.count
                    grouped.append((key, [field], [inherited]))
                }
            case .fragmentSpread(let spread):
                let name = spread.name.value
                guard let fragment = context.fragments[name],
                    context.doesFragmentTypeApply(type, fragment.typeCondition.name.value)
                else { continue }
                if let usage = context.deferUsage(spread.directives, parent: inherited) {
                    guard visited[name] == nil else { continue }
                    visited[name] = true
                    newDeferUsages.append(usage)
                    collect(fragment.selectionSet, inherited: usage)
                } else {
                    guard visited[name] != false else { continue }
                    visited[name] = false
                    collect(fragment.selectionSet, inherited: inherited)
                }
            case .inlineFragment(let inline):
                if let condition = inline.typeCondition, !context.doesFragmentTypeApply(type, condition.name.value) {
                    continue
                }
                if let usage = context.deferUsage(inline.directives, parent: inherited) {
                    newDeferUsages.append(usage)
                    collect(inline.selectionSet, inherited: usage)
                } else {
                    collect(inline.selectionSet, inherited: inherited)
                }
            }
        }
    }
}

/// The collected fields of a selection for one object type, in response order.
final class CollectedFields {
    let keys: [String]
    let fields: [PlannedField]
    /// How every field here, and below, resolves (worked out on first use; see
    /// ``SubtreeResolution``). Set to `.async` once an attempt to write an object of these
    /// fields inline was abandoned, so the request does not try again.
    var resolution: SubtreeResolution?
    /// The bytes an object of these fields writes besides its values: braces, keys, colons and
    /// commas (counted against the response's limit when the object is a result-tree node).
    let leastObjectBytes: Int
    /// The `@defer`s met in this selection (not in the ones it inherits from).
    let newDeferUsages: [DeferUsage]
    /// Which deferred fragments these fields come from, summed up (``DeferKey``).
    let deferKey: DeferKey
    /// This selection split by deferred fragment, per set of fragments executing it (``IncrementalPlan``).
    var incrementalPlans: [(key: [ObjectIdentifier], plan: IncrementalPlan)] = []

    init(keys: [String], fields: [PlannedField], newDeferUsages: [DeferUsage] = []) {
        self.keys = keys
        self.fields = fields
        // Each encoded key is `,"key":`; the first has no comma, and the braces add two.
        leastObjectBytes = fields.reduce(1) { $0 + $1.encodedKey.count }
        self.newDeferUsages = newDeferUsages
        deferKey = Self.deferKey(fields, newDeferUsages)
    }

    private static func deferKey(_ fields: [PlannedField], _ newDeferUsages: [DeferUsage]) -> DeferKey {
        guard newDeferUsages.isEmpty else { return .mixed }
        var only: DeferUsage??
        for field in fields {
            if case .success(nil) = field.stream {} else { return .mixed }
            for usage in field.deferUsages {
                switch only {
                case nil: only = .some(usage)
                case .some(let seen): if seen !== usage { return .mixed }
                }
            }
        }
        guard case .some(.some(let usage)) = only else { return .none }
        return .usage(ObjectIdentifier(usage))
    }
}

/// One response key of a selection: its field nodes, definition, coerced
/// arguments and the plan of its sub-selection.
final class PlannedField {
    let responseKey: String
    /// `,"key":` as JSON bytes, written before the value (without the comma for the first key).
    /// Raw memory owned by this plan, so writing it costs no reference counting per object.
    let encodedKey: UnsafeMutableBufferPointer<UInt8>
    /// The field's resolver, read here rather than through the definition for every object.
    let resolver: FieldResolver?
    /// For a scalar field with a synchronous resolver and valid arguments (most fields): the
    /// scalar's serialization, so the field is resolved and written in one step.
    private(set) var leafSerialize: (@Sendable (any Sendable) throws -> JSONValue)?
    let nodes: [Field]
    /// nil when the type has no such field (validation prevents it; execution skips it).
    let definition: GraphQLField?
    let isTypename: Bool
    let parentType: GraphQLObjectType
    private(set) var arguments: Result<ArgumentValues, GraphQLError>
    /// The coerced arguments when coercion succeeded (read by resolvers without a copy per object).
    private(set) var argumentValues: ArgumentValues
    /// For a scalar field (nullable or not): its coercion, so completion skips the type walk.
    let leafScalar: GraphQLScalarType?
    let isNonNull: Bool
    /// The field's synchronous resolver, if it has one.
    let syncResolver: (@Sendable (ResolveInfo) throws -> (any Sendable)?)?
    /// The deferred fragment of each node (nil: not deferred); empty outside incremental delivery.
    let deferUsages: [DeferUsage?]
    /// The field's active `@stream`, read from its first node; always `.success(nil)` outside
    /// incremental delivery; a failure for a negative `initialCount`.
    let stream: Result<StreamUsage?, ResolverError>
    private var childPlan: SelectionPlan?
    private var streamedFieldPlan: PlannedField?

    init(
        responseKey: String, nodes: [Field], parentType: GraphQLObjectType, context: ExecutionContext,
        deferUsages: [DeferUsage?] = []
    ) {
        self.deferUsages = deferUsages
        if context.incremental != nil {
            stream = Result { () throws(ResolverError) in try context.streamUsage(nodes[0]) }
        } else {
            stream = .success(nil)
        }
        self.responseKey = responseKey
        var key = JSONWriter(capacity: responseKey.utf8.count + 4)
        key.writeByte(UInt8(ascii: ","))
        key.writeString(responseKey)
        key.writeByte(UInt8(ascii: ":"))
        encodedKey = .allocate(capacity: key.bytes.count)
        _ = encodedKey.initialize(from: key.bytes)
        self.nodes = nodes
        let name = nodes[0].name.value
        isTypename = name == "__typename"
        self.parentType = parentType
        definition = context.schema.fieldDefinition(parentType: .object(parentType), name: name)
        arguments = .success(ArgumentValues())
        argumentValues = ArgumentValues()
        isNonNull = definition?.type.isNonNull ?? false
        if case .named(.scalar(let scalar))? = definition?.type.nullable { leafScalar = scalar } else { leafScalar = nil }
        if case .sync(let resolve)? = definition?.resolver { syncResolver = resolve } else { syncResolver = nil }
        resolver = definition?.resolver
        leafSerialize = nil
        coerceArguments(in: context)
        context.plannedFieldCount += 1
        if nodes[0].arguments.contains(where: { $0.value.readsVariables }) { context.variableArgumentFields.append(self) }
    }

    /// Coerces the field's arguments with `context`'s variables (§6.4.1 CoerceArgumentValues):
    /// when the plan is built, and again for each request that reuses it (``ExecutionPlans``).
    func coerceArguments(in context: ExecutionContext) {
        if let definition, !definition.arguments.isEmpty || !nodes[0].arguments.isEmpty {
            arguments = ArgumentCoercion.coerceArguments(definition, nodes[0], context: context)
        } else {
            arguments = .success(ArgumentValues())
        }
        argumentValues = (try? arguments.get()) ?? ArgumentValues()
        if let leafScalar, syncResolver != nil, !isTypename, case .success = arguments {
            leafSerialize = leafScalar.coercion.serialize
        } else {
            leafSerialize = nil
        }
    }

    deinit { encodedKey.deallocate() }

    /// The encoded key with or without its leading comma.
    @inline(__always)
    func encodedKey(first: Bool) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: encodedKey[(first ? 1 : 0)...])
    }

    /// The merged sub-selection of all this key's field nodes.
    var child: SelectionPlan {
        if let childPlan { return childPlan }
        var selectionSets: [SelectionSet] = []
        var inherited: [DeferUsage?] = []
        for (i, node) in nodes.enumerated() {
            guard let selectionSet = node.selectionSet else { continue }
            selectionSets.append(selectionSet)
            if !deferUsages.isEmpty { inherited.append(deferUsages[i]) }
        }
        let plan = SelectionPlan(selectionSets: selectionSets, inheritedUsages: inherited)
        childPlan = plan
        return plan
    }

    /// The field as the items a `@stream` sends later complete it: the same nodes, inheriting no
    /// deferred fragment (graphql-js 17 streams a field group whose details have no defer usage).
    func streamedField(in context: ExecutionContext) -> PlannedField {
        if deferUsages.allSatisfy({ $0 == nil }) { return self }
        if let streamedFieldPlan { return streamedFieldPlan }
        let field = PlannedField(responseKey: responseKey, nodes: nodes, parentType: parentType, context: context)
        streamedFieldPlan = field
        return field
    }

    /// Where the field's nodes are, for errors.
    var ranges: [SourceRange] { nodes.map(\.range) }
}

extension ExecutionContext {
    /// §6.3.2 step: `@skip(if: true)` drops a selection, `@include(if: false)` too.
    func shouldInclude(_ directives: [Directive]) -> Bool {
        if directives.isEmpty { return true }
        for directive in directives {
            let name = directive.name.value
            guard name == "skip" || name == "include" else { continue }
            guard let argument = directive.arguments.first(where: { $0.name.value == "if" }) else { continue }
            let value: Bool
            switch argument.value {
            case .boolean(let b): value = b.value
            case .variable(let v):
                value = variables[v.name.value]?.boolValue ?? false
                selectionsReadVariables = true
            default: continue
            }
            if name == "skip" && value { return false }
            if name == "include" && !value { return false }
        }
        return true
    }

    /// DoesFragmentTypeApply(objectType, fragmentType) (§6.3.2).
    func doesFragmentTypeApply(_ type: GraphQLObjectType, _ conditionName: String) -> Bool {
        if conditionName == type.name { return true }
        guard let condition = schema.type(named: conditionName) else { return false }
        switch condition {
        case .interface, .union: return schema.isSubType(condition, .object(type))
        default: return false
        }
    }
}
