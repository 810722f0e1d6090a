import GraphQLLanguage

/// §5.3.3 Leaf Field Selections: "If selectionType is a scalar or enum: the
/// subselection set of that selection must be empty. If selectionType is an interface,
/// union, or object: the subselection set of that selection must not be empty."
///
/// Why: leaves have no fields to select, and an object without a selection would
/// return an unbounded, unspecified shape.
final class ScalarLeafsRule: ValidationRule {
    override class var hooks: Hooks { .field }

    override func enterField(_ field: Field) {
        guard let type = typeInfo.type else { return }
        let name = field.name.value
        if type.namedType.isLeaf {
            if let selectionSet = field.selectionSet {
                report(
                    "Field \"\(name)\" must not have a selection since type \"\(type)\" has no subfields.",
                    selectionSet.range)
            }
        } else if field.selectionSet == nil {
            report(
                "Field \"\(name)\" of type \"\(type)\" must have a selection of subfields. Did you mean \"\(name) { ... }\"?",
                field.range)
        }
    }
}
