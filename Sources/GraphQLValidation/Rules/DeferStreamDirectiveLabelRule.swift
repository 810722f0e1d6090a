import GraphQLLanguage

/// Incremental delivery (graphql-spec's `rfcs/DeferStream.md`): the `label` of every `@defer`
/// and `@stream` in a document is a static string, unique across them all.
///
/// Why: a client tells the payloads of its deferred fragments and streams apart by label
/// (v0.1's `label`, v0.2's `pending` entries), and a label given as a variable is known only
/// when the request runs. graphql-js 17's `DeferStreamDirectiveLabelRule`, with its messages.
final class DeferStreamDirectiveLabelRule: ValidationRule {
    override class var hooks: Hooks { .directive }

    private var known: [String: Directive] = [:]

    override func enterDirective(_ directive: Directive, location: DirectiveLocation) {
        let name = directive.name.value
        guard name == "defer" || name == "stream",
            let label = directive.arguments.first(where: { $0.name.value == "label" })
        else { return }
        switch label.value {
        case .null:
            return
        case .string(let value):
            if let first = known[value.value] {
                report(
                    "Value for arguments \"defer(label:)\" and \"stream(label:)\" must be unique across all Defer/Stream directive usages.",
                    first.range, directive.range)
            } else {
                known[value.value] = directive
            }
        default:
            report("Argument \"@\(name)(label:)\" must be a static string.", directive.range)
        }
    }
}
