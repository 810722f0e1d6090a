import GraphQLLanguage

/// §5.4.2 Argument Uniqueness: "Let arguments be all Arguments named argumentName in
/// the Argument Set which contains argument. arguments must be the set containing only
/// argument."
///
/// Why: two values for one argument are ambiguous. Reported once per name, at every
/// occurrence's name.
final class UniqueArgumentNamesRule: ValidationRule {
    override class var hooks: Hooks { [.field, .directive] }

    override func enterField(_ field: Field) { check(field.arguments) }
    override func enterDirective(_ directive: Directive, location: DirectiveLocation) { check(directive.arguments) }

    private func check(_ arguments: [Argument]) {
        guard arguments.count > 1 else { return }
        var order: [String] = []
        var groups: [String: [SourceRange]] = [:]
        for argument in arguments {
            let name = argument.name.value
            if groups[name] == nil { order.append(name) }
            groups[name, default: []].append(argument.name.range)
        }
        guard order.count < arguments.count else { return }
        for name in order where groups[name]!.count > 1 {
            report("There can be only one argument named \"\(name)\".", ranges: groups[name]!)
        }
    }
}
