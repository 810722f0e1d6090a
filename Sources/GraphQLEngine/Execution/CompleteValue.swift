import GraphQLLanguage

extension ExecutionContext {
    /// §6.3 ExecuteSelectionSet: each collected field of `object`, in order.
    func executeFields(
        _ collected: CollectedFields, of type: GraphQLObjectType, parent: any Sendable, into object: ResultObject,
        path: inout [PathComponent]
    ) {
        for (i, field) in collected.fields.enumerated() {
            path.append(.key(field.responseKey))
            executeField(field, of: type, parent: parent, into: Executor.slot(object, i, field), path: &path)
            path.removeLast()
        }
    }

    /// §6.4 ExecuteField: coerce arguments, resolve, complete. Async resolvers are
    /// queued for the driver; everything else happens now, inline.
    func executeField(
        _ field: PlannedField, of type: GraphQLObjectType, parent: any Sendable, into slot: ParentSlot,
        path: inout [PathComponent]
    ) {
        // The response is already over its limit: nothing more is resolved.
        if responseTooLarge { return }
        if field.isTypename {
            set(.leaf(.string(type.name)), at: slot)
            return
        }
        guard let definition = field.definition else {
            set(.null, at: slot)
            return
        }
        if case .failure(var error) = field.arguments {
            error.path = path
            errors.append(error)
            nullOrPropagate(slot)
            return
        }
        // Fast path: a synchronous resolver of a scalar field, serialized in place.
        if let resolve = field.syncResolver, let scalar = field.leafScalar {
            do {
                if let value = presentValue(try resolve(ResolveInfo(parent: parent, plan: field, execution: self))) {
                    let leaf = try scalar.coercion.serialize(value)
                    if !leaf.isNull || slot.isNullable {
                        set(.leaf(leaf), at: slot)
                        return
                    }
                }
                completeValue(definition.type, nil, field: field, parentType: type, into: slot, path: &path)
            } catch {
                fieldError(error, field: field, path: path, slot: slot)
            }
            return
        }
        let value: (any Sendable)?
        switch definition.resolver {
        case nil:
            value = defaultResolve(parent, definition.name)
        case .sync(let resolve):
            do {
                value = try resolve(ResolveInfo(parent: parent, plan: field, execution: self))
            } catch {
                fieldError(error, field: field, path: path, slot: slot)
                return
            }
        case .async(let resolve):
            pending.append(
                PendingField(
                    field: field, definition: definition, resolve: resolve,
                    info: ResolveInfo(parent: parent, plan: field, execution: self), slot: slot,
                    path: path))
            return
        case .readyOrAsync(let ready, let otherwise):
            let info = ResolveInfo(parent: parent, plan: field, execution: self)
            do {
                switch try ready(info) {
                case .ready(let now):
                    value = now
                case .notReady:
                    pending.append(
                        PendingField(field: field, definition: definition, resolve: otherwise, info: info, slot: slot, path: path))
                    return
                }
            } catch {
                fieldError(error, field: field, path: path, slot: slot)
                return
            }
        }
        completeValue(definition.type, value, field: field, parentType: type, into: slot, path: &path)
    }

    /// The default resolver: the parent's member named like the field.
    func defaultResolve(_ parent: any Sendable, _ name: String) -> (any Sendable)? {
        switch parent {
        case let json as JSONValue:
            guard case .object(let object) = json, let value = object[name], !value.isNull else { return nil }
            return value
        case let object as JSONObject:
            guard let value = object[name], !value.isNull else { return nil }
            return value
        case let dictionary as [String: any Sendable]:
            return dictionary[name]
        case let readable as FieldReadable:
            return readable.value(forField: name)
        default:
            return nil
        }
    }

