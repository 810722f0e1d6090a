import GraphQLLanguage

/// How a request delivers `@defer` and `@stream`: not at all (the whole answer inline, as if
/// each had `if: false`), or incrementally in one of the two wire formats in use.
///
/// Incremental delivery is not in the GraphQL specification yet (the RFC is graphql-spec's
/// `rfcs/DeferStream.md`); clients speak one of two drafts, and the server follows the one they
/// ask for. Each format also decides how deferred fields are grouped:
/// - ``v0_2`` is graphql-js 17's `experimentalExecuteIncrementally` (`incrementalSpec=v0.2`):
///   `pending` with ids, `incremental` with `id` and `subPath`, `completed`; a field selected
///   both directly and in a deferred fragment is sent once.
/// - ``v0_1`` is Apollo's `deferSpec=20220824` (graphql-js 17.0.0-alpha.2, Apollo Router,
///   Apollo iOS and Kotlin 4): each deferred fragment arrives whole, as `{data, path, label}`,
///   streamed items as `{items, path}`; nothing announces what is pending.
public enum IncrementalFormat: String, Sendable, Hashable, CaseIterable {
    case v0_1 = "v0.1"
    case v0_2 = "v0.2"
}

/// One `@defer` met while collecting fields (graphql-js's `DeferUsage`): its label and the
/// deferred fragment it is nested in. Compared by identity: the same fragment spread reached
/// from two places is two usages.
final class DeferUsage {
    let label: String?
    let parent: DeferUsage?
    /// Creation order within the request, to keep sets of usages in a stable order.
    let order: Int

    init(label: String?, parent: DeferUsage?, order: Int) {
        self.label = label
        self.parent = parent
        self.order = order
    }

    /// Whether `other` is this usage or one it is nested in.
    func isOrIsNested(in other: DeferUsage) -> Bool {
        var current: DeferUsage? = self
        while let usage = current {
            if usage === other { return true }
            current = usage.parent
        }
        return false
    }
}

/// An active `@stream` on a list field: how many items go in the enclosing payload, and its label.
struct StreamUsage {
    let label: String?
    let initialCount: Int
}

/// Which deferred fragments the fields of a selection belong to, summed up so the executor
/// knows whether the selection can be written without splitting it (``SubtreeResolution``).
enum DeferKey: Equatable {
    /// No field comes from a deferred fragment (every selection outside incremental delivery).
    case none
    /// Every field comes from this one deferred fragment, and none starts another or streams.
    case usage(ObjectIdentifier)
    /// Fields from several fragments, a fragment deferred here, or a streamed field.
    case mixed
}

/// `@defer` and `@stream`, read from the document with the request's variables
/// (graphql-js 17's `getDeferUsage` and `getStreamUsage`).
extension ExecutionContext {
    /// The `@defer` of a fragment spread or inline fragment, when incremental delivery is on
    /// and its `if` is not false; its parent is the usage the enclosing fields inherit.
    func deferUsage(_ directives: [Directive], parent: DeferUsage?) -> DeferUsage? {
        guard let incremental, let directive = directives.first(where: { $0.name.value == "defer" }) else { return nil }
        if boolArgument(directive, "if") == false { return nil }
        return incremental.makeDeferUsage(label: stringArgument(directive, "label"), parent: parent)
    }

    /// The `@stream` of a field's first node, when incremental delivery is on and its `if` is not false.
    /// - Throws: ``ResolverError`` when `initialCount` is negative (graphql-js's message).
    func streamUsage(_ field: Field) throws(ResolverError) -> StreamUsage? {
        guard incremental != nil, let directive = field.directives.first(where: { $0.name.value == "stream" }) else {
            return nil
        }
        if boolArgument(directive, "if") == false { return nil }
        let initialCount = intArgument(directive, "initialCount") ?? 0
        guard initialCount >= 0 else { throw ResolverError("initialCount must be a positive integer") }
        return StreamUsage(label: stringArgument(directive, "label"), initialCount: initialCount)
    }

    /// An argument's value from a literal or a variable; nil when absent (the default then applies).
    private func argumentValue(_ directive: Directive, _ name: String) -> JSONValue? {
        guard let argument = directive.arguments.first(where: { $0.name.value == name }) else { return nil }
        switch argument.value {
        case .variable(let variable): return variables[variable.name.value]
        case .boolean(let b): return .bool(b.value)
        case .string(let s): return .string(s.value)
        case .int(let i): return Int(i.value).map { .int($0) }
        case .null: return .null
        default: return nil
        }
    }

    private func boolArgument(_ directive: Directive, _ name: String) -> Bool? { argumentValue(directive, name)?.boolValue }
    private func stringArgument(_ directive: Directive, _ name: String) -> String? { argumentValue(directive, name)?.stringValue }
    private func intArgument(_ directive: Directive, _ name: String) -> Int? { argumentValue(directive, name)?.intValue }
}
