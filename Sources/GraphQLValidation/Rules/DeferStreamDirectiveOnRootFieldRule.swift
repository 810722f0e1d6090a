import GraphQLEngine
import GraphQLLanguage

/// Incremental delivery: no `@defer` or `@stream` directly on the root type of a mutation or a
/// subscription.
///
/// Why: a mutation's root fields run one after another and each answer must be whole before
/// the next write (§6.2.2); a subscription's root field is its source stream. graphql-js 17's
/// `DeferStreamDirectiveOnRootFieldRule`, with its messages; nested selections may defer.
final class DeferStreamDirectiveOnRootFieldRule: ValidationRule {
    override class var hooks: Hooks { .directive }

    override func enterDirective(_ directive: Directive, location: DirectiveLocation) {
        let name = directive.name.value
        guard name == "defer" || name == "stream", case .object(let parent)? = typeInfo.parentType else { return }
        let kind = name == "defer" ? "Defer" : "Stream"
        if let mutation = schema.mutationType, parent === mutation {
            report("\(kind) directive cannot be used on root mutation type \"\(parent.name)\".", directive.range)
        }
        if let subscription = schema.subscriptionType, parent === subscription {
            report("\(kind) directive cannot be used on root subscription type \"\(parent.name)\".", directive.range)
        }
    }
}
