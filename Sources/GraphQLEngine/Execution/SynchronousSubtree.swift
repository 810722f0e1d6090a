/// Which parts of a selection resolve without waiting, worked out from the plan and the
/// bound resolvers before any value is resolved.
///
/// A subtree in which no field has an async resolver completes in one go, so the executor
/// writes it straight to JSON (`CompleteValueToJSON.swift`) instead of building result nodes
/// that only an async field needs (a slot to complete later).
///
/// A subtree whose only waiting fields are ``FieldResolver/readyOrAsync(ready:otherwise:)`` is
/// written the same way when every such value turns out to be at hand, which is the point of
/// those resolvers: the 500 profiles of a follower graph's second level carry
/// `viewerIsFollowing`, known from the page that listed them. If one is not, the attempt is
/// abandoned (its bytes and errors are taken back) and the object goes the result-tree way,
/// where that field waits. Resolvers therefore must not have side effects beyond idempotent
/// ones (recording a cache tag): a synchronous field of an abandoned attempt is resolved again.
/// A selection whose attempt was abandoned is not tried again in the same request, so the
/// work thrown away is at most one object's per selection.
///
/// Abstract fields count only as much as their least ready possible type, because which type
/// applies is known only per value.
enum SubtreeResolution: Int, Comparable {
    /// No field here or below waits: written straight to JSON.
    case synchronous
    /// Some fields may wait, each only when its value is not at hand: tried straight to JSON.
    case ifReady
    /// Some field waits for an async resolver: completed on the result tree.
    case async

    static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}

extension CollectedFields {
    /// Whether these fields and everything they select resolve synchronously: no async
    /// resolver, and no ready-or-async one either.
    func isSynchronous(in context: ExecutionContext) -> Bool {
        resolution(in: context) == .synchronous
    }

    /// How these fields and everything they select resolve: the least ready of them.
    func resolution(in context: ExecutionContext) -> SubtreeResolution {
        // Under incremental delivery, only fields of the deferred fragments executing now (none,
        // for the initial result) may be written inline: anything else may be split or streamed.
        // The cached value is computed under that one key, so it stays valid.
        if deferKey != .none || context.deferKey != .none {
            guard deferKey != .mixed, deferKey == context.deferKey else { return .async }
        }
        if let resolution { return resolution }
        var result = SubtreeResolution.synchronous
        for field in fields {
            result = max(result, field.resolution(in: context))
            if result == .async { break }
        }
        resolution = result
        return result
    }
}

extension PlannedField {
    /// How the field's resolver answers (a synchronous or default read, ready-or-async, async),
    /// combined with its sub-selection's resolution.
    ///
    /// Terminates: each step goes one level down the document's selections, which are finite
    /// (fragment cycles are cut by CollectFields' visited set).
    func resolution(in context: ExecutionContext) -> SubtreeResolution {
        guard let definition else { return .synchronous }
        let own: SubtreeResolution
        switch definition.resolver {
        case .async?: return .async
        case .readyOrAsync?: own = .ifReady
        case .sync?, nil: own = .synchronous
        }
        let named = definition.type.namedType
        switch named {
        case .object(let object):
            return max(own, child.collected(for: object, in: context).resolution(in: context))
        case .interface, .union:
            var result = own
            for object in context.schema.possibleTypes(of: named) {
                result = max(result, child.collected(for: object, in: context).resolution(in: context))
                if result == .async { break }
            }
            return result
        case .scalar, .enumType, .inputObject:
            return own
        }
    }
}
