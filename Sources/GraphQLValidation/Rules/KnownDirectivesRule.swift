import GraphQLLanguage

/// §5.7.1 Directives Are Defined ("directiveDefinition must exist") and §5.7.2
/// Directives Are in Valid Locations ("If directiveDefinition is not repeatable ...
/// directive must be used in a location that directiveDefinition allows").
///
/// Why: an unknown directive, or one used where it has no meaning, would be ignored.
final class KnownDirectivesRule: ValidationRule {
    override class var hooks: Hooks { .directive }

    override func enterDirective(_ directive: Directive, location: DirectiveLocation) {
        let name = directive.name.value
        guard let def = typeInfo.directive else {
            report("Unknown directive \"@\(name)\".", directive.range)
            return
        }
        if !def.locations.contains(location) {
            report("Directive \"@\(name)\" may not be used on \(location.rawValue).", directive.range)
        }
    }
}