    /// §6.4.3 CompleteValue, writing the completed value into `slot`.
    func completeValue(
        _ type: GraphQLType, _ value: (any Sendable)?, field: PlannedField, parentType: GraphQLObjectType,
        into slot: ParentSlot, path: inout [PathComponent]
    ) {
        let value = presentValue(value)
        switch type {
        case .nonNull(let inner):
            guard value != nil else {
                errors.append(nonNullError(field: field, parentType: parentType, path: path))
                propagateNull(slot)
                return
            }
            var innerSlot = slot
            innerSlot.isNullable = false
            completeValue(inner, value, field: field, parentType: parentType, into: innerSlot, path: &path)
        case .list(let itemType):
            guard let value else { return nullOrPropagate(slot) }
            let items: any ResolvedList
            if let list = value as? any ResolvedList {
                items = list
            } else if let json = value as? JSONValue, case .array(let array) = json {
                items = array
            } else {
                errors.append(notIterableError(field: field, parentType: parentType, path: path))
                return nullOrPropagate(slot)
            }
            if incremental != nil,
                completeStreamedList(items, itemType: itemType, field: field, parentType: parentType, into: slot, path: &path)
            {
                return
            }
            let list = ResultList(count: items.resolvedCount)
            list.parent = slot
            set(.list(list), at: slot)
            let itemNullable = !itemType.isNonNull
            items.forEachResolved { i, item in
                // A null in a non-null item has nulled the list: as in graphql-js, the items
                // after it are not completed, so the list costs one error, not one per item.
                guard !list.isNulled, !responseTooLarge else { return }
                path.append(.index(i))
                completeValue(
                    itemType, item, field: field, parentType: parentType,
                    into: ParentSlot(container: .list(list), index: i, isNullable: itemNullable), path: &path)
                path.removeLast()
            }
        case .named(let named):
            guard let value else { return nullOrPropagate(slot) }
            switch named {
            case .scalar(let scalar):
                do {
                    let leaf = try scalar.coercion.serialize(value)
                    // A scalar that serializes to null: null, with the error a non-null field needs.
                    if leaf.isNull && !slot.isNullable {
                        return completeValue(.nonNull(type), nil, field: field, parentType: parentType, into: slot, path: &path)
                    }
                    set(.leaf(leaf), at: slot)
                } catch {
                    fieldError(error, field: field, path: path, slot: slot)
                }
            case .enumType(let enumType):
                guard let name = enumName(value, enumType, field: field, path: path) else { return nullOrPropagate(slot) }
                set(.leaf(.string(name)), at: slot)
            case .object(let objectType):
                completeObject(objectType, value, field: field, into: slot, path: &path)
            case .interface, .union:
                guard let objectType = resolveAbstractType(named, value, field: field, parentType: parentType, path: path) else {
                    return nullOrPropagate(slot)
                }
                completeObject(objectType, value, field: field, into: slot, path: &path)
            case .inputObject:
                set(.null, at: slot)
            }
        }
    }

    func completeObject(
        _ type: GraphQLObjectType, _ value: any Sendable, field: PlannedField, into slot: ParentSlot,
        path: inout [PathComponent]
    ) {
        let collected = field.child.collected(for: type, in: self)
        if collected.resolution(in: self) != .async {
            let start = output.count
            let errorCount = errors.count
            let isComplete = writeObject(collected, of: type, parent: value, path: &path, into: &output)
            if !inlineAttemptAbandoned {
                if isComplete {
                    set(.raw(start..<output.count), at: slot)
                } else {
                    output.truncate(to: start)
                    nullOrPropagate(slot)
                }
                return
            }
            // A value below was not at hand: take back what the attempt wrote and recorded, and
            // complete this object on the tree, where that field waits.
            inlineAttemptAbandoned = false
            output.truncate(to: start)
            errors.removeSubrange(errorCount...)
            collected.resolution = .async
            abandonedSelections.append(collected)
        }
        if responseTooLarge { return }
        if incremental != nil, collected.deferKey != .none || deferKey != .none {
            executeDeferring(collected, of: type, parent: value, into: slot, path: &path)
            return
        }
        let object = ResultObject(keys: collected.keys)
        object.parent = slot
        set(.object(object), at: slot)
        treeBytes &+= collected.leastObjectBytes
        executeFields(collected, of: type, parent: value, into: object, path: &path)
    }

    /// §6.4.3 ResolveAbstractType: the type's resolver, else a `__typename` in the value.
    func resolveAbstractType(
        _ abstract: GraphQLNamedType, _ value: any Sendable, field: PlannedField, parentType: GraphQLObjectType,
        path: [PathComponent]
    ) -> GraphQLObjectType? {
        var typeName: String?
        switch abstract {
        case .interface(let i): typeName = i.resolveType?(value)
        case .union(let u): typeName = u.resolveType?(value)
        default: break
        }
        if typeName == nil {
            switch value {
            case let json as JSONValue: typeName = json["__typename"]?.stringValue
            case let named as TypeNameProviding: typeName = named.graphQLTypeName
            default: break
            }
        }
        guard let typeName else {
            errors.append(
                error(
                    "Abstract type \"\(abstract.name)\" must resolve to an Object type at runtime for field \"\(parentType.name).\(field.definition?.name ?? "")\". Either the \"\(abstract.name)\" type should provide a \"resolveType\" function or each possible type should provide an \"isTypeOf\" function.",
                    field.ranges, path: path))
            return nil
        }
        guard case .object(let object)? = schema.type(named: typeName), schema.isSubType(abstract, .object(object)) else {
            errors.append(
                error("Runtime Object type \"\(typeName)\" is not a possible type for \"\(abstract.name)\".", field.ranges, path: path))
            return nil
        }
        return object
    }

