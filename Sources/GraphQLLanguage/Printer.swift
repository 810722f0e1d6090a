/// Prints an AST back to canonical GraphQL, in graphql-js's printer layout.
///
/// Canonical means: comments and insignificant whitespace gone, two-space
/// indentation, arguments on one line unless that line would pass 80 columns.
/// Printing is stable (`print(parse(print(x))) == print(x)`), which is why the
/// gateway uses the printed operation as its cache and persisted-query key.
///
/// ```swift
/// let canonical = try Document(parsing: "query{a(x:1)}").printed  // "{\n  a(x: 1)\n}"
/// ```
public enum Printer {
    static let maxLineLength = 80

    /// `Document`: definitions separated by a blank line.
    public static func print(_ document: Document) -> String {
        join(document.definitions.map(print), "\n\n")
    }

    public static func print(_ definition: Definition) -> String {
        switch definition {
        case .operation(let d): return print(d)
        case .fragment(let d): return print(d)
        case .schema(let d): return print(d)
        case .type(let d): return print(d)
        case .directive(let d): return print(d)
        case .schemaExtension(let d): return print(d)
        case .typeExtension(let d): return print(d)
        }
    }

    public static func print(_ node: OperationDefinition) -> String {
        let variables = node.variableDefinitions.map(print)
        let variableList =
            hasMultilineItems(variables)
            ? wrap("(\n", indent(join(variables, "\n")), "\n)") : wrap("(", join(variables, ", "), ")")
        let prefix =
            wrap("", node.description.map(print), "\n")
            + join([node.operation.rawValue, join([node.name?.value, variableList], ""), printDirectives(node.directives)], " ")
        return (prefix == "query" ? "" : prefix + " ") + print(node.selectionSet)
    }

    public static func print(_ node: VariableDefinition) -> String {
        wrap("", node.description.map(print), "\n") + "$" + node.variable.name.value + ": " + print(node.type)
            + wrap(" = ", node.defaultValue.map(print)) + wrap(" ", printDirectives(node.directives))
    }

    public static func print(_ node: SelectionSet) -> String {
        block(node.selections.map(print))
    }

    public static func print(_ selection: Selection) -> String {
        switch selection {
        case .field(let field):
            let prefix = wrap("", field.alias?.value, ": ") + field.name.value
            let arguments = field.arguments.map(print)
            var argumentsLine = prefix + wrap("(", join(arguments, ", "), ")")
            if argumentsLine.utf16.count > maxLineLength {
                argumentsLine = prefix + wrap("(\n", indent(join(arguments, "\n")), "\n)")
            }
            return join([argumentsLine, printDirectives(field.directives), field.selectionSet.map(print)], " ")
        case .fragmentSpread(let spread):
            return "..." + spread.name.value + wrap(" ", printDirectives(spread.directives))
        case .inlineFragment(let fragment):
            return join(
                ["...", wrap("on ", fragment.typeCondition?.name.value), printDirectives(fragment.directives),
                 print(fragment.selectionSet)], " ")
        }
    }

    public static func print(_ node: FragmentDefinition) -> String {
        wrap("", node.description.map(print), "\n") + "fragment " + node.name.value + " on "
            + node.typeCondition.name.value + " " + wrap("", printDirectives(node.directives), " ")
            + print(node.selectionSet)
    }

    public static func print(_ node: Argument) -> String {
        node.name.value + ": " + print(node.value)
    }

    public static func print(_ node: Directive) -> String {
        "@" + node.name.value + wrap("(", join(node.arguments.map(print), ", "), ")")
    }

    static func printDirectives(_ directives: [Directive]) -> String {
        join(directives.map(print), " ")
    }

    public static func print(_ value: Value) -> String {
        switch value {
        case .variable(let v): return "$" + v.name.value
        case .int(let v): return v.value
        case .float(let v): return v.value
        case .string(let v): return print(v)
        case .boolean(let v): return v.value ? "true" : "false"
        case .null: return "null"
        case .enumValue(let v): return v.value
        case .list(let v): return "[" + join(v.values.map(print), ", ") + "]"
        case .object(let v): return "{" + join(v.fields.map { $0.name.value + ": " + print($0.value) }, ", ") + "}"
        }
    }

    public static func print(_ node: StringValue) -> String {
        node.isBlock ? BlockString.print(node.value) : printString(node.value)
    }

    public static func print(_ type: TypeReference) -> String { type.description }

    /// A quoted string literal with the escapes graphql-js uses (`\n`, `\"`, `\u001F`...).
    public static func printString(_ value: String) -> String {
        var result = "\""
        result.reserveCapacity(value.utf8.count + 2)
        for scalar in value.unicodeScalars {
            switch scalar.value {
            case 0x08: result += "\\b"
            case 0x09: result += "\\t"
            case 0x0A: result += "\\n"
            case 0x0C: result += "\\f"
            case 0x0D: result += "\\r"
            case 0x22: result += "\\\""
            case 0x5C: result += "\\\\"
            case 0x00..<0x20, 0x7F...0x9F:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }

    // MARK: - Layout helpers (graphql-js's join, wrap, block, indent)

    static func join(_ parts: [String?], _ separator: String) -> String {
        var result = ""
        var first = true
        for case let part? in parts where !part.isEmpty {
            if !first { result += separator }
            result += part
            first = false
        }
        return result
    }

    static func wrap(_ start: String, _ text: String?, _ end: String = "") -> String {
        guard let text, !text.isEmpty else { return "" }
        return start + text + end
    }

    static func indent(_ text: String) -> String {
        wrap("  ", text.replacing("\n", with: "\n  "))
    }

    static func block(_ items: [String]) -> String {
        wrap("{\n", indent(join(items, "\n")), "\n}")
    }

    static func hasMultilineItems(_ items: [String]) -> Bool {
        items.contains { $0.contains("\n") }
    }
}

extension Document {
    /// The document printed canonically; see ``Printer``.
    public var printed: String { Printer.print(self) }
}
