import GraphQLLanguage

/// §5.2.1.1 Operation Type Existence: "Let rootOperationType be the root operation
/// type in schema corresponding to the kind of operation. rootOperationType must exist."
///
/// Why: an operation whose kind the schema does not support cannot be executed.
/// (graphql-js 17's `KnownOperationTypesRule` and its message.)
final class KnownOperationTypesRule: ValidationRule {
    override class var hooks: Hooks { .operation }

    override func enterOperation(_ operation: OperationDefinition) {
        if schema.rootType(for: operation.operation) == nil {
            report("The \(operation.operation.rawValue) operation is not supported by the schema.", operation.range)
        }
    }
}