    /// §6.4.4 Handling Field Errors: record the error, then null the field (or its nearest nullable parent).
    func fieldError(_ thrown: any Error, field: PlannedField, path: [PathComponent], slot: ParentSlot) {
        recordFieldError(thrown, field: field, path: path)
        nullOrPropagate(slot)
    }

    /// The field error for what a resolver or a scalar's serialization threw.
    func recordFieldError(_ thrown: any Error, field: PlannedField, path: [PathComponent]) {
        let message: String
        var extensions: JSONObject?
        switch thrown {
        case let convertible as GraphQLErrorConvertible:
            message = convertible.graphQLMessage
            extensions = convertible.graphQLExtensions
        case let coercion as CoercionError:
            message = coercion.message
        default:
            message = "Internal error."
            extensions = ["code": "INTERNAL"]
        }
        errors.append(error(message, field.ranges, path: path, extensions: extensions))
    }

    /// The error for a null in a non-null position.
    func nonNullError(field: PlannedField, parentType: GraphQLObjectType, path: [PathComponent]) -> GraphQLError {
        error(
            "Cannot return null for non-nullable field \(parentType.name).\(field.definition?.name ?? field.responseKey).",
            field.ranges, path: path)
    }

    /// The error for a list field whose resolver returned something that is not a list.
    func notIterableError(field: PlannedField, parentType: GraphQLObjectType, path: [PathComponent]) -> GraphQLError {
        error(
            "Expected Iterable, but did not find one for field \"\(parentType.name).\(field.definition?.name ?? "")\".",
            field.ranges, path: path)
    }

    /// The enum value name a resolved value stands for, or nil with the error recorded.
    func enumName(_ value: any Sendable, _ enumType: GraphQLEnumType, field: PlannedField, path: [PathComponent]) -> String? {
        let name: String? =
            switch value {
            case let s as String: s
            case let j as JSONValue: j.stringValue
            case let r as any RawRepresentable<String>: r.rawValue
            default: nil
            }
        guard let name, enumType.value(named: name) != nil else {
            errors.append(error("Enum \"\(enumType.name)\" cannot represent value: \(inspect(value))", field.ranges, path: path))
            return nil
        }
        return name
    }

    @inline(__always)
    func nullOrPropagate(_ slot: ParentSlot) {
        if slot.isNullable { set(.null, at: slot) } else { propagateNull(slot) }
    }

    /// Null in a non-null position: the null moves up to the nearest nullable slot (§6.4.4).
    func propagateNull(_ start: ParentSlot) {
        var slot = start
        while true {
            if slot.isNullable {
                set(.null, at: slot)
                return
            }
            switch slot.container {
            case .root:
                dataIsNull = true
                if rootNullError == nil { rootNullError = errors.last }
                return
            case .object(let object):
                guard let parent = object.parent else { return }
                slot = parent
            case .list(let list):
                list.isNulled = true
                guard let parent = list.parent else { return }
                slot = parent
            }
        }
    }

    /// Puts `value` in `slot`, counting what it will write (``ExecutionContext/treeBytes``: a
    /// leaf's JSON, a list's brackets and commas; an object's keys are counted where it is made).
    @inline(__always)
    func set(_ value: ResultValue, at slot: ParentSlot) {
        switch value {
        case .leaf(let json): treeBytes &+= json.leastJSONBytes
        case .list(let list): treeBytes &+= 1 &+ list.items.count
        case .object, .raw, .pending: break
        }
        switch slot.container {
        case .object(let object): object.values[slot.index] = value
        case .list(let list): list.items[slot.index] = value
        case .root: break
        }
    }
}

/// A parent value the default resolver can read fields from by name.
public protocol FieldReadable: Sendable {
    func value(forField name: String) -> (any Sendable)?
}

/// A value that knows its GraphQL object type (for interfaces and unions).
public protocol TypeNameProviding: Sendable {
    var graphQLTypeName: String { get }
}
