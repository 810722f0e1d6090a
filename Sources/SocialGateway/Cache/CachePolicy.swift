import GraphQLEngine
import GraphQLLanguage

/// How long a response may be cached and for whom: Apollo's `@cacheControl` semantics.
///
/// The smallest `maxAge` of the response's fields wins; `PRIVATE` anywhere makes
/// the whole response private (cached per viewer). A field's own hint wins over
/// its type's; a field returning an object, interface or union (and every root
/// field) without a hint gets the default maxAge, unless `inheritMaxAge` says to
/// take its parent's; scalar fields without a hint do not constrain anything.
///
/// The policy is computed from the operation before execution, over every field it
/// could select (`@skip`/`@include` are ignored): a sound over-approximation, so a
/// response that might hold private data is never cached as public.
struct CachePolicy: Sendable, Hashable {
    var maxAge: Int
    var isPrivate: Bool

    /// The `Cache-Control` header value for a response with this policy.
    var headerValue: String {
        maxAge > 0 ? "\(isPrivate ? "private" : "public"), max-age=\(maxAge)" : "no-store"
    }

    static func of(
        _ operation: OperationDefinition, fragments: [String: FragmentDefinition], schema: GraphQLSchema, defaultMaxAge: Int
    ) -> CachePolicy {
        var analyzer = Analyzer(schema: schema, fragments: fragments, defaultMaxAge: defaultMaxAge)
        guard let root = schema.rootType(for: operation.operation) else { return CachePolicy(maxAge: 0, isPrivate: false) }
        analyzer.visit(operation.selectionSet, on: .object(root), parentMaxAge: nil, isRoot: true, visited: [])
        return CachePolicy(maxAge: analyzer.maxAge ?? defaultMaxAge, isPrivate: analyzer.isPrivate)
    }

    /// A `@cacheControl` hint as written on a field or type.
    struct Hint {
        var maxAge: Int?
        var isPrivate = false
        var inheritMaxAge = false

        init(_ directives: [Directive]) {
            guard let hint = directives.first(where: { $0.name.value == "cacheControl" }) else { return }
            for argument in hint.arguments {
                switch (argument.name.value, argument.value) {
                case ("maxAge", .int(let v)): maxAge = Int(v.value)
                case ("scope", .enumValue(let v)): isPrivate = v.value == "PRIVATE"
                case ("inheritMaxAge", .boolean(let v)): inheritMaxAge = v.value
                default: break
                }
            }
        }
    }

    struct Analyzer {
        let schema: GraphQLSchema
        let fragments: [String: FragmentDefinition]
        let defaultMaxAge: Int
        var maxAge: Int?
        var isPrivate = false

        init(schema: GraphQLSchema, fragments: [String: FragmentDefinition], defaultMaxAge: Int) {
            self.schema = schema
            self.fragments = fragments
            self.defaultMaxAge = defaultMaxAge
        }

        mutating func constrain(_ value: Int) { maxAge = min(maxAge ?? value, value) }

        mutating func visit(
            _ selectionSet: SelectionSet, on parentType: GraphQLNamedType, parentMaxAge: Int?, isRoot: Bool, visited: Set<String>
        ) {
            for selection in selectionSet.selections {
                switch selection {
                case .field(let node):
                    guard let field = schema.fieldDefinition(parentType: parentType, name: node.name.value) else { continue }
                    if field.name == "__typename" { continue }
                    let named = field.type.namedType
                    let fieldHint = Hint(field.directives)
                    let typeHint = Hint(typeDirectives(named))
                    if fieldHint.isPrivate || typeHint.isPrivate { isPrivate = true }
                    var age: Int?
                    if let own = fieldHint.maxAge {
                        age = own
                    } else if named.isComposite || isRoot {
                        if let typeAge = typeHint.maxAge, !fieldHint.inheritMaxAge {
                            age = typeAge
                        } else if (fieldHint.inheritMaxAge || typeHint.inheritMaxAge), let parentMaxAge {
                            age = parentMaxAge
                        } else {
                            age = defaultMaxAge
                        }
                    }
                    if let age { constrain(age) }
                    if let child = node.selectionSet, named.isComposite {
                        visit(child, on: named, parentMaxAge: age ?? parentMaxAge, isRoot: false, visited: visited)
                    }
                case .inlineFragment(let inline):
                    let type = inline.typeCondition.flatMap { schema.type(named: $0.name.value) } ?? parentType
                    visit(inline.selectionSet, on: type, parentMaxAge: parentMaxAge, isRoot: isRoot, visited: visited)
                case .fragmentSpread(let spread):
                    let name = spread.name.value
                    guard !visited.contains(name), let fragment = fragments[name] else { continue }
                    let type = schema.type(named: fragment.typeCondition.name.value) ?? parentType
                    visit(fragment.selectionSet, on: type, parentMaxAge: parentMaxAge, isRoot: isRoot, visited: visited.union([name]))
                }
            }
        }

        func typeDirectives(_ type: GraphQLNamedType) -> [Directive] {
            switch type {
            case .object(let t): t.directives
            case .interface(let t): t.directives
            case .union(let t): t.directives
            default: []
            }
        }
    }
}

/// JSON with object keys sorted at every level: equal variables, equal text.
///
/// O(n log n) in the number of keys: an object's keys are unique, so the sorted pairs are
/// appended without a lookup each.
func canonicalJSON(_ value: JSONValue) -> String {
    func canonical(_ value: JSONValue) -> JSONValue {
        switch value {
        case .object(let object):
            var sorted = JSONObject()
            for (key, item) in zip(object.keys, object.values).sorted(by: { $0.0 < $1.0 }) {
                sorted.append(key, canonical(item))
            }
            return .object(sorted)
        case .array(let items): return .array(items.map(canonical))
        default: return value
        }
    }
    return JSONWriter.string(canonical(value))
}
