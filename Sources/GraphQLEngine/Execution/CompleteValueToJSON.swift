import GraphQLLanguage

/// §6.3 ExecuteSelectionSet and §6.4.3 CompleteValue for a subtree that resolves
/// synchronously, written straight into the execution's JSON output.
///
/// The same steps as the result-tree path (`CompleteValue.swift`), in the same order,
/// so errors come out identically; what differs is where the value goes. Null
/// propagation (§6.4.4) works on the bytes: every function returns whether what it
/// wrote stands, and `false` means a null must replace it in the nearest nullable
/// position up the way. That position knows where its value started, truncates the
/// output back to there and writes `null`. Siblings of a failed field still run, as
/// on the tree path, so their errors are reported the same way; the items after a
/// list item that nulled its list do not (on either path, as in graphql-js).
///
/// The output is passed down as `inout` rather than read from `self`: a class's stored
/// property costs a dynamic exclusivity check on every write, a parameter none.
///
/// In a subtree tried inline (``SubtreeResolution/ifReady``), a ready-or-async field whose
/// value is not at hand sets ``ExecutionContext/inlineAttemptAbandoned``; every object and
/// list stops at once, and the caller that began the attempt takes it back. The same happens,
/// for good, when the response grows past its limit (``ExecutionContext/isOverLimit(_:)``,
/// checked after every field and before every list item).
extension ExecutionContext {
    /// Writes the object `{...}` of `collected` resolved on `parent`.
    /// - Returns: false when a non-null field inside is null, so this object is null too.
    func writeObject(
        _ collected: CollectedFields, of type: GraphQLObjectType, parent: any Sendable, path: inout [PathComponent],
        into out: inout JSONWriter
    ) -> Bool {
        out.writeByte(UInt8(ascii: "{"))
        var isComplete = true
        var first = true
        for field in collected.fields {
            out.writeJSONBytes(field.encodedKey(first: first))
            first = false
            path.append(.key(field.responseKey))
            if !writeField(field, of: type, parent: parent, path: &path, into: &out) { isComplete = false }
            path.removeLast()
            if inlineAttemptAbandoned || isOverLimit(out.count) { return false }
        }
        out.writeByte(UInt8(ascii: "}"))
        return isComplete
    }

    /// §6.4 ExecuteField: resolve (synchronously) and complete into `out`.
    /// - Returns: false when the field is null and may not be.
    func writeField(
        _ field: PlannedField, of type: GraphQLObjectType, parent: any Sendable, path: inout [PathComponent],
        into out: inout JSONWriter
    ) -> Bool {
        if let serialize = field.leafSerialize, let resolve = field.syncResolver {
            // A synchronous scalar field: resolve, serialize, write; the type walk below only for null.
            do {
                if let value = presentValue(try resolve(ResolveInfo(parent: parent, plan: field, execution: self))) {
                    let leaf = try serialize(value)
                    if !leaf.isNull {
                        out.write(leaf)
                        return true
                    }
                }
            } catch {
                recordFieldError(error, field: field, path: path)
                return writeNull(nullable: !field.isNonNull, into: &out)
            }
            guard field.isNonNull else {
                out.writeRaw("null")
                return true
            }
            errors.append(nonNullError(field: field, parentType: type, path: path))
            return false
        }
        if field.isTypename {
            out.writeString(type.name)
            return true
        }
        guard let definition = field.definition else {
            out.writeRaw("null")
            return true
        }
        if case .failure(var error) = field.arguments {
            error.path = path
            errors.append(error)
            return writeNull(nullable: !field.isNonNull, into: &out)
        }
        let value: (any Sendable)?
        switch field.resolver {
        case nil:
            value = defaultResolve(parent, definition.name)
        case .sync(let resolve):
            do {
                value = try resolve(ResolveInfo(parent: parent, plan: field, execution: self))
            } catch {
                recordFieldError(error, field: field, path: path)
                return writeNull(nullable: !field.isNonNull, into: &out)
            }
        case .readyOrAsync(let ready, _):
            // Only in a subtree tried inline: a value not at hand abandons the attempt.
            do {
                switch try ready(ResolveInfo(parent: parent, plan: field, execution: self)) {
                case .ready(let now):
                    value = now
                case .notReady:
                    inlineAttemptAbandoned = true
                    return false
                }
            } catch {
                recordFieldError(error, field: field, path: path)
                return writeNull(nullable: !field.isNonNull, into: &out)
            }
        case .async:
            // Unreachable: a subtree with an async resolver is completed on the tree path.
            preconditionFailure("async resolver in a synchronous subtree")
        }
        return writeValue(definition.type, value, field: field, parentType: type, path: &path, into: &out)
    }

