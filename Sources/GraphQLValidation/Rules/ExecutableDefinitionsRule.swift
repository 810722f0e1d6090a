import GraphQLLanguage

/// §5.1.1 Executable Definitions: "For each definition in the document: definition
/// must be ExecutableDefinition (it must not be TypeSystemDefinitionOrExtension)."
///
/// Why: execution only considers operations and fragments; a type extension in a
/// request would suggest a schema change the server never makes.
final class ExecutableDefinitionsRule: ValidationRule {
    override class var hooks: Hooks { .document }

    override func enterDocument(_ document: Document) {
        for definition in document.definitions where !definition.isExecutable {
            let name: String
            switch definition {
            case .schema, .schemaExtension: name = "schema"
            case .type(let t): name = "\"\(t.name.value)\""
            case .typeExtension(let t): name = "\"\(t.name.value)\""
            case .directive(let d): name = "\"\(d.name.value)\""
            case .operation, .fragment: continue
            }
            report("The \(name) definition is not executable.", definition.range)
        }
    }
}
