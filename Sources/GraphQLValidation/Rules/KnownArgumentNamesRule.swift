import GraphQLLanguage

/// §5.4.1 Argument Names: "For each argument in the document: let argumentDefinition
/// be the argument definition provided by the parent field or definition named
/// argumentName; argumentDefinition must exist."
///
/// Why: an argument the field or directive does not define would be silently ignored.
/// Covers graphql-js's `KnownArgumentNamesRule` and `KnownArgumentNamesOnDirectivesRule`.
final class KnownArgumentNamesRule: ValidationRule {
    override class var hooks: Hooks { .argument }

    override func enterArgument(_ argument: Argument) {
        guard typeInfo.argument == nil else { return }
        let name = argument.name.value
        if let directive = typeInfo.directive {
            let suggestions = Suggestions.list(name, directive.arguments.map(\.name))
            report(
                "Unknown argument \"\(name)\" on directive \"@\(directive.name)\".\(Suggestions.didYouMean(suggestions))",
                argument.range)
        } else if let field = typeInfo.fieldDef, let parentType = typeInfo.parentType {
            let suggestions = Suggestions.list(name, field.arguments.map(\.name))
            report(
                "Unknown argument \"\(name)\" on field \"\(parentType.name).\(field.name)\".\(Suggestions.didYouMean(suggestions))",
                argument.range)
        }
    }
}
