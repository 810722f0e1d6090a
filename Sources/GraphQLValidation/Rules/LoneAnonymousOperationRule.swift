import GraphQLLanguage

/// §5.2.3.1 Lone Anonymous Operation: "If operations is a set of more than 1:
/// anonymous must be empty."
///
/// Why: an anonymous operation cannot be chosen by name, so it must be alone.
final class LoneAnonymousOperationRule: ValidationRule {
    override class var hooks: Hooks { [.document, .operation] }

    private var operationCount = 0

    override func enterDocument(_ document: Document) {
        operationCount = document.definitions.reduce(0) { count, definition in
            if case .operation = definition { count + 1 } else { count }
        }
    }

    override func enterOperation(_ operation: OperationDefinition) {
        if operation.name == nil && operationCount > 1 {
            report("This anonymous operation must be the only defined operation.", operation.range)
        }
    }
}
