import Foundation
import Testing

@testable import GraphQLLanguage

@Suite("SyntaxTree: the parser's records, read through views")
struct SyntaxTreeTests {
    @Test(
        "§2.2 a syntax tree's views show every node, name, value and range that the Document has",
        arguments: ["kitchen_sink.graphql", "schema_kitchen_sink.graphql"])
    func viewsMatchTheDocument(fixtureName: String) throws {
        let text = try fixture(fixtureName)
        let tree = try SyntaxTree(parsing: Source(text))
        let document = try Document(parsing: Source(text))
        let fromTree = tree.definitions.map(TreeOutline.definition).joined(separator: "\n")
        let fromDocument = document.definitions.map(DocumentOutline.definition).joined(separator: "\n")
        #expect(fromTree == fromDocument)
        #expect(fromTree.count > 1_000, "the outline covers the whole document")
        #expect(tree.range == document.range)
    }

    @Test(
        "a tree lowered to a Document equals the Document parsed from the same text, with and without locations",
        arguments: ["kitchen_sink.graphql", "schema_kitchen_sink.graphql"])
    func loweredTreeEqualsParsedDocument(fixtureName: String) throws {
        let source = Source(try fixture(fixtureName))
        let tree = try SyntaxTree(parsing: source)
        #expect(Document(tree) == (try Document(parsing: source)))
        #expect(Document(tree, noLocation: true) == (try Document(parsing: source, options: ParseOptions(noLocation: true))))
        #expect(Document(tree).printed == (try Document(parsing: source)).printed)
    }

    @Test("§2.9 each kind of value reads back with its text, cooked string (a one-line block string keeps its spaces), or items")
    func values() throws {
        let tree = try SyntaxTree(
            parsing: Source(#"{ f(a: $v, b: -12, c: 1.5e3, d: "x\u00E9", e: """  b  """, f: true, g: null, h: RED, i: [1, [2]], j: {k: false}) }"#))
        guard case .operation(let operation) = tree.definitions.first, case .field(let field) = operation.selectionSet.selections.first
        else {
            Issue.record("expected a query with a field")
            return
        }
        let kinds = field.arguments.map { argument -> String in
            switch argument.value.kind {
            case .variable(let name): "variable \(name.value)"
            case .int(let text): "int \(text)"
            case .float(let text): "float \(text)"
            case .string(let string): "string \(string.value) block \(string.isBlock)"
            case .boolean(let value): "boolean \(value)"
            case .null: "null"
            case .enumValue(let text): "enum \(text)"
            case .list(let items): "list of \(items.count)"
            case .object(let fields): "object \(fields.map { $0.name.value })"
            }
        }
        #expect(
            kinds == [
                "variable v", "int -12", "float 1.5e3", "string xé block false", "string   b   block true", "boolean true",
                "null", "enum RED", "list of 2", "object [\"k\"]",
            ])
        #expect(field.arguments.map(\.name.value) == ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j"])
    }

    @Test("§2 a malformed document gives the same syntax error as a Document parse", arguments: [
        "{ a(x: ) }", "query Q($v: Int = $w) { a }", "type T { f: }", "{ a { b }", "extend type T", "\"\"\"x\"\"\" { a }",
        "enum E { true }", "directive @d on NOWHERE", "fragment on on T { a }", "{ a(x: \"unterminated) }",
    ])
    func sameErrors(text: String) {
        let treeError = #expect(throws: GraphQLSyntaxError.self) { try SyntaxTree(parsing: Source(text)) }
        let documentError = #expect(throws: GraphQLSyntaxError.self) { try Document(parsing: Source(text)) }
        #expect(treeError != nil && treeError == documentError)
    }

    @Test("a view keeps its tree, and the tree its source, alive")
    func viewsKeepTheTreeAlive() throws {
        var field: FieldSyntax?
        do {
            let tree = try SyntaxTree(parsing: Source("{ viewer { handleOfTheViewerLongerThanFifteen } }"))
            if case .operation(let operation) = tree.definitions[0], case .field(let viewer) = operation.selectionSet.selections[0],
                case .field(let handle) = viewer.selectionSet?.selections[0]
            {
                field = handle
            }
        }
        #expect(field?.name.value == "handleOfTheViewerLongerThanFifteen")
        #expect(field?.range == SourceRange(start: 11, end: 45))
    }

    @Test("the token ceiling keeps a tree's 32-bit offsets in range: a token makes at most 64 bytes of records")
    func tokenCeilingBoundsTheRegion() throws {
        // The most a single token adds: a field (`{ a a a ... }`), its record and its selection's.
        #expect(MemoryLayout<FieldRecord>.stride + MemoryLayout<SelectionRecord>.stride <= 64)
        for stride in [
            MemoryLayout<ValueRecord>.stride, MemoryLayout<ArgumentRecord>.stride, MemoryLayout<DirectiveRecord>.stride,
            MemoryLayout<TypeReferenceRecord>.stride, MemoryLayout<VariableDefinitionRecord>.stride,
            MemoryLayout<InputValueRecord>.stride, MemoryLayout<EnumValueRecord>.stride,
        ] {
            #expect(stride <= 64)
        }
        #expect(ParseOptions.tokenCeiling * 64 < Int(UInt32.max))
        let error = #expect(throws: GraphQLSyntaxError.self) {
            try SyntaxTree(parsing: Source("{ a b c }"), options: ParseOptions(maxTokens: 3))
        }
        #expect(error?.message == "Syntax Error: Document contains more than 3 tokens. Parsing aborted.")
    }

