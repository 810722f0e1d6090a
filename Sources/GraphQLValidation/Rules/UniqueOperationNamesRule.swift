import GraphQLLanguage

/// §5.2.2.1 Operation Name Uniqueness: "Let operations be all operation definitions in
/// the document named operationName. operations must be a set of one."
///
/// Why: a request picks its operation by name; two with one name are ambiguous.
final class UniqueOperationNamesRule: ValidationRule {
    override class var hooks: Hooks { .operation }

    private var known: [String: Name] = [:]

    override func enterOperation(_ operation: OperationDefinition) {
        guard let name = operation.name else { return }
        if let first = known[name.value] {
            report("There can be only one operation named \"\(name.value)\".", first.range, name.range)
        } else {
            known[name.value] = name
        }
    }
}
