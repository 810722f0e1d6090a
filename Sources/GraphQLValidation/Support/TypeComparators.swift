import GraphQLEngine
import GraphQLLanguage

/// Type relations validation needs, as graphql-js's `typeFromAST`,
/// `isTypeSubTypeOf` and `doTypesOverlap` define them.
extension GraphQLSchema {
    /// Whether some object type could be both `a` and `b` (§5.5.2.3 GetPossibleTypes overlap).
    func doTypesOverlap(_ a: GraphQLNamedType, _ b: GraphQLNamedType) -> Bool {
        if a == b { return true }
        if a.isAbstract {
            if b.isAbstract {
                return possibleTypes(of: a).contains { isSubType(b, .object($0)) }
            }
            return isSubType(a, b)
        }
        if b.isAbstract { return isSubType(b, a) }
        return false
    }
}

extension GraphQLType {
    /// True for two leaf types that differ, or lists/non-nulls whose shapes differ
    /// (graphql-js's `doTypesConflict`, used by §5.3.2 SameResponseShape).
    func conflicts(with other: GraphQLType) -> Bool {
        switch (self, other) {
        case (.list(let a), .list(let b)): return a.conflicts(with: b)
        case (.list, _), (_, .list): return true
        case (.nonNull(let a), .nonNull(let b)): return a.conflicts(with: b)
        case (.nonNull, _), (_, .nonNull): return true
        case (.named(let a), .named(let b)):
            if a.isLeaf || b.isLeaf { return a != b }
            return false
        }
    }
}

/// Structural equality of two values, ignoring source positions and the order of input
/// object fields. graphql-js 17 compares the values printed with every object's fields
/// sorted by name (`sortValueNode`), so `{a: 1, b: 2}` and `{b: 2, a: 1}` are the same
/// argument and two fields that pass them can merge (§5.3.2 SameArguments); this is the
/// same relation without building strings.
func sameValue(_ a: Value, _ b: Value) -> Bool {
    switch (a, b) {
    case (.variable(let x), .variable(let y)): return x.name.value == y.name.value
    case (.int(let x), .int(let y)): return x.value == y.value
    case (.float(let x), .float(let y)): return x.value == y.value
    case (.string(let x), .string(let y)): return x.value == y.value
    case (.boolean(let x), .boolean(let y)): return x.value == y.value
    case (.null, .null): return true
    case (.enumValue(let x), .enumValue(let y)): return x.value == y.value
    case (.list(let x), .list(let y)):
        return x.values.count == y.values.count && zip(x.values, y.values).allSatisfy { sameValue($0, $1) }
    case (.object(let x), .object(let y)):
        guard x.fields.count == y.fields.count else { return false }
        // Usually written in one order: compared in place, with no sort.
        if zip(x.fields, y.fields).allSatisfy({ $0.name.value == $1.name.value }) {
            return zip(x.fields, y.fields).allSatisfy { sameValue($0.value, $1.value) }
        }
        return zip(sortedByName(x.fields), sortedByName(y.fields)).allSatisfy {
            $0.name.value == $1.name.value && sameValue($0.value, $1.value)
        }
    default: return false
    }
}

/// Object fields by name; fields of one name (invalid, but not this rule's to report)
/// keep their order, as graphql-js's stable sort keeps them.
private func sortedByName(_ fields: [ObjectField]) -> [ObjectField] {
    fields.enumerated()
        .sorted { a, b in
            let (x, y) = (a.element.name.value, b.element.name.value)
            return x != y ? x < y : a.offset < b.offset
        }
        .map(\.element)
}
