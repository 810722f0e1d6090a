/// A selection split by deferred fragment, for the fragments whose fields are executing now
/// (graphql-js 17's `buildExecutionPlan`, and its legacy `buildBranchingExecutionPlan`).
///
/// `now` is executed at once, into the object being completed; each entry of `deferred` becomes
/// an execution group, delivered with the fragments it names once they are released.
final class IncrementalPlan {
    let now: CollectedFields
    let deferred: [(usages: [DeferUsage], fields: CollectedFields)]

    init(now: CollectedFields, deferred: [(usages: [DeferUsage], fields: CollectedFields)]) {
        self.now = now
        self.deferred = deferred
    }
}

extension CollectedFields {
    /// These fields split for an execution group of the fragments `current` (none: the initial
    /// result, or a streamed item), made once per set and reused for every object of the selection.
    func incrementalPlan(for current: [DeferUsage], in context: ExecutionContext) -> IncrementalPlan {
        let key = current.map(ObjectIdentifier.init)
        if let found = incrementalPlans.first(where: { $0.key == key }) { return found.plan }
        let plan: IncrementalPlan
        switch context.incremental?.format {
        case .v0_1?: plan = branchingPlan(current: Set(key), context: context)
        case .v0_2?, nil: plan = deduplicatedPlan(current: Set(key))
        }
        incrementalPlans.append((key, plan))
        return plan
    }

    /// v0.2: a field goes with the smallest set of fragments it is selected in; a field also
    /// selected outside any deferred fragment is executed now, and sent once.
    private func deduplicatedPlan(current: Set<ObjectIdentifier>) -> IncrementalPlan {
        var now: [PlannedField] = []
        var groups: [(usages: [DeferUsage], ids: Set<ObjectIdentifier>, fields: [PlannedField])] = []
        for field in fields {
            let usages = Self.filteredUsages(field.deferUsages)
            let ids = Set(usages.map(ObjectIdentifier.init))
            if ids == current {
                now.append(field)
            } else if let i = groups.firstIndex(where: { $0.ids == ids }) {
                groups[i].fields.append(field)
            } else {
                groups.append((usages, ids, [field]))
            }
        }
        return IncrementalPlan(
            now: CollectedFields(keys: now.map(\.responseKey), fields: now),
            deferred: groups.map { ($0.usages, CollectedFields(keys: $0.fields.map(\.responseKey), fields: $0.fields)) })
    }

    /// graphql-js's `getFilteredDeferUsageSet`: none when a node is not deferred, else the
    /// usages that are not nested in another usage of the set, in creation order.
    static func filteredUsages(_ usages: [DeferUsage?]) -> [DeferUsage] {
        var set: [DeferUsage] = []
        for usage in usages {
            guard let usage else { return [] }
            if !set.contains(where: { $0 === usage }) { set.append(usage) }
        }
        let filtered = set.filter { usage in
            !set.contains { other in other !== usage && usage.isOrIsNested(in: other) }
        }
        return filtered.sorted { $0.order < $1.order }
    }

    /// v0.1: each node goes with the one fragment it is written in, so every deferred fragment
    /// is executed and sent whole, even the fields the response already has.
    private func branchingPlan(current: Set<ObjectIdentifier>, context: ExecutionContext) -> IncrementalPlan {
        var now: [PlannedField] = []
        var groups: [(usage: DeferUsage, fields: [PlannedField])] = []
        for field in fields {
            // The partitions of this field's nodes: the one executing now (nil key) and one per fragment.
            var parts: [(usage: DeferUsage?, nodes: [Int])] = []
            for (i, usage) in field.deferUsages.enumerated() {
                let isNow = usage.map { current == [ObjectIdentifier($0)] } ?? current.isEmpty
                let partUsage = isNow ? nil : usage
                if let p = parts.firstIndex(where: { $0.usage === partUsage }) {
                    parts[p].nodes.append(i)
                } else {
                    parts.append((partUsage, [i]))
                }
            }
            for part in parts {
                let planned =
                    parts.count == 1
                    ? field
                    : PlannedField(
                        responseKey: field.responseKey, nodes: part.nodes.map { field.nodes[$0] }, parentType: field.parentType,
                        context: context, deferUsages: part.nodes.map { field.deferUsages[$0] })
                guard let usage = part.usage else {
                    now.append(planned)
                    continue
                }
                if let g = groups.firstIndex(where: { $0.usage === usage }) {
                    groups[g].fields.append(planned)
                } else {
                    groups.append((usage, [planned]))
                }
            }
        }
        return IncrementalPlan(
            now: CollectedFields(keys: now.map(\.responseKey), fields: now),
            deferred: groups.map { ([$0.usage], CollectedFields(keys: $0.fields.map(\.responseKey), fields: $0.fields)) })
    }
}
