import GraphQLEngine
import GraphQLLanguage

/// §5.5.2.3 Fragment Spread Is Possible: "Let fragmentPossibleTypes be
/// GetPossibleTypes(fragmentType), parentPossibleTypes be GetPossibleTypes(parentType);
/// applicableTypes, their intersection, must not be empty."
///
/// Why: a fragment that can never apply in its position is dead, most likely a mistake.
final class PossibleFragmentSpreadsRule: ValidationRule {
    override class var hooks: Hooks { [.inlineFragment, .fragmentSpread] }

    override func enterInlineFragment(_ fragment: InlineFragment) {
        guard let fragmentType = typeInfo.type?.namedType, fragmentType.isComposite,
            let parentType = typeInfo.parentType, !schema.doTypesOverlap(fragmentType, parentType)
        else { return }
        report(
            "Fragment cannot be spread here as objects of type \"\(parentType.name)\" can never be of type \"\(fragmentType.name)\".",
            fragment.range)
    }

    override func enterFragmentSpread(_ spread: FragmentSpread) {
        let name = spread.name.value
        guard let fragment = context.fragment(named: name),
            let fragmentType = schema.type(named: fragment.typeCondition.name.value), fragmentType.isComposite,
            let parentType = typeInfo.parentType, !schema.doTypesOverlap(fragmentType, parentType)
        else { return }
        report(
            "Fragment \"\(name)\" cannot be spread here as objects of type \"\(parentType.name)\" can never be of type \"\(fragmentType.name)\".",
            spread.range)
    }
}
