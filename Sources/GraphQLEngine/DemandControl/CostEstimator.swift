import GraphQLLanguage

/// An operation's estimated cost, before it runs.
public struct CostEstimate: Sendable, Hashable {
    /// The estimated cost (saturating at `Int.max`).
    public var cost: Int
    /// The variables whose values the estimate read (slicing arguments, introspection's
    /// arguments), sorted: it holds for any request with the same values of these, so a caller
    /// may keep it by them. Which variables are read depends on the document only, never on
    /// their values.
    public var variablesRead: [String]
    /// Whether a slicing argument was a variable: the estimate then holds for these variables only.
    public var dependsOnVariables: Bool { !variablesRead.isEmpty }

    public init(cost: Int, variablesRead: [String] = []) {
        self.cost = cost
        self.variablesRead = variablesRead
    }
}

/// The static cost of an operation under the IBM GraphQL Cost Directive specification, as Apollo
/// Router's static estimator computes it ("Calculating cost" in Apollo's demand control).
///
/// - The operation costs its base (a mutation ``CostModel/mutationBaseCost``, a query or
///   subscription 0) plus its fields.
/// - A field costs `instances × (weight + selections) + argument weights`: its weight is its
///   `@cost`, else its type's, else 1 for an object, interface or union and 0 for a scalar or
///   enum; `instances` is 1, or for a list the size `@listSize` gives: the largest slicing
///   argument sent (a literal, the variable's value, else the variable's default), else
///   `assumedSize`, else ``CostModel/defaultListSize``.
/// - With `sizedFields` (a connection), that size applies to the named child fields (`edges`,
///   `nodes`) instead of the field itself.
/// - Every branch of fragments counts (an upper bound).
/// - Introspection (`__schema`, `__type`) costs what its answer holds, counted on the schema
///   (``IntrospectionCost``): the standard introspection query of GraphiQL, Apollo or gql costs
///   about as many units as its answer has objects, and a nested `interfaces { possibleTypes ... }`
///   what it would grow to. `__typename` is a scalar: 0.
///
/// `{ profile(handle: "a") { followers(first: 50) { edges { node { id } } } } }` costs
/// 1 + 1 + 50 × (1 + 1) = 102. Each fragment is priced once per size it inherits, so the walk
/// is linear in the document; arithmetic saturates.
///
/// ```swift
/// let estimate = CostEstimator.estimate(operation, schema: schema, model: model, fragments: fragments, variables: variables)
/// ```
public struct CostEstimator {
    /// A size a connection hands down to its `sizedFields`.
    struct Sized: Hashable {
        let names: [String]
        let size: Int
    }

    struct FragmentKey: Hashable {
        let name: String
        let sized: Sized?
    }

    let schema: GraphQLSchema
    let model: CostModel
    let fragments: [String: FragmentDefinition]
    /// The request's variables; nil before there are any (validation), when defaults count.
    let variables: JSONObject?
    var variableDefaults: [String: Int] = [:]
    var fragmentCosts: [FragmentKey: Int] = [:]
    var inProgress: Set<String> = []
    var variablesRead: Set<String> = []
    /// The pricing of `__schema` and `__type` selections, made on first use (it keeps its own
    /// per-type results for the whole operation).
    var introspection: IntrospectionCost?
    let operation: OperationDefinition

    /// Estimates `operation`.
    /// - Parameters:
    ///   - fragments: the document's fragments by name.
    ///   - variables: the request's variables, or nil to price with the variables' defaults.
    public static func estimate(
        _ operation: OperationDefinition, schema: GraphQLSchema, model: CostModel, fragments: [String: FragmentDefinition],
        variables: JSONObject?
    ) -> CostEstimate {
        var estimator = CostEstimator(
            schema: schema, model: model, fragments: fragments, variables: variables, operation: operation)
        for definition in operation.variableDefinitions {
            if case .int(let literal)? = definition.defaultValue, let value = Int(literal.value) {
                estimator.variableDefaults[definition.variable.name.value] = value
            }
        }
        guard let root = schema.rootType(for: operation.operation) else { return CostEstimate(cost: 0) }
        let base = operation.operation == .mutation ? CostModel.mutationBaseCost : 0
        let cost = saturatingAdd(base, estimator.cost(of: operation.selectionSet, on: .object(root), sized: nil))
        let read = estimator.variablesRead.union(estimator.introspection?.variablesRead ?? [])
        return CostEstimate(cost: cost, variablesRead: read.sorted())
    }

