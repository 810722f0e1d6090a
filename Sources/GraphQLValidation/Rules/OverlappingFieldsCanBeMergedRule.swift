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
    private lazy var finder = FieldConflictFinder(context: context)

    override func enterSelectionSet(_ selectionSet: SelectionSet) {
        // A selection set of fields with distinct response names and no fragments
        // cannot conflict within itself (the common case): skip the bookkeeping.
        if selectionSet.selections.count == 1, case .field = selectionSet.selections[0] { return }
        for conflict in finder.findConflictsWithinSelectionSet(typeInfo.parentType, selectionSet) {
            report(
                "Fields \"\(conflict.responseName)\" conflict because \(conflict.reason.text). Use different aliases on the fields to fetch both if this was intentional.",
                ranges: conflict.fields1 + conflict.fields2)
        }
    }
}
