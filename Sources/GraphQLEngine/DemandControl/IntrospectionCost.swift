import GraphQLLanguage

/// The exact cost of an introspection selection (`__schema`, `__type`): the objects its answer
/// will hold, counted on the schema itself, for ``CostEstimator``.
///
/// Why exact rather than a list size per field: introspection answers from a schema that is
/// known before execution, so its real size is known too. A fixed size per list cannot price both
/// the standard introspection query and a nested attack: sized by the largest type (27 fields
/// here) the standard query of GraphiQL, Apollo or gql would cost some 100,000 for an answer of
/// 1,117 objects; sized by the average, `interfaces { possibleTypes { interfaces { ... } } }`
/// through an interface with 4 implementations (4 times more objects per pair of levels) would
/// look cheap. Counting the real values costs the first what its answer holds and the second
/// what it would have grown to.
///
/// The walk follows the schema as introspection does (`types`, `fields(includeDeprecated:)`,
/// `args`, `inputFields`, `interfaces`, `possibleTypes`, `enumValues`, `ofType`...): a value
/// costs its field's weight (an object 1, a leaf 0, as ``CostModel`` says of every field) plus its
/// selections; a list costs the sum of its items; a null costs nothing. Every branch of fragments
/// counts, as in the estimator. An argument given as a variable reads the request's value (or the
/// variable's default); before there are variables, `__type(name: $n)` prices the costliest type
/// and `includeDeprecated: $d` counts deprecated members, and the estimate is marked as depending
/// on its variables.
///
/// The cost of a selection set on a type is computed once per walk (by its place in the document
/// and the type), so a document nested n levels costs n × (types in the schema) steps to price,
/// not the exponential number of objects it would answer. Arithmetic saturates.
struct IntrospectionCost {
    /// A value introspection answers with.
    enum Entry {
        case schema
        case type(GraphQLType)
        case field(GraphQLField)
        case inputValue(GraphQLArgument)
        case enumValue(GraphQLEnumValue)
        case directive(GraphQLDirective)

        /// The introspection type of the value (`__Type`...).
        var typeName: String {
            switch self {
            case .schema: "__Schema"
            case .type: "__Type"
            case .field: "__Field"
            case .inputValue: "__InputValue"
            case .enumValue: "__EnumValue"
            case .directive: "__Directive"
            }
        }
    }

    /// A selection set (by its place in the document) priced on one type.
    struct MemoKey: Hashable {
        let start: Int
        let end: Int
        let type: GraphQLType
    }

    let schema: GraphQLSchema
    let model: CostModel
    let fragments: [String: FragmentDefinition]
    /// The request's variables; nil before there are any.
    let variables: JSONObject?
    /// The operation's variables' default values.
    let variableDefaults: [String: Value]
    var memo: [MemoKey: Int] = [:]
    var inProgress: Set<String> = []
    /// The variables an argument named: the price then holds for their values only.
    var variablesRead: Set<String> = []

    init(schema: GraphQLSchema, model: CostModel, fragments: [String: FragmentDefinition], variables: JSONObject?,
         operation: OperationDefinition) {
        self.schema = schema
        self.model = model
        self.fragments = fragments
        self.variables = variables
        var defaults: [String: Value] = [:]
        for definition in operation.variableDefinitions {
            if let value = definition.defaultValue { defaults[definition.variable.name.value] = value }
        }
        self.variableDefaults = defaults
    }

    /// The cost of a `__schema` or `__type` field selected on the query type: the field's own
    /// weight for a present value plus its selections; 0 for `__type` naming no type.
    mutating func cost(ofMetaField field: Field, _ definition: GraphQLField) -> Int {
        let weight = model.weight(of: definition, on: schema.queryType.name)
        guard let selections = field.selectionSet else { return 0 }
        switch field.name.value {
        case "__schema":
            return saturatingAdd(weight, cost(of: selections, on: .schema))
        case "__type":
            var total = 0
            for type in namedTypes(field) { total = max(total, saturatingAdd(weight, cost(of: selections, on: .type(.named(type))))) }
            return total
        default:
            return 0
        }
    }

    /// The type `__type(name:)` names: the literal's, the variable's, or before there are
    /// variables every type (the caller keeps the costliest).
    private mutating func namedTypes(_ field: Field) -> [GraphQLNamedType] {
        guard let argument = field.arguments.first(where: { $0.name.value == "name" }) else { return [] }
        switch argument.value {
        case .string(let literal):
            return schema.type(named: literal.value).map { [$0] } ?? []
        case .variable(let variable):
            let name = variable.name.value
            variablesRead.insert(name)
            let given: String?
            if let value = variables?[name] {
                given = value.stringValue
            } else if case .string(let literal)? = variableDefaults[name] {
                given = literal.value
            } else if variables == nil {
                return schema.typeNames.compactMap { schema.type(named: $0) }
            } else {
                given = nil
            }
            return given.flatMap { schema.type(named: $0) }.map { [$0] } ?? []
        default:
            return []
        }
    }

