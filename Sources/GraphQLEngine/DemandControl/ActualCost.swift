import GraphQLLanguage

/// The cost of an answer as it came out: ``CostEstimator``'s rules applied to the response's
/// `data`, with each list counted at the length it has rather than the length it might have
/// (Apollo Router's "actual" cost).
///
/// A field costs its weight once per non-null value it produced (a null costs nothing) plus its
/// argument weights; fields are grouped by response key through fragments, so a key two
/// fragments select is counted once. Introspection counts like any other selection (its objects
/// 1 each, as ``IntrospectionCost`` estimates them).
///
/// ```swift
/// let actual = ActualCost.of(operation, data: data, schema: schema, model: model, fragments: fragments)
/// ```
public enum ActualCost {
    /// The actual cost of `operation` for the answer `data` (the response's `data` entry).
    public static func of(
        _ operation: OperationDefinition, data: JSONValue?, schema: GraphQLSchema, model: CostModel,
        fragments: [String: FragmentDefinition]
    ) -> Int {
        let base = operation.operation == .mutation ? CostModel.mutationBaseCost : 0
        guard let root = schema.rootType(for: operation.operation), let object = data?.objectValue else { return base }
        let walker = Walker(schema: schema, model: model, fragments: fragments)
        return saturatingAdd(base, walker.cost(of: [operation.selectionSet], on: .object(root), object: object))
    }

    struct Walker {
        let schema: GraphQLSchema
        let model: CostModel
        let fragments: [String: FragmentDefinition]

        /// One response key: the fields that produce it, and the type they are defined on.
        struct Group {
            var fields: [Field]
            let parent: GraphQLNamedType
        }

        func cost(of selectionSets: [SelectionSet], on parent: GraphQLNamedType, object: JSONObject) -> Int {
            var keys: [String] = []
            var groups: [String: Group] = [:]
            var visited: Set<String> = []
            let typename = object["__typename"]?.stringValue
            for set in selectionSets { collect(set, on: parent, typename: typename, into: &groups, keys: &keys, visited: &visited) }
            var total = 0
            for key in keys {
                guard let group = groups[key], let first = group.fields.first, let value = object[key],
                    let definition = schema.fieldDefinition(parentType: group.parent, name: first.name.value)
                else { continue }
                let weight = model.weight(of: definition, on: group.parent.name)
                let subsets = group.fields.compactMap(\.selectionSet)
                total = saturatingAdd(total, cost(of: value, weight: weight, type: definition.type.namedType, selectionSets: subsets))
                if let weights = model.argumentWeights(of: definition.name, on: group.parent.name) {
                    for argument in first.arguments { total = saturatingAdd(total, weights[argument.name.value] ?? 0) }
                }
            }
            return total
        }

        func cost(of value: JSONValue, weight: Int, type: GraphQLNamedType, selectionSets: [SelectionSet]) -> Int {
            switch value {
            case .null: return 0
            case .array(let items):
                var total = 0
                for item in items { total = saturatingAdd(total, cost(of: item, weight: weight, type: type, selectionSets: selectionSets)) }
                return total
            case .object(let object): return saturatingAdd(weight, cost(of: selectionSets, on: type, object: object))
            case .bool, .int, .double, .string: return weight
            }
        }

        /// CollectFields (§6.3.2) without directives: response keys in order, through fragments
        /// whose type condition may apply (all of them when the object has no `__typename`).
        func collect(
            _ set: SelectionSet, on parent: GraphQLNamedType, typename: String?, into groups: inout [String: Group],
            keys: inout [String], visited: inout Set<String>
        ) {
            for selection in set.selections {
                switch selection {
                case .field(let field):
                    let key = field.responseKey
                    if groups[key] == nil {
                        keys.append(key)
                        groups[key] = Group(fields: [field], parent: parent)
                    } else {
                        groups[key]?.fields.append(field)
                    }
                case .inlineFragment(let inline):
                    guard let type = applicable(inline.typeCondition?.name.value, parent: parent, typename: typename) else { continue }
                    collect(inline.selectionSet, on: type, typename: typename, into: &groups, keys: &keys, visited: &visited)
                case .fragmentSpread(let spread):
                    let name = spread.name.value
                    guard let fragment = fragments[name], visited.insert(name).inserted,
                        let type = applicable(fragment.typeCondition.name.value, parent: parent, typename: typename)
                    else { continue }
                    collect(fragment.selectionSet, on: type, typename: typename, into: &groups, keys: &keys, visited: &visited)
                }
            }
        }

        /// The type a fragment's fields are defined on, or nil when it cannot apply to this object.
        func applicable(_ condition: String?, parent: GraphQLNamedType, typename: String?) -> GraphQLNamedType? {
            guard let condition, let type = schema.type(named: condition) else { return parent }
            if let typename, let concrete = schema.type(named: typename), concrete != type, !schema.isSubType(type, concrete) {
                return nil
            }
            return type
        }
    }
}
