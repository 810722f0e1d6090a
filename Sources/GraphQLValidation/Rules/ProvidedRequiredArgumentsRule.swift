import GraphQLEngine
import GraphQLLanguage

/// §5.4.3 Required Arguments: "For each Field or Directive in the document: let
/// arguments be the arguments provided; for each argumentDefinition whose type is
/// Non-Null and has no default value, the argument must be provided (and not null)."
///
/// Why: a required argument the client omitted cannot be filled in. (A `null` literal
/// for a non-null argument is reported by ValuesOfCorrectType.) Checked when the
/// field or directive is left, as graphql-js does.
final class ProvidedRequiredArgumentsRule: ValidationRule {
    override class var hooks: Hooks { [.field, .directive] }

    private var directiveStack: [GraphQLDirective?] = []

    override func leaveField(_ field: Field) {
        guard let def = typeInfo.fieldDef else { return }
        for argument in def.arguments where argument.isRequired {
            if !field.arguments.contains(where: { $0.name.value == argument.name }) {
                report(
                    "Field \"\(def.name)\" argument \"\(argument.name)\" of type \"\(argument.type)\" is required, but it was not provided.",
                    field.range)
            }
        }
    }

    override func enterDirective(_ directive: Directive, location: DirectiveLocation) {
        directiveStack.append(typeInfo.directive)
    }

    override func leaveDirective(_ directive: Directive) {
        guard let def = directiveStack.popLast() ?? nil else { return }
        for argument in def.arguments where argument.isRequired {
            if !directive.arguments.contains(where: { $0.name.value == argument.name }) {
                report(
                    "Directive \"@\(def.name)\" argument \"\(argument.name)\" of type \"\(argument.type)\" is required, but it was not provided.",
                    directive.range)
            }
        }
    }
}
