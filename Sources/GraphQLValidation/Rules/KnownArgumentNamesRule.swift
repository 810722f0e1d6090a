import GraphQLEngine
import GraphQLLanguage

/// §5.4.1 Argument Names: "For each argument in the document: let argumentDefinition
/// be the argument definition provided by the parent field or definition named
/// argumentName; argumentDefinition must exist."
///
/// Why: an argument the field or directive does not define would be silently ignored.
/// Covers graphql-js's `KnownArgumentNamesRule` and `KnownArgumentNamesOnDirectivesRule`:
/// a directive's arguments are all checked when the directive is entered, and those of
/// an unknown directive not at all (KnownDirectives reports the directive).
final class KnownArgumentNamesRule: ValidationRule {
    override class var hooks: Hooks { [.argument, .directive] }

    private var directiveDepth = 0

    override func enterDirective(_ directive: Directive, location: DirectiveLocation) {
        directiveDepth += 1
        guard let def = typeInfo.directive else { return }
        for argument in directive.arguments where def.argument(named: argument.name.value) == nil {
            let name = argument.name.value
            let suggestions = Suggestions.list(name, def.arguments.map(\.name))
            report(
                "Unknown argument \"\(name)\" on directive \"@\(def.name)\".\(Suggestions.didYouMean(suggestions))",
                argument.range)
        }
    }

    override func leaveDirective(_ directive: Directive) { directiveDepth -= 1 }

    override func enterArgument(_ argument: Argument) {
        guard directiveDepth == 0, typeInfo.argument == nil, let field = typeInfo.fieldDef,
            let parentType = typeInfo.parentType
        else { return }
        let name = argument.name.value
        let suggestions = Suggestions.list(name, field.arguments.map(\.name))
        report(
            "Unknown argument \"\(name)\" on field \"\(parentType.name).\(field.name)\".\(Suggestions.didYouMean(suggestions))",
            argument.range)
    }
}
