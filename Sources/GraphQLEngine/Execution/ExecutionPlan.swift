import GraphQLLanguage

/// The fields one merged selection set selects, worked out once per object type
/// for the whole request (§6.3.2 CollectFields).
///
/// Variables are fixed for a request, so which fields `@skip`/`@include` keep
/// and what their arguments coerce to are the same for every object of a type:
/// a list of 550 profiles collects its fields once, not 550 times.
final class SelectionPlan {
    /// The selection sets merged here: one per field node of the parent field (§6.4.3 MergeSelectionSets).
    let selectionSets: [SelectionSet]
    private var byType: [ObjectIdentifier: CollectedFields] = [:]
    /// The last type asked for and its fields: a list of one type asks 550 times in a row.
    private var lastType: GraphQLObjectType?
    private var lastCollected: CollectedFields?

    init(selectionSets: [SelectionSet]) { self.selectionSets = selectionSets }

    func collected(for type: GraphQLObjectType, in context: ExecutionContext) -> CollectedFields {
        if lastType === type, let lastCollected { return lastCollected }
        if let cached = byType[ObjectIdentifier(type)] {
            lastType = type
            lastCollected = cached
            return cached
        }
        var grouped: [(key: String, nodes: [Field])] = []
        var index: [String: Int] = [:]
        var visited = Set<String>()
        for selectionSet in selectionSets {
            collectFields(type, selectionSet, context, &grouped, &index, &visited)
        }
        let fields = grouped.map { key, nodes in
            PlannedField(responseKey: key, nodes: nodes, parentType: type, context: context)
        }
        let collected = CollectedFields(keys: grouped.map(\.key), fields: fields)
        byType[ObjectIdentifier(type)] = collected
        lastType = type
        lastCollected = collected
        return collected
    }

    /// CollectFields(objectType, selectionSet, variableValues, visitedFragments).
    private func collectFields(
        _ type: GraphQLObjectType, _ selectionSet: SelectionSet, _ context: ExecutionContext,
        _ grouped: inout [(key: String, nodes: [Field])], _ index: inout [String: Int], _ visited: inout Set<String>
    ) {
        for selection in selectionSet.selections {
            guard context.shouldInclude(selection.directives) else { continue }
            switch selection {
            case .field(let field):
                let key = field.responseKey
                if let i = index[key] {
                    grouped[i].nodes.append(field)
                } else {
                    index[key] = grouped.count
                    grouped.append((key, [field]))
                }
            case .fragmentSpread(let spread):
                let name = spread.name.value
                guard !visited.contains(name), let fragment = context.fragments[name] else { continue }
                visited.insert(name)
                guard context.doesFragmentTypeApply(type, fragment.typeCondition.name.value) else { continue }
                collectFields(type, fragment.selectionSet, context, &grouped, &index, &visited)
            case .inlineFragment(let inline):
                if let condition = inline.typeCondition, !context.doesFragmentTypeApply(type, condition.name.value) {
                    continue
                }
                collectFields(type, inline.selectionSet, context, &grouped, &index, &visited)
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

    init(keys: [String], fields: [PlannedField]) {
        self.keys = keys
        self.fields = fields
        // Each encoded key is `,"key":`; the first has no comma, and the braces add two.
        leastObjectBytes = fields.reduce(1) { $0 + $1.encodedKey.count }
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
    let leafSerialize: (@Sendable (any Sendable) throws -> JSONValue)?
    let nodes: [Field]
    /// nil when the type has no such field (validation prevents it; execution skips it).
    let definition: GraphQLField?
    let isTypename: Bool
    let parentType: GraphQLObjectType
    let arguments: Result<ArgumentValues, GraphQLError>
    /// The coerced arguments when coercion succeeded (read by resolvers without a copy per object).
    let argumentValues: ArgumentValues
    /// For a scalar field (nullable or not): its coercion, so completion skips the type walk.
    let leafScalar: GraphQLScalarType?
    let isNonNull: Bool
    /// The field's synchronous resolver, if it has one.
    let syncResolver: (@Sendable (ResolveInfo) throws -> (any Sendable)?)?
    private var childPlan: SelectionPlan?

    init(responseKey: String, nodes: [Field], parentType: GraphQLObjectType, context: ExecutionContext) {
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
        if let definition, !definition.arguments.isEmpty || !nodes[0].arguments.isEmpty {
            arguments = ArgumentCoercion.coerceArguments(definition, nodes[0], context: context)
        } else {
            arguments = .success(ArgumentValues())
        }
        argumentValues = (try? arguments.get()) ?? ArgumentValues()
        isNonNull = definition?.type.isNonNull ?? false
        if case .named(.scalar(let scalar))? = definition?.type.nullable { leafScalar = scalar } else { leafScalar = nil }
        if case .sync(let resolve)? = definition?.resolver { syncResolver = resolve } else { syncResolver = nil }
        resolver = definition?.resolver
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
        let plan = SelectionPlan(selectionSets: nodes.compactMap(\.selectionSet))
        childPlan = plan
        return plan
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
            case .variable(let v): value = variables[v.name.value]?.boolValue ?? false
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
