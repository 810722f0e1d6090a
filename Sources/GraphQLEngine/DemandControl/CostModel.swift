import GraphQLLanguage

/// The weights and list sizes a schema declares with the IBM GraphQL cost directives
/// (`@cost(weight:)`, `@listSize(assumedSize:slicingArguments:sizedFields:requireOneSlicingArgument:)`),
/// read once from its applied directives, for ``CostEstimator`` and ``ActualCost``.
///
/// The directives are the ones Apollo Router, Cosmo, Hive and Grafbase read, so a schema printed
/// from this server (or fetched by introspection-based tooling) prices operations the same way
/// in front of it. Without a directive, the defaults of the spec and of Apollo's static estimator
/// apply: an object, interface or union costs 1, a scalar or enum 0, and a list without
/// `@listSize` counts ``defaultListSize`` elements.
///
/// ```swift
/// let model = CostModel(schema: schema, defaultListSize: 10)
/// let estimate = CostEstimator(model: model).estimate(operation, fragments: fragments, variables: variables)
/// ```
public struct CostModel: Sendable {
    /// A field's `@listSize`.
    public struct ListSize: Sendable, Hashable {
        public var assumedSize: Int?
        public var slicingArguments: [String]
        public var sizedFields: [String]
        public var requireOneSlicingArgument: Bool
    }

    /// `@cost` on a field definition, by type name then field name.
    var fieldWeights: [String: [String: Int]] = [:]
    /// `@cost` on an argument definition, by type name, field name and argument name.
    var argumentWeights: [String: [String: [String: Int]]] = [:]
    /// `@cost` on an object, scalar or enum type, by type name.
    var typeWeights: [String: Int] = [:]
    /// `@listSize` on a field definition, by type name then field name.
    var listSizes: [String: [String: ListSize]] = [:]
    /// Elements assumed of a list field without `@listSize` (Apollo's `list_size`).
    public let defaultListSize: Int
    /// The cost of the operation itself (Apollo: a mutation 10, a query or subscription 0).
    public static let mutationBaseCost = 10

    /// Reads the directives applied in `schema`.
    public init(schema: GraphQLSchema, defaultListSize: Int = 10) {
        self.defaultListSize = defaultListSize
        for name in schema.typeNames {
            guard let type = schema.type(named: name) else { continue }
            let fields: [GraphQLField]
            switch type {
            case .object(let t):
                fields = t.fields
                if let weight = Self.weight(t.directives) { typeWeights[name] = weight }
            case .interface(let t): fields = t.fields
            case .scalar(let t):
                if let weight = Self.weight(t.directives) { typeWeights[name] = weight }
                continue
            case .enumType(let t):
                if let weight = Self.weight(t.directives) { typeWeights[name] = weight }
                continue
            case .union, .inputObject: continue
            }
            for field in fields {
                if let weight = Self.weight(field.directives) { fieldWeights[name, default: [:]][field.name] = weight }
                if let size = Self.listSize(field.directives) { listSizes[name, default: [:]][field.name] = size }
                for argument in field.arguments {
                    if let weight = Self.weight(argument.directives) {
                        argumentWeights[name, default: [:]][field.name, default: [:]][argument.name] = weight
                    }
                }
            }
        }
    }

    /// A field's own weight: its `@cost`, else its type's, else 1 for a composite type and 0 for a leaf.
    func weight(of field: GraphQLField, on typeName: String) -> Int {
        if let weight = fieldWeights[typeName]?[field.name] { return weight }
        let named = field.type.namedType
        if let weight = typeWeights[named.name] { return weight }
        switch named {
        case .object, .interface, .union: return 1
        case .scalar, .enumType, .inputObject: return 0
        }
    }

    func listSize(of field: String, on typeName: String) -> ListSize? { listSizes[typeName]?[field] }

    func argumentWeights(of field: String, on typeName: String) -> [String: Int]? { argumentWeights[typeName]?[field] }

    private static func weight(_ directives: [Directive]) -> Int? {
        guard let cost = directives.first(where: { $0.name.value == "cost" }),
            let argument = cost.arguments.first(where: { $0.name.value == "weight" }), case .int(let literal) = argument.value
        else { return nil }
        return Int(literal.value)
    }

    private static func listSize(_ directives: [Directive]) -> ListSize? {
        guard let directive = directives.first(where: { $0.name.value == "listSize" }) else { return nil }
        var size = ListSize(assumedSize: nil, slicingArguments: [], sizedFields: [], requireOneSlicingArgument: true)
        for argument in directive.arguments {
            switch (argument.name.value, argument.value) {
            case ("assumedSize", .int(let literal)): size.assumedSize = Int(literal.value)
            case ("slicingArguments", let value): size.slicingArguments = strings(value)
            case ("sizedFields", let value): size.sizedFields = strings(value)
            case ("requireOneSlicingArgument", .boolean(let flag)): size.requireOneSlicingArgument = flag.value
            default: break
            }
        }
        return size
    }

    private static func strings(_ value: Value) -> [String] {
        switch value {
        case .string(let string): [string.value]
        case .list(let list): list.values.compactMap { if case .string(let s) = $0 { s.value } else { nil } }
        default: []
        }
    }
}