    @Test("100,000 nested { [ and list types give a depth error from a tree parse too, not a stack overflow", arguments: [
        String(repeating: "{a", count: 100_000),
        "{ f(a: " + String(repeating: "[", count: 100_000) + ") }",
        "query ($a: " + String(repeating: "[", count: 100_000) + "Int) { f }",
    ])
    func depthLimit(text: String) {
        let error = #expect(throws: GraphQLSyntaxError.self) { try SyntaxTree(parsing: Source(text)) }
        #expect(error?.message == "Syntax Error: Document is nested more than 256 levels deep. Parsing aborted.")
    }

    @Test("a tree's nodes take about as many bytes as its source")
    func nodeBytes() throws {
        let text = try fixture("kitchen_sink.graphql")
        let tree = try SyntaxTree(parsing: Source(text))
        #expect(tree.nodeBytes > 0 && tree.nodeBytes < text.utf8.count * 3)
    }
}

/// An outline of every node, read through a tree's views.
private enum TreeOutline {
    static func range(_ r: SourceRange) -> String { "@\(r.start)-\(r.end)" }
    static func name(_ n: NameSyntax?) -> String { n.map { "\($0.value)\(range($0.range))" } ?? "-" }
    static func string(_ s: StringValueSyntax?) -> String { s.map { "\"\($0.value)\"\($0.isBlock)\(range($0.range))" } ?? "-" }
    static func list<C: Collection>(_ items: C, _ f: (C.Element) -> String) -> String { "[" + items.map(f).joined(separator: ",") + "]" }
    static func directives(_ d: SyntaxList<DirectiveSyntax>) -> String {
        list(d) { "@\(name($0.name))\(list($0.arguments, argument))\(range($0.range))" }
    }
    static func argument(_ a: ArgumentSyntax) -> String { "\(name(a.name)):\(value(a.value))\(range(a.range))" }
    static func value(_ v: ValueSyntax) -> String {
        let body: String
        switch v.kind {
        case .variable(let n): body = "$\(name(n))"
        case .int(let t): body = "int \(t)"
        case .float(let t): body = "float \(t)"
        case .string(let s): body = string(s)
        case .boolean(let b): body = "\(b)"
        case .null: body = "null"
        case .enumValue(let t): body = "enum \(t)"
        case .list(let items): body = list(items, value)
        case .object(let fields): body = list(fields) { "\(name($0.name)):\(value($0.value))\(range($0.range))" }
        }
        return body + range(v.range)
    }
    static func type(_ t: TypeReferenceSyntax) -> String {
        switch t.kind {
        case .named(let n): "\(name(n))\(range(t.range))"
        case .list(let inner): "[\(type(inner))]\(range(t.range))"
        case .nonNull(let inner): "\(type(inner))!\(range(t.range))"
        }
    }
    static func selections(_ s: SelectionSetSyntax?) -> String {
        guard let s else { return "-" }
        return list(s.selections) { selection in
            switch selection {
            case .field(let f):
                "F \(name(f.alias)) \(name(f.name)) \(list(f.arguments, argument)) \(directives(f.directives)) \(selections(f.selectionSet))\(range(f.range))"
            case .fragmentSpread(let f): "S \(name(f.name)) \(directives(f.directives))\(range(f.range))"
            case .inlineFragment(let f):
                "I \(name(f.typeCondition)) \(directives(f.directives)) \(selections(f.selectionSet))\(range(f.range))"
            }
        } + range(s.range)
    }
    static func inputValue(_ v: InputValueDefinitionSyntax) -> String {
        "\(string(v.description)) \(name(v.name)):\(type(v.type))=\(v.defaultValue.map(value) ?? "-") \(directives(v.directives))\(range(v.range))"
    }
    static func typeDefinition(_ t: TypeDefinitionSyntax) -> String {
        let members: String
        switch t.kind {
        case .scalar: members = "scalar"
        case .object(let fields), .interface(let fields):
            members = list(fields) {
                "\(string($0.description)) \(name($0.name))\(list($0.arguments, inputValue)):\(type($0.type)) \(directives($0.directives))\(range($0.range))"
            }
        case .union(let types): members = list(types, name)
        case .enumType(let values):
            members = list(values) { "\(string($0.description)) \(name($0.name)) \(directives($0.directives))\(range($0.range))" }
        case .inputObject(let fields): members = list(fields, inputValue)
        }
        return "\(string(t.description)) \(name(t.name)) \(list(t.interfaces, name)) \(directives(t.directives)) \(members)\(range(t.range))"
    }
    static func schema(_ s: SchemaDefinitionSyntax) -> String {
        "\(string(s.description)) \(directives(s.directives)) \(list(s.operationTypes) { "\($0.operation):\(name($0.type))\(range($0.range))" })\(range(s.range))"
    }
    static func definition(_ d: DefinitionSyntax) -> String {
        switch d {
        case .operation(let o):
            let variables = list(o.variableDefinitions) {
                "\(string($0.description)) $\(name($0.name))\(range($0.variableRange)):\(type($0.type))=\($0.defaultValue.map(value) ?? "-") \(directives($0.directives))\(range($0.range))"
            }
            return "op \(o.operation) \(string(o.description)) \(name(o.name)) \(variables) \(directives(o.directives)) \(selections(o.selectionSet))\(range(o.range))"
        case .fragment(let f):
            return "fragment \(string(f.description)) \(name(f.name)) on \(name(f.typeCondition)) \(directives(f.directives)) \(selections(f.selectionSet))\(range(f.range))"
        case .schema(let s): return "schema \(schema(s))"
        case .schemaExtension(let s): return "extend schema \(schema(s))"
        case .type(let t): return "type \(typeDefinition(t))"
        case .typeExtension(let t): return "extend type \(typeDefinition(t))"
        case .directive(let d):
            return "directive \(string(d.description)) \(name(d.name))\(list(d.arguments, inputValue)) \(d.isRepeatable) \(list(d.locations, name))\(range(d.range))"
        }
    }
}

