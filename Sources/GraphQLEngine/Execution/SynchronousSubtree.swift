/// Which parts of a selection resolve synchronously, worked out from the plan and
/// the bound resolvers before any value is resolved.
///
/// A subtree in which no field has an async resolver completes in one go, so the
/// executor writes it straight to JSON (`CompleteValueToJSON.swift`) instead of
/// building result nodes that only an async field needs (a slot to complete later).
/// Abstract fields count as synchronous only when the selection is for every
/// possible object type, because which one applies is known only per value.
extension CollectedFields {
    /// Whether these fields and everything they select resolve without an async resolver.
    func isSynchronous(in context: ExecutionContext) -> Bool {
        if let synchronous { return synchronous }
        var result = true
        for field in fields where !field.isSynchronous(in: context) {
            result = false
            break
        }
        synchronous = result
        return result
    }
}

extension PlannedField {
    /// Whether the field's resolver is synchronous (or the default read), and its sub-selection too.
    ///
    /// Terminates: each step goes one level down the document's selections, which are finite
    /// (fragment cycles are cut by CollectFields' visited set).
    func isSynchronous(in context: ExecutionContext) -> Bool {
        guard let definition else { return true }
        switch definition.resolver {
        case .async?, .readyOrAsync?: return false
        case .sync?, nil: break
        }
        let named = definition.type.namedType
        switch named {
        case .object(let object):
            return child.collected(for: object, in: context).isSynchronous(in: context)
        case .interface, .union:
            for object in context.schema.possibleTypes(of: named)
            where !child.collected(for: object, in: context).isSynchronous(in: context) {
                return false
            }
            return true
        case .scalar, .enumType, .inputObject:
            return true
        }
    }
}
