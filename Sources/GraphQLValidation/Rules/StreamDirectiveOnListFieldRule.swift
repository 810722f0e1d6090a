import GraphQLLanguage

/// Incremental delivery: `@stream` only on a field whose type is a list (nullable or not).
///
/// Why: only a list has items to send one batch at a time. graphql-js 17's
/// `StreamDirectiveOnListFieldRule`, with its message.
final class StreamDirectiveOnListFieldRule: ValidationRule {
    override class var hooks: Hooks { .directive }

    override func enterDirective(_ directive: Directive, location: DirectiveLocation) {
        guard directive.name.value == "stream", location == .field, let field = typeInfo.fieldDef,
            let parent = typeInfo.parentType
        else { return }
        if case .list = field.type.nullable { return }
        report("Directive \"@stream\" cannot be used on non-list field \"\(parent.name).\(field.name)\".", directive.range)
    }
}
