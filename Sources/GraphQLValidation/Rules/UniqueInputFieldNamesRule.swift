import GraphQLLanguage

/// §5.6.3 Input Object Field Uniqueness: "For every inputField in inputObject: let
/// fields be all Input Object Fields named name in inputObject; fields must be the
/// set containing only inputField."
///
/// Why: a repeated field would silently drop one of its values.
final class UniqueInputFieldNamesRule: ValidationRule {
    override class var hooks: Hooks { [.value, .objectField] }

    /// The names seen in each object value being visited, innermost last.
    private var knownStack: [[String: Name]] = []

    override func enterValue(_ value: Value) {
        if case .object = value { knownStack.append([:]) }
    }

    override func leaveValue(_ value: Value) {
        if case .object = value { knownStack.removeLast() }
    }

    override func enterObjectField(_ field: ObjectField) {
        let name = field.name
        if let first = knownStack[knownStack.count - 1][name.value] {
            report("There can be only one input field named \"\(name.value)\".", first.range, name.range)
        } else {
            knownStack[knownStack.count - 1][name.value] = name
        }
    }
}