    /// The cost of `selectionSet` on `value`.
    mutating func cost(of selectionSet: SelectionSet, on value: Entry) -> Int {
        var key: MemoKey?
        if case .type(let type) = value, selectionSet.range.end > selectionSet.range.start {
            key = MemoKey(start: selectionSet.range.start, end: selectionSet.range.end, type: type)
            if let key, let known = memo[key] { return known }
        }
        var total = 0
        for selection in selectionSet.selections {
            switch selection {
            case .field(let field):
                total = saturatingAdd(total, cost(of: field, on: value))
            case .inlineFragment(let inline):
                guard applies(inline.typeCondition?.name.value, to: value) else { continue }
                total = saturatingAdd(total, cost(of: inline.selectionSet, on: value))
            case .fragmentSpread(let spread):
                let name = spread.name.value
                guard let fragment = fragments[name], applies(fragment.typeCondition.name.value, to: value),
                    inProgress.insert(name).inserted
                else { continue }
                total = saturatingAdd(total, cost(of: fragment.selectionSet, on: value))
                inProgress.remove(name)
            }
        }
        if let key { memo[key] = total }
        return total
    }

    /// Whether a fragment on `condition` applies to an introspection value (no condition: yes).
    private func applies(_ condition: String?, to value: Entry) -> Bool {
        guard let condition else { return true }
        return condition == value.typeName
    }

    /// The cost of one field selected on `value`: each value it answers with costs the field's
    /// weight plus its selections.
    private mutating func cost(of field: Field, on value: Entry) -> Int {
        let name = field.name.value
        guard let selections = field.selectionSet,
            let parent = schema.type(named: value.typeName), let definition = parent.field(named: name)
        else { return 0 }
        let weight = model.weight(of: definition, on: value.typeName)
        var total = 0
        for child in children(of: value, name, field) {
            total = saturatingAdd(total, saturatingAdd(weight, cost(of: selections, on: child)))
        }
        return total
    }

    /// The values the introspection field `name` answers on `value` with (none for a leaf, a
    /// null or an empty list).
    private mutating func children(of value: Entry, _ name: String, _ field: Field) -> [Entry] {
        switch value {
        case .schema:
            switch name {
            case "types": return schema.typeNames.compactMap { schema.type(named: $0) }.map { .type(.named($0)) }
            case "queryType": return [.type(.named(.object(schema.queryType)))]
            case "mutationType": return schema.mutationType.map { [.type(.named(.object($0)))] } ?? []
            case "subscriptionType": return schema.subscriptionType.map { [.type(.named(.object($0)))] } ?? []
            case "directives": return schema.directives.map { .directive($0) }
            default: return []
            }
        case .type(let type):
            guard case .named(let named) = type else {
                if name == "ofType", case .list(let inner) = type { return [.type(inner)] }
                if name == "ofType", case .nonNull(let inner) = type { return [.type(inner)] }
                return []
            }
            switch name {
            case "fields":
                let all = includeDeprecated(field)
                return named.fields.filter { all || !$0.isDeprecated }.map { .field($0) }
            case "interfaces":
                switch named {
                case .object(let object): return object.interfaces.map { .type(.named(.interface($0))) }
                case .interface(let interface): return interface.interfaces.map { .type(.named(.interface($0))) }
                default: return []
                }
            case "possibleTypes":
                guard named.isAbstract else { return [] }
                return schema.possibleTypes(of: named).map { .type(.named(.object($0))) }
            case "enumValues":
                guard case .enumType(let enumType) = named else { return [] }
                let all = includeDeprecated(field)
                return enumType.values.filter { all || !$0.isDeprecated }.map { .enumValue($0) }
            case "inputFields":
                guard case .inputObject(let input) = named else { return [] }
                let all = includeDeprecated(field)
                return input.fields.filter { all || !$0.isDeprecated }.map { .inputValue($0) }
            default: return []
            }
        case .field(let definition):
            switch name {
            case "args":
                let all = includeDeprecated(field)
                return definition.arguments.filter { all || !$0.isDeprecated }.map { .inputValue($0) }
            case "type": return [.type(definition.type)]
            default: return []
            }
        case .inputValue(let argument):
            return name == "type" ? [.type(argument.type)] : []
        case .directive(let directive):
            guard name == "args" else { return [] }
            let all = includeDeprecated(field)
            return directive.arguments.filter { all || !$0.isDeprecated }.map { .inputValue($0) }
        case .enumValue:
            return []
        }
    }

    /// The field's `includeDeprecated` argument: a literal, the variable's value or default, or
    /// true (every member) before there are variables.
    private mutating func includeDeprecated(_ field: Field) -> Bool {
        guard let argument = field.arguments.first(where: { $0.name.value == "includeDeprecated" }) else { return false }
        switch argument.value {
        case .boolean(let literal): return literal.value
        case .variable(let variable):
            let name = variable.name.value
            variablesRead.insert(name)
            if let given = variables?[name] { return given.boolValue ?? false }
            if case .boolean(let literal)? = variableDefaults[name] { return literal.value }
            return variables == nil
        default: return false
        }
    }
}
