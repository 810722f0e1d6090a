import GraphQLLanguage

/// §5.3.2 Field Selection Merging: "For each selection set in the document,
/// FieldsInSetCanMerge(set) must be true": fields with one response name must be the
/// same field with the same arguments unless their parents are distinct object
/// types, and must return the same response shape.
///
/// Why: the executor merges fields by response name; two different fields under one
/// key would need two values in one place. The algorithm (in ``FieldConflictFinder``)
/// avoids graphql-js's quadratic cases: see there.
final class OverlappingFieldsCanBeMergedRule: ValidationRule {
    override class var hooks: Hooks { .selectionSet }

    private lazy var finder = FieldConflictFinder(context: context)
    /// Response names seen so far: a short array searched linearly (no hashing) until
    /// it grows past 32 names, then a set.
    private var seenKeys: [String] = []
    private var seenKeySet: Set<String> = []
    private var visitedFragments: Set<String> = []

    override func enterSelectionSet(_ selectionSet: SelectionSet) {
        // Only fields with one response name can conflict. When every response name in
        // the set, through its inline fragments and (transitively) spread fragments,
        // occurs once — the usual case — there is nothing to compare.
        seenKeys.removeAll(keepingCapacity: true)
        seenKeySet.removeAll(keepingCapacity: true)
        visitedFragments.removeAll(keepingCapacity: true)
        guard hasRepeatedResponseKey(selectionSet) else { return }
        for conflict in finder.findConflictsWithinSelectionSet(typeInfo.parentType, selectionSet) {
            report(
                "Fields \"\(conflict.responseName)\" conflict because \(conflict.reason.text). Use different aliases on the fields to fetch both if this was intentional.",
                ranges: conflict.fields1 + conflict.fields2)
        }
    }

    /// Adds a response name; false if it was already there.
    private func insertKey(_ key: String) -> Bool {
        if seenKeys.count < 32 {
            if seenKeys.contains(key) { return false }
            seenKeys.append(key)
            if seenKeys.count == 32 { seenKeySet = Set(seenKeys) }
            return true
        }
        return seenKeySet.insert(key).inserted
    }

    private func hasRepeatedResponseKey(_ selectionSet: SelectionSet) -> Bool {
        for selection in selectionSet.selections {
            switch selection {
            case .field(let field):
                if !insertKey(field.responseKey) { return true }
            case .inlineFragment(let inline):
                if hasRepeatedResponseKey(inline.selectionSet) { return true }
            case .fragmentSpread(let spread):
                guard visitedFragments.insert(spread.name.value).inserted,
                    let fragment = context.fragment(named: spread.name.value)
                else { continue }
                if hasRepeatedResponseKey(fragment.selectionSet) { return true }
            }
        }
        return false
    }
}
