import GraphQLEngine
import GraphQLLanguage

/// §5.5.1.2 Fragment Spread Type Existence ("the target type of fragment must be
/// defined in the schema"), and for variables §5.8.2's "Let type be the type of the
/// variable" — graphql-js's `KnownTypeNamesRule` checks every named type reference.
///
/// Why: a type the schema does not define cannot condition a fragment or type a variable.
final class KnownTypeNamesRule: ValidationRule {
    override class var hooks: Hooks { .namedType }

    override func enterNamedType(_ type: NamedType) {
        let name = type.name.value
        guard schema.type(named: name) == nil else { return }
        let suggestions = Suggestions.list(name, schema.typeNames)
        report("Unknown type \"\(name)\".\(Suggestions.didYouMean(suggestions))", type.range)
    }
}
