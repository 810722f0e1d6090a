import GraphQLEngine
import GraphQLLanguage

/// §5.2.4.1 Single Root Field: "Let collectedFieldsMap be the result of
/// CollectSubscriptionFields(subscriptionType, selectionSet). collectedFieldsMap must
/// have exactly one entry, which must not be an introspection field." Selections at
/// the root "must not provide the @skip directive" nor "@include".
///
/// Why: a subscription maps one source event stream to responses; without variables
/// the root field set must be known, hence no `@skip`/`@include` there.
/// Messages are graphql-js's (the directive one from graphql-js 17), and so are the locations:
/// one directive per selection (`@skip` before `@include`), none from inside a fragment that
/// carries one (graphql-js does not collect it).
final class SingleFieldSubscriptionsRule: ValidationRule {
    override class var hooks: Hooks { .operation }

    override func enterOperation(_ operation: OperationDefinition) {
        guard operation.operation == .subscription, let subscriptionType = schema.subscriptionType else { return }
        var collector = Collector(context: context, objectType: subscriptionType)
        collector.collect(operation.selectionSet)
        let subject = operation.name.map { "Subscription \"\($0.value)\"" } ?? "Anonymous Subscription"
        if !collector.forbiddenDirectives.isEmpty {
            report(
                "\(subject) must not use `@skip` or `@include` directives in the top level selection.",
                ranges: collector.forbiddenDirectives.map(\.range))
            return
        }
        if collector.keys.count > 1 {
            let extra = collector.keys.dropFirst().flatMap { collector.groups[$0]! }
            report("\(subject) must select only one top level field.", ranges: extra.map(\.range))
        } else if collector.keys.isEmpty {
            // "Exactly one entry": none is not one either (a fragment that only spreads itself,
            // fragments that do not apply). There is no extra field to point at, so the
            // operation is. graphql-js 17 checks only for more than one.
            report("\(subject) must select only one top level field.", operation.range)
        }
        for key in collector.keys {
            let fields = collector.groups[key]!
            if fields[0].name.value.hasPrefix("__") {
                report("\(subject) must not select an introspection top level field.", ranges: fields.map(\.range))
            }
        }
    }

    /// CollectSubscriptionFields: fields by response name, through fragments that apply.
    private struct Collector {
        let context: ValidationContext
        let objectType: GraphQLObjectType
        var keys: [String] = []
        var groups: [String: [Field]] = [:]
        var visitedFragments: Set<String> = []
        var forbiddenDirectives: [Directive] = []

        init(context: ValidationContext, objectType: GraphQLObjectType) {
            self.context = context
            self.objectType = objectType
        }

        mutating func collect(_ selectionSet: SelectionSet) {
            for selection in selectionSet.selections {
                // graphql-js 17's `shouldIncludeNode` with `forbidSkipAndInclude`: a selection's
                // `@skip` (else its `@include`) is reported, and the selection is not collected,
                // so nothing inside a fragment that carries one is looked at.
                if let forbidden = selection.directives.first(where: { $0.name.value == "skip" })
                    ?? selection.directives.first(where: { $0.name.value == "include" })
                {
                    forbiddenDirectives.append(forbidden)
                    continue
                }
                switch selection {
                case .field(let field):
                    let key = field.responseKey
                    if groups[key] == nil { keys.append(key) }
                    groups[key, default: []].append(field)
                case .fragmentSpread(let spread):
                    let name = spread.name.value
                    guard visitedFragments.insert(name).inserted, let fragment = context.fragment(named: name),
                        applies(fragment.typeCondition)
                    else { continue }
                    collect(fragment.selectionSet)
                case .inlineFragment(let inline):
                    if let condition = inline.typeCondition, !applies(condition) { continue }
                    collect(inline.selectionSet)
                }
            }
        }

        /// DoesFragmentTypeApply(objectType, fragmentType).
        private func applies(_ condition: NamedType) -> Bool {
            guard let type = context.schema.type(named: condition.name.value) else { return false }
            switch type {
            case .object(let object): return object === objectType
            case .interface, .union: return context.schema.isSubType(type, .object(objectType))
            default: return false
            }
        }
    }
}
