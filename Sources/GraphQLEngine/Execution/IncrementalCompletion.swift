import GraphQLLanguage

/// Completing objects and lists where `@defer` and `@stream` apply (incremental delivery):
/// the fields of deferred fragments are set aside as execution groups, the items of a streamed
/// list after its `initialCount` as an item stream, both recorded in the execution's ``work``.
extension ExecutionContext {
    /// The delivery groups in force at `slot`: the nearest object above that records them.
    func deliveryMap(at slot: ParentSlot) -> DeliveryMap? {
        var next: ParentSlot? = slot
        while let current = next {
            switch current.container {
            case .object(let object):
                if let map = object.deliveryMap { return map }
                next = object.parent
            case .list(let list):
                next = list.parent
            case .root:
                return nil
            }
        }
        return nil
    }

    /// Executes `collected` on `value` into a new object at `slot`: the fields due now at once,
    /// the others recorded as execution groups of the deferred fragments they belong to
    /// (graphql-js 17's `executeCollectedSubfields` with its execution plan).
    ///
    /// Where no deferred fragment is in force and none starts here (a streamed item's fields),
    /// every field is due now, as in graphql-js.
    @discardableResult
    func executeDeferring(
        _ collected: CollectedFields, of type: GraphQLObjectType, parent value: any Sendable, into slot: ParentSlot,
        path: inout [PathComponent]
    ) -> ResultObject {
        let inherited = deliveryMap(at: slot)
        var map = inherited ?? [:]
        var newGroups: [DeliveryGroup] = []
        for usage in collected.newDeferUsages {
            let group = DeliveryGroup(path: path, label: usage.label, parent: usage.parent.flatMap { map[ObjectIdentifier($0)] })
            newGroups.append(group)
            map[ObjectIdentifier(usage)] = group
        }
        let plan = inherited == nil && newGroups.isEmpty ? nil : collected.incrementalPlan(for: deferUsages, in: self)
        let now = plan?.now ?? collected
        let object = ResultObject(keys: now.keys)
        object.parent = slot
        if !newGroups.isEmpty { object.deliveryMap = map }
        set(.object(object), at: slot)
        executeFields(now, of: type, parent: value, into: object, path: &path)
        // After the fields, as graphql-js records them: the groups found below come first.
        work.groups += newGroups
        for deferred in plan?.deferred ?? [] {
            work.tasks.append(
                ExecutionGroupTask(
                    groups: deferred.usages.compactMap { map[ObjectIdentifier($0)] }, path: path, type: type, source: value,
                    fields: deferred.fields, usages: deferred.usages, deliveryMap: map, owner: object))
        }
        return object
    }

    /// Completes a list field with an active `@stream`: its first `initialCount` items now, the
    /// others recorded as an item stream (graphql-js 17's `completeListValue` with a stream usage).
    /// - Returns: false when the field does not stream here (only a field's own list streams,
    ///   not the inner lists of a list of lists).
    func completeStreamedList(
        _ items: any ResolvedList, itemType: GraphQLType, field: PlannedField, parentType: GraphQLObjectType,
        into slot: ParentSlot, path: inout [PathComponent]
    ) -> Bool {
        guard case .key? = path.last else { return false }
        let usage: StreamUsage
        switch field.stream {
        case .success(nil): return false
        case .success(let found?): usage = found
        case .failure(let error):
            fieldError(error, field: field, path: path, slot: slot)
            return true
        }
        var values: [(any Sendable)?] = []
        values.reserveCapacity(items.resolvedCount)
        items.forEachResolved { _, item in values.append(item) }
        let initialCount = min(usage.initialCount, values.count)
        let list = ResultList(count: initialCount)
        list.parent = slot
        set(.list(list), at: slot)
        let itemNullable = !itemType.isNonNull
        for i in 0..<initialCount where !list.isNulled {
            path.append(.index(i))
            completeValue(
                itemType, values[i], field: field, parentType: parentType,
                into: ParentSlot(container: .list(list), index: i, isNullable: itemNullable), path: &path)
            path.removeLast()
        }
        // graphql-js streams once the initial items are taken, even when none is left: the
        // client then gets the stream's `completed` alone.
        if values.count >= usage.initialCount {
            work.streams.append(
                ItemStream(
                    path: path, label: usage.label, field: field.streamedField(in: self), itemType: itemType,
                    parentType: parentType, items: Array(values[initialCount...]), firstIndex: initialCount, owner: list))
        }
        return true
    }

    /// The work recorded here that still has a place in the response: what lies under a
    /// position a null replaced is dropped (graphql-js filters it the same way).
    func keptWork() -> IncrementalWorkList {
        var kept = IncrementalWorkList(groups: work.groups)
        for task in work.tasks {
            if let owner = task.owner, let parent = owner.parent, parent.stillHolds(owner, isRootNull: dataIsNull) {
                kept.tasks.append(task)
            }
            task.owner = nil
        }
        for stream in work.streams {
            if let owner = stream.owner, let parent = owner.parent, parent.stillHolds(owner, isRootNull: dataIsNull) {
                kept.streams.append(stream)
            }
            stream.owner = nil
        }
        work = IncrementalWorkList()
        return kept
    }
}