/// The same outline, read from a ``Document``.
private enum DocumentOutline {
    static func range(_ r: SourceRange) -> String { "@\(r.start)-\(r.end)" }
    static func name(_ n: Name?) -> String { n.map { "\($0.value)\(range($0.range))" } ?? "-" }
    static func string(_ s: StringValue?) -> String { s.map { "\"\($0.value)\"\($0.isBlock)\(range($0.range))" } ?? "-" }
    static func list<C: Collection>(_ items: C, _ f: (C.Element) -> String) -> String { "[" + items.map(f).joined(separator: ",") + "]" }
    static func directives(_ d: [Directive]) -> String {
        list(d) { "@\(name($0.name))\(list($0.arguments, argument))\(range($0.range))" }
    }
    static func argument(_ a: Argument) -> String { "\(name(a.name)):\(value(a.value))\(range(a.range))" }
    static func value(_ v: Value) -> String {
        let body: String
        switch v {
        case .variable(let x): body = "$\(name(x.name))"
        case .int(let x): body = "int \(x.value)"
        case .float(let x): body = "float \(x.value)"
        case .string(let s): body = string(s)
        case .boolean(let b): body = "\(b.value)"
        case .null: body = "null"
        case .enumValue(let x): body = "enum \(x.value)"
        case .list(let items): body = list(items.values, value)
        case .object(let o): body = list(o.fields) { "\(name($0.name)):\(value($0.value))\(range($0.range))" }
        }
        return body + range(v.range)
    }
    static func type(_ t: TypeReference) -> String {
        switch t {
        case .named(let n): "\(name(n.name))\(range(n.range))"
        case .list(let l): "[\(type(l.type))]\(range(l.range))"
        case .nonNull(let n): "\(type(n.type))!\(range(n.range))"
        }
    }
    static func selections(_ s: SelectionSet?) -> String {
        guard let s else { return "-" }
        return list(s.selections) { selection in
            switch selection {
            case .field(let f):
                "F \(name(f.alias)) \(name(f.name)) \(list(f.arguments, argument)) \(directives(f.directives)) \(selections(f.selectionSet))\(range(f.range))"
            case .fragmentSpread(let f): "S \(name(f.name)) \(directives(f.directives))\(range(f.range))"
            case .inlineFragment(let f):
                "I \(name(f.typeCondition?.name)) \(directives(f.directives)) \(selections(f.selectionSet))\(range(f.range))"
            }
        } + range(s.range)
    }
    static func inputValue(_ v: InputValueDefinition) -> String {
        "\(string(v.description)) \(name(v.name)):\(type(v.type))=\(v.defaultValue.map(value) ?? "-") \(directives(v.directives))\(range(v.range))"
    }
    static func fields(_ fields: [FieldDefinition]) -> String {
        list(fields) {
            "\(string($0.description)) \(name($0.name))\(list($0.arguments, inputValue)):\(type($0.type)) \(directives($0.directives))\(range($0.range))"
        }
    }
    static func typeDefinition(_ t: TypeDefinition) -> String {
        var interfaces = "[]"
        let members: String
        let description: StringValue?
        switch t {
        case .scalar(let s):
            members = "scalar"
            description = s.description
        case .object(let o), .interface(let o):
            interfaces = list(o.interfaces) { name($0.name) }
            members = fields(o.fields)
            description = o.description
        case .union(let u):
            members = list(u.types) { name($0.name) }
            description = u.description
        case .enumType(let e):
            members = list(e.values) { "\(string($0.description)) \(name($0.name)) \(directives($0.directives))\(range($0.range))" }
            description = e.description
        case .inputObject(let i):
            members = list(i.fields, inputValue)
            description = i.description
        }
        return "\(string(description)) \(name(t.name)) \(interfaces) \(directives(t.directives)) \(members)\(range(t.range))"
    }
    static func schema(_ description: StringValue?, _ d: [Directive], _ types: [RootOperationTypeDefinition], _ r: SourceRange) -> String {
        "\(string(description)) \(directives(d)) \(list(types) { "\($0.operation):\(name($0.type.name))\(range($0.range))" })\(range(r))"
    }
    static func definition(_ d: Definition) -> String {
        switch d {
        case .operation(let o):
            let variables = list(o.variableDefinitions) {
                "\(string($0.description)) $\(name($0.variable.name))\(range($0.variable.range)):\(type($0.type))=\($0.defaultValue.map(value) ?? "-") \(directives($0.directives))\(range($0.range))"
            }
            return "op \(o.operation) \(string(o.description)) \(name(o.name)) \(variables) \(directives(o.directives)) \(selections(o.selectionSet))\(range(o.range))"
        case .fragment(let f):
            return "fragment \(string(f.description)) \(name(f.name)) on \(name(f.typeCondition.name)) \(directives(f.directives)) \(selections(f.selectionSet))\(range(f.range))"
        case .schema(let s): return "schema \(schema(s.description, s.directives, s.operationTypes, s.range))"
        case .schemaExtension(let s): return "extend schema \(schema(nil, s.directives, s.operationTypes, s.range))"
        case .type(let t): return "type \(typeDefinition(t))"
        case .typeExtension(let t): return "extend type \(typeDefinition(t.definition))"
        case .directive(let d):
            return "directive \(string(d.description)) \(name(d.name))\(list(d.arguments, inputValue)) \(d.isRepeatable) \(list(d.locations, name))\(range(d.range))"
        }
    }
}
