import GraphQLLanguage

/// §5.5.1.3 Fragments on Object, Interface or Union Types: "For each fragment defined
/// in the document: the target type of fragment must have kind UNION, INTERFACE, or
/// OBJECT."
///
/// Why: only composite types have fields to select.
final class FragmentsOnCompositeTypesRule: ValidationRule {
    override class var hooks: Hooks { [.inlineFragment, .fragmentDefinition] }

    override func enterInlineFragment(_ fragment: InlineFragment) {
        guard let condition = fragment.typeCondition, let type = schema.type(named: condition.name.value),
            !type.isComposite
        else { return }
        report("Fragment cannot condition on non composite type \"\(condition.name.value)\".", condition.range)
    }

    override func enterFragmentDefinition(_ fragment: FragmentDefinition) {
        let condition = fragment.typeCondition
        guard let type = schema.type(named: condition.name.value), !type.isComposite else { return }
        report(
            "Fragment \"\(fragment.name.value)\" cannot condition on non composite type \"\(condition.name.value)\".",
            condition.range)
    }
}
