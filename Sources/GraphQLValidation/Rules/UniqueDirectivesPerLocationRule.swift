import GraphQLLanguage

/// §5.7.3 Directives Are Unique per Location: "For each directive in directives: if
/// directiveDefinition is not repeatable, let namedDirectives be the set of all
/// Directives named directiveName in directives; namedDirectives must be a set of one."
///
/// Why: a non-repeatable directive given twice is ambiguous. Unknown directives are
/// left to KnownDirectives.
final class UniqueDirectivesPerLocationRule: ValidationRule {
    override class var hooks: Hooks { .directives }

    override func enterDirectives(_ directives: [Directive]) {
        guard directives.count > 1 else { return }
        var seen: [String: Directive] = [:]
        for directive in directives {
            let name = directive.name.value
            guard let def = schema.directive(named: name), !def.isRepeatable else { continue }
            if let first = seen[name] {
                report(
                    "The directive \"@\(name)\" can only be used once at this location.", first.range, directive.range)
            } else {
                seen[name] = directive
            }
        }
    }
}
