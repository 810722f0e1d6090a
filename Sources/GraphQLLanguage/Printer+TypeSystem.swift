extension Printer {
    public static func print(_ node: SchemaDefinition) -> String {
        wrap("", node.description.map(print), "\n")
            + join(["schema", printDirectives(node.directives), block(node.operationTypes.map(print))], " ")
    }

    public static func print(_ node: SchemaExtension) -> String {
        join(["extend schema", printDirectives(node.directives), block(node.operationTypes.map(print))], " ")
    }

    public static func print(_ node: RootOperationTypeDefinition) -> String {
        node.operation.rawValue + ": " + node.type.name.value
    }

    public static func print(_ node: TypeDefinition) -> String {
        printType(node, prefix: "")
    }

    public static func print(_ node: TypeExtension) -> String {
        printType(node.definition, prefix: "extend ")
    }

    static func printType(_ node: TypeDefinition, prefix: String) -> String {
        switch node {
        case .scalar(let t):
            return wrap("", t.description.map(print), "\n")
                + join([prefix + "scalar", t.name.value, printDirectives(t.directives)], " ")
        case .object(let t), .interface(let t):
            let keyword = if case .object = node { "type" } else { "interface" }
            return wrap("", t.description.map(print), "\n")
                + join(
                    [prefix + keyword, t.name.value, wrap("implements ", join(t.interfaces.map(\.name.value), " & ")),
                     printDirectives(t.directives), block(t.fields.map(print))], " ")
        case .union(let t):
            return wrap("", t.description.map(print), "\n")
                + join(
                    [prefix + "union", t.name.value, printDirectives(t.directives),
                     wrap("= ", join(t.types.map(\.name.value), " | "))], " ")
        case .enumType(let t):
            return wrap("", t.description.map(print), "\n")
                + join([prefix + "enum", t.name.value, printDirectives(t.directives), block(t.values.map(print))], " ")
        case .inputObject(let t):
            return wrap("", t.description.map(print), "\n")
                + join([prefix + "input", t.name.value, printDirectives(t.directives), block(t.fields.map(print))], " ")
        }
    }

    public static func print(_ node: FieldDefinition) -> String {
        wrap("", node.description.map(print), "\n") + node.name.value + printArgumentDefinitions(node.arguments)
            + ": " + print(node.type) + wrap(" ", printDirectives(node.directives))
    }

    public static func print(_ node: InputValueDefinition) -> String {
        wrap("", node.description.map(print), "\n")
            + join(
                [node.name.value + ": " + print(node.type), wrap("= ", node.defaultValue.map(print)),
                 printDirectives(node.directives)], " ")
    }

    public static func print(_ node: EnumValueDefinition) -> String {
        wrap("", node.description.map(print), "\n") + join([node.name.value, printDirectives(node.directives)], " ")
    }

    public static func print(_ node: DirectiveDefinition) -> String {
        wrap("", node.description.map(print), "\n") + "directive @" + node.name.value
            + printArgumentDefinitions(node.arguments) + (node.isRepeatable ? " repeatable" : "") + " on "
            + join(node.locations.map(\.value), " | ")
    }

    /// `(a: Int, b: String)`, or one per line when any of them spans lines (has a description).
    static func printArgumentDefinitions(_ arguments: [InputValueDefinition]) -> String {
        let printed = arguments.map(print)
        return hasMultilineItems(printed)
            ? wrap("(\n", indent(join(printed, "\n")), "\n)") : wrap("(", join(printed, ", "), ")")
    }
}