    /// CompleteValue at one position (a field's value or a list item) of type `type`.
    /// - Returns: false when the value is null and `type` is non-null.
    func writeValue(
        _ type: GraphQLType, _ value: (any Sendable)?, field: PlannedField, parentType: GraphQLObjectType,
        path: inout [PathComponent],
        into out: inout JSONWriter
    ) -> Bool {
        let isNullable: Bool
        let inner: GraphQLType
        if case .nonNull(let t) = type {
            isNullable = false
            inner = t
        } else {
            isNullable = true
            inner = type
        }
        guard let value = presentValue(value) else {
            if isNullable {
                out.writeRaw("null")
                return true
            }
            errors.append(nonNullError(field: field, parentType: parentType, path: path))
            return false
        }
        let start = out.count
        if writeNonNull(inner, value, isNullable: isNullable, field: field, parentType: parentType, path: &path, into: &out) {
            return true
        }
        guard isNullable else { return false }
        out.truncate(to: start)
        out.writeRaw("null")
        return true
    }

    /// CompleteValue of a present value, `type` without its non-null wrapper.
    /// - Returns: false when the value cannot be completed (the error is recorded) and must be null.
    private func writeNonNull(
        _ type: GraphQLType, _ value: any Sendable, isNullable: Bool, field: PlannedField,
        parentType: GraphQLObjectType, path: inout [PathComponent],
        into out: inout JSONWriter
    ) -> Bool {
        switch type {
        case .nonNull:
            // `[T!]!` unwraps once per level; a doubly wrapped type does not occur in a valid schema.
            return writeValue(type, value, field: field, parentType: parentType, path: &path, into: &out)
        case .list(let itemType):
            let items: any ResolvedList
            if let list = value as? any ResolvedList {
                items = list
            } else if let json = value as? JSONValue, case .array(let array) = json {
                items = array
            } else {
                errors.append(notIterableError(field: field, parentType: parentType, path: path))
                return false
            }
            out.writeByte(UInt8(ascii: "["))
            var isComplete = true
            items.forEachResolved { i, item in
                // A null in a non-null item nulls the list: as in graphql-js, the items after it
                // are not completed (their bytes would be truncated anyway), so one error, not one per item.
                guard isComplete, !inlineAttemptAbandoned, !isOverLimit(out.count) else { return }
                if i > 0 { out.writeByte(UInt8(ascii: ",")) }
                path.append(.index(i))
                if !writeValue(itemType, item, field: field, parentType: parentType, path: &path, into: &out) { isComplete = false }
                path.removeLast()
            }
            out.writeByte(UInt8(ascii: "]"))
            return isComplete
        case .named(let named):
            switch named {
            case .scalar(let scalar):
                do {
                    let leaf = try scalar.coercion.serialize(value)
                    if leaf.isNull && !isNullable {
                        errors.append(nonNullError(field: field, parentType: parentType, path: path))
                        return false
                    }
                    out.write(leaf)
                    return true
                } catch {
                    recordFieldError(error, field: field, path: path)
                    return false
                }
            case .enumType(let enumType):
                guard let name = enumName(value, enumType, field: field, path: path) else { return false }
                out.writeString(name)
                return true
            case .object(let objectType):
                return writeObject(field.child.collected(for: objectType, in: self), of: objectType, parent: value, path: &path, into: &out)
            case .interface, .union:
                guard let objectType = resolveAbstractType(named, value, field: field, parentType: parentType, path: path) else {
                    return false
                }
                return writeObject(field.child.collected(for: objectType, in: self), of: objectType, parent: value, path: &path, into: &out)
            case .inputObject:
                out.writeRaw("null")
                return true
            }
        }
    }

    /// A null where the position may be null; otherwise nothing, and false to propagate.
    private func writeNull(nullable: Bool, into out: inout JSONWriter) -> Bool {
        if nullable { out.writeRaw("null") }
        return nullable
    }
}