    mutating func cost(of selectionSet: SelectionSet, on parent: GraphQLNamedType, sized: Sized?) -> Int {
        var total = 0
        for selection in selectionSet.selections {
            switch selection {
            case .field(let field):
                if field.name.value.hasPrefix("__") {
                    total = saturatingAdd(total, metaFieldCost(field, on: parent))
                    continue
                }
                guard let definition = parent.fieldDefinition(named: field.name.value) else { continue }
                total = saturatingAdd(total, cost(of: field, definition, on: parent.name, sized: sized))
            case .inlineFragment(let inline):
                let type = inline.typeCondition.flatMap { schema.type(named: $0.name.value) } ?? parent
                total = saturatingAdd(total, cost(of: inline.selectionSet, on: type, sized: sized))
            case .fragmentSpread(let spread):
                total = saturatingAdd(total, fragmentCost(spread.name.value, sized: sized))
            }
        }
        return total
    }

    mutating func cost(of field: Field, _ definition: GraphQLField, on typeName: String, sized: Sized?) -> Int {
        let listSize = model.listSize(of: definition.name, on: typeName)
        let expected = listSize.flatMap { expectedSize($0, field) }
        var instances = 1
        if definition.type.isList {
            if let sized, sized.names.contains(field.name.value) {
                instances = sized.size
            } else if let listSize, listSize.sizedFields.isEmpty {
                instances = expected ?? model.defaultListSize
            } else {
                instances = model.defaultListSize
            }
        }
        var childSized: Sized?
        if let listSize, !listSize.sizedFields.isEmpty {
            childSized = Sized(names: listSize.sizedFields, size: expected ?? model.defaultListSize)
        }
        let selections = field.selectionSet.map { cost(of: $0, on: definition.type.namedType, sized: childSized) } ?? 0
        var total = saturatingMultiply(instances, saturatingAdd(model.weight(of: definition, on: typeName), selections))
        if let weights = model.argumentWeights(of: definition.name, on: typeName) {
            for argument in field.arguments { total = saturatingAdd(total, weights[argument.name.value] ?? 0) }
        }
        return total
    }

    /// The cost of a meta-field: `__schema` and `__type` on the query type what their answer holds
    /// (``IntrospectionCost``), `__typename` nothing (a scalar).
    mutating func metaFieldCost(_ field: Field, on parent: GraphQLNamedType) -> Int {
        guard let definition = schema.fieldDefinition(parentType: parent, name: field.name.value),
            field.name.value != "__typename"
        else { return 0 }
        var pricing = introspection
            ?? IntrospectionCost(schema: schema, model: model, fragments: fragments, variables: variables, operation: operation)
        introspection = nil
        let cost = pricing.cost(ofMetaField: field, definition)
        introspection = pricing
        return cost
    }

    /// The size `@listSize` gives a field as asked: its largest slicing argument, else `assumedSize`.
    mutating func expectedSize(_ listSize: CostModel.ListSize, _ field: Field) -> Int? {
        var size: Int?
        for argument in field.arguments where listSize.slicingArguments.contains(argument.name.value) {
            var value: Int?
            switch argument.value {
            case .int(let literal): value = Int(literal.value) ?? Int.max
            case .variable(let variable):
                let name = variable.name.value
                variablesRead.insert(name)
                if let given = variables?[name] {
                    value = given.intValue
                } else {
                    value = variableDefaults[name]
                }
            default: break
            }
            if let value { size = max(size ?? 0, max(0, value)) }
        }
        return size ?? listSize.assumedSize
    }

    mutating func fragmentCost(_ name: String, sized: Sized?) -> Int {
        let key = FragmentKey(name: name, sized: sized)
        if let known = fragmentCosts[key] { return known }
        guard let fragment = fragments[name], let type = schema.type(named: fragment.typeCondition.name.value),
            inProgress.insert(name).inserted
        else { return 0 }
        let value = cost(of: fragment.selectionSet, on: type, sized: sized)
        inProgress.remove(name)
        fragmentCosts[key] = value
        return value
    }
}

extension GraphQLType {
    /// Whether the type is a list, non-null or not.
    var isList: Bool {
        switch self {
        case .list: true
        case .nonNull(let inner): inner.isList
        case .named: false
        }
    }
}

extension GraphQLNamedType {
    /// The field `name` of an object or interface type.
    func fieldDefinition(named name: String) -> GraphQLField? {
        switch self {
        case .object(let t): t.field(named: name)
        case .interface(let t): t.field(named: name)
        default: nil
        }
    }
}

/// `a + b`, or `Int.max` where it would overflow: a cost bound, never a trap (shared with the
/// validation guards).
public func saturatingAdd(_ a: Int, _ b: Int) -> Int {
    let (sum, overflow) = a.addingReportingOverflow(b)
    return overflow ? Int.max : sum
}

/// `a × b`, or `Int.max` where it would overflow.
public func saturatingMultiply(_ a: Int, _ b: Int) -> Int {
    let (product, overflow) = a.multipliedReportingOverflow(by: b)
    return overflow ? Int.max : product
}
