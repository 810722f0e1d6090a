import GraphQLLanguage

/// §5.5.2.1 Fragment Spread Target Defined: "Let fragment be the target of
/// namedSpread. fragment must be defined in the document."
///
/// Why: a spread of a fragment that does not exist selects nothing knowable.
final class KnownFragmentNamesRule: ValidationRule {
    override class var hooks: Hooks { .fragmentSpread }

    override func enterFragmentSpread(_ spread: FragmentSpread) {
        if context.fragment(named: spread.name.value) == nil {
            report("Unknown fragment \"\(spread.name.value)\".", spread.name.range)
        }
    }
}
