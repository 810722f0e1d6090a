import GraphQLLanguage

/// §5.5.1.1 Fragment Name Uniqueness: "Let fragments be all fragment definitions in
/// the document named fragmentName. fragments must be a set of one."
///
/// Why: spreads refer to fragments by name.
final class UniqueFragmentNamesRule: ValidationRule {
    override class var hooks: Hooks { .fragmentDefinition }

    private var known: [String: Name] = [:]

    override func enterFragmentDefinition(_ fragment: FragmentDefinition) {
        let name = fragment.name
        if let first = known[name.value] {
            report("There can be only one fragment named \"\(name.value)\".", first.range, name.range)
        } else {
            known[name.value] = name
        }
    }
}
