import Testing
@testable import GraphQLLanguage

@Suite("§2 Document syntax")
struct ParserTests {
    @Test("§2.3 an operation with variables, default values, variable directives and directives")
    func operation() throws {
        let document = try Document(parsing: "query Q($a: Int = 1 @v, $b: [String!]!) @d(x: 1) { f }")
        guard case .operation(let op) = document.definitions[0] else { Issue.record("no operation"); return }
        #expect(op.operation == .query)
        #expect(op.name?.value == "Q")
        #expect(op.variableDefinitions.map(\.variable.name.value) == ["a", "b"])
        #expect(op.variableDefinitions[0].defaultValue == .int(IntValue("1", range: op.variableDefinitions[0].defaultValue!.range)))
        #expect(op.variableDefinitions[0].directives.map(\.name.value) == ["v"])
        #expect(op.variableDefinitions[1].type.description == "[String!]!")
        #expect(op.directives.map(\.name.value) == ["d"])
    }

    @Test("§2.3.1 the query shorthand is an anonymous query")
    func shorthand() throws {
        let document = try Document(parsing: "{ a }")
        #expect(document.operations.first?.operation == .query)
        #expect(document.operations.first?.name == nil)
    }

    @Test("§2.5 fields with aliases, arguments, directives and nested selections")
    func fields() throws {
        let document = try Document(parsing: "{ me: viewer(id: 4) @include(if: true) { handle } }")
        guard case .field(let field) = document.operations[0].selectionSet.selections[0] else {
            Issue.record("no field"); return
        }
        #expect(field.alias?.value == "me")
        #expect(field.name.value == "viewer")
        #expect(field.responseKey == "me")
        #expect(field.arguments.map(\.name.value) == ["id"])
        #expect(field.selectionSet?.selections.count == 1)
    }

    @Test("§2.8 fragment spreads, inline fragments with and without type conditions")
    func fragments() throws {
        let document = try Document(parsing: "{ ...F @d ... on T { a } ... @skip(if: true) { b } } fragment F on T { c }")
        let selections = document.operations[0].selectionSet.selections
        guard case .fragmentSpread(let spread) = selections[0], case .inlineFragment(let typed) = selections[1],
            case .inlineFragment(let untyped) = selections[2]
        else { Issue.record("wrong selections"); return }
        #expect(spread.name.value == "F")
        #expect(typed.typeCondition?.name.value == "T")
        #expect(untyped.typeCondition == nil)
        #expect(document.fragments.first?.typeCondition.name.value == "T")
    }

    @Test("§2.9 every value kind, nested lists and objects, empty list and object")
    func values() throws {
        let value = try parseArgumentValue(#"[1, 2.5, "s", """b""", true, false, null, ENUM, $v, [], {}, {a: [{b: 1}]}]"#)
        guard case .list(let list) = value else { Issue.record("not a list"); return }
        #expect(list.values.count == 12)
        #expect(list.values[4] == .boolean(BooleanValue(true)))
        #expect(list.values[6] == .null(NullValue()))
        #expect(list.values[7] == .enumValue(EnumValue("ENUM")))
        #expect(list.values[8] == .variable(Variable(name: Name("v"))))
    }

    @Test("§2.10 a variable in a constant value is rejected")
    func variableInConst() {
        expectSyntaxError("query ($a: Int = $b) { f }", "Syntax Error: Unexpected variable \"$b\" in constant value.", 1, 18)
        expectSyntaxError("type T { f(a: Int = $b): Int }", "Syntax Error: Unexpected variable \"$b\" in constant value.", 1, 21)
    }

    @Test("§2 (September 2025) descriptions on operations, fragments and variable definitions")
    func executableDescriptions() throws {
        let text = "\"Loads a profile.\"\nquery Q(\"the id\" $id: ID) { f }\n\"\"\"card\"\"\" fragment F on T { a }"
        let document = try Document(parsing: text)
        #expect(document.operations[0].description?.value == "Loads a profile.")
        #expect(document.operations[0].variableDefinitions[0].description?.value == "the id")
        #expect(document.fragments[0].description?.value == "card")
    }

    @Test("descriptions are refused on shorthand queries and type extensions")
    func misplacedDescriptions() {
        expectSyntaxError("\"d\" { f }", "Syntax Error: Unexpected description, descriptions are not supported on shorthand queries.", 1, 1)
        expectSyntaxError("\"d\" extend type T @a", "Syntax Error: Unexpected description, descriptions are not supported on type extensions.", 1, 1)
    }

    @Test("§2.3 syntax errors say what was expected and point at what was found")
    func expectedTokens() {
        expectSyntaxError("{", "Syntax Error: Expected Name, found <EOF>.", 1, 2)
        expectSyntaxError("{ }", "Syntax Error: Expected Name, found \"}\".", 1, 3)
        expectSyntaxError("query Q(", "Syntax Error: Expected \"$\", found <EOF>.", 1, 9)
        expectSyntaxError("query Q($a) { f }", "Syntax Error: Expected \":\", found \")\".", 1, 11)
        expectSyntaxError("{ f(a) }", "Syntax Error: Expected \":\", found \")\".", 1, 6)
        expectSyntaxError("{ f(a: ) }", "Syntax Error: Unexpected \")\".", 1, 8)
        expectSyntaxError("{ f(a: 1 }", "Syntax Error: Expected Name, found \"}\".", 1, 10)
        expectSyntaxError("{ ...on }", "Syntax Error: Expected Name, found \"}\".", 1, 9)
        expectSyntaxError("query Q { f } }", "Syntax Error: Unexpected \"}\".", 1, 15)
        expectSyntaxError("{ f(a: [1 }", "Syntax Error: Unexpected \"}\".", 1, 11)
        expectSyntaxError("query ($a: [Int) { f }", "Syntax Error: Expected \"]\", found \")\".", 1, 16)
    }

    @Test("§2.2 an empty document and unknown definitions are rejected")
    func unknownDefinitions() {
        expectSyntaxError("", "Syntax Error: Unexpected <EOF>.", 1, 1)
        expectSyntaxError("   # only a comment\n", "Syntax Error: Unexpected <EOF>.", 2, 1)
        expectSyntaxError("notAnOperation { f }", "Syntax Error: Unexpected Name \"notAnOperation\".", 1, 1)
        expectSyntaxError("123", "Syntax Error: Unexpected Int \"123\".", 1, 1)
        expectSyntaxError("\"desc\" 1", "Syntax Error: Unexpected Int \"1\".", 1, 8)
    }

    @Test("§2.8 a fragment cannot be named `on`")
    func fragmentNamedOn() {
        expectSyntaxError("fragment on on T { f }", "Syntax Error: Unexpected Name \"on\".", 1, 10)
        expectSyntaxError("fragment F T { f }", "Syntax Error: Expected \"on\", found Name \"T\".", 1, 12)
    }

    @Test("error locations count Unicode characters, not bytes or UTF-16 units")
    func columnUnit() {
        // "é" is 2 UTF-8 bytes, "😀" is 4 bytes and 2 UTF-16 units; each is one column.
        expectSyntaxError("{ f(a: \"é😀\") ? }", "Syntax Error: Unexpected character: \"?\".", 1, 14)
        expectSyntaxError("{ f(a: \"é😀\")\r\n ? }", "Syntax Error: Unexpected character: \"?\".", 2, 2)
        expectSyntaxError("{\r\r ? }", "Syntax Error: Unexpected character: \"?\".", 3, 2)
    }

    @Test("every node records its source range")
    func ranges() throws {
        let text = "query Q { viewer { handle } }"
        let document = try Document(parsing: text)
        let op = document.operations[0]
        #expect(op.range == SourceRange(start: 0, end: text.utf8.count))
        guard case .field(let viewer) = op.selectionSet.selections[0] else { return }
        #expect(viewer.range == SourceRange(start: 10, end: 27))
        #expect(viewer.name.range == SourceRange(start: 10, end: 16))
    }

    @Test("an aliased field starts at its alias; a variable runs from $ to the end of its name")
    func aliasAndVariableRanges() throws {
        let text = "{ me: viewer(id: $ who) @d { handle } }"
        let document = try Document(parsing: text)
        guard case .field(let me) = document.operations[0].selectionSet.selections[0],
            case .variable(let who) = me.arguments[0].value
        else { Issue.record("no aliased field with a variable"); return }
        #expect(me.range == SourceRange(start: 2, end: 37))
        #expect(who.range == SourceRange(start: 17, end: 22))
        #expect(me.arguments[0].range == SourceRange(start: 13, end: 22))
        let bare = try Document(parsing: text, options: ParseOptions(noLocation: true))
        guard case .field(let field) = bare.operations[0].selectionSet.selections[0],
            case .variable(let variable) = field.arguments[0].value
        else { Issue.record("no field"); return }
        #expect(field.range == .none)
        #expect(variable.range == .none)
    }

    @Test("names stored by their start (field, alias, argument, object field, variable) read back their exact ranges")
    func packedNameRanges() throws {
        let text = "{ me: viewer(id: $who, where: {handle: \"a\"}) }"
        let document = try Document(parsing: text)
        guard case .field(let me) = document.operations[0].selectionSet.selections[0],
            case .variable(let who) = me.arguments[0].value,
            case .object(let filter) = me.arguments[1].value
        else { Issue.record("no aliased field with a variable and an object"); return }
        #expect(me.alias == Name("me", range: SourceRange(start: 2, end: 4)))
        #expect(me.name == Name("viewer", range: SourceRange(start: 6, end: 12)))
        #expect(me.arguments[0].name == Name("id", range: SourceRange(start: 13, end: 15)))
        #expect(who.name == Name("who", range: SourceRange(start: 18, end: 21)))
        #expect(me.arguments[1].name == Name("where", range: SourceRange(start: 23, end: 28)))
        #expect(filter.fields[0].name == Name("handle", range: SourceRange(start: 31, end: 37)))
        #expect(me.responseKey == "me")

        let bare = try Document(parsing: text, options: ParseOptions(noLocation: true))
        guard case .field(let field) = bare.operations[0].selectionSet.selections[0],
            case .variable(let variable) = field.arguments[0].value
        else { Issue.record("no field"); return }
        #expect(field.alias == Name("me"))
        #expect(field.name.range == .none)
        #expect(field.arguments[0].name.range == .none)
        #expect(variable.name.range == .none)
    }

    @Test("a hand-made field keeps its names; a name's end always follows from its length")
    func packedNamesOnHandMadeNodes() {
        var field = Field(name: Name("viewer"))
        #expect(field.alias == nil)
        #expect(field.responseKey == "viewer")
        #expect(field.name == Name("viewer"))
        field.alias = Name("me", range: SourceRange(start: 7, end: 9))
        #expect(field.alias == Name("me", range: SourceRange(start: 7, end: 9)))
        #expect(field.responseKey == "me")
        field.alias = nil
        #expect(field == Field(name: Name("viewer")))
        // Only the start is stored: an end that does not match the name's length is not kept.
        let argument = Argument(name: Name("id", range: SourceRange(start: 3, end: 40)), value: .null(NullValue()))
        #expect(argument.name.range == SourceRange(start: 3, end: 5))
        var object = ObjectField(name: Name("a"), value: .boolean(BooleanValue(true)))
        object.name = Name("bb", range: SourceRange(start: 0, end: 2))
        #expect(object.name == Name("bb", range: SourceRange(start: 0, end: 2)))
        #expect(Variable(name: Name("v")).name == Name("v"))
    }

    @Test("a field's selection set runs from its brace to the end of the field, parsed or hand-made")
    func fieldSelectionSetRanges() throws {
        let text = "{ viewer @d { handle } name }"
        let document = try Document(parsing: text)
        guard case .field(let viewer) = document.operations[0].selectionSet.selections[0],
            case .field(let name) = document.operations[0].selectionSet.selections[1]
        else { Issue.record("no fields"); return }
        #expect(viewer.selectionSet?.range == SourceRange(start: 12, end: 22))
        #expect(viewer.selectionSet?.selections.count == 1)
        #expect(name.selectionSet == nil)
        let bare = try Document(parsing: text, options: ParseOptions(noLocation: true))
        guard case .field(let bareViewer) = bare.operations[0].selectionSet.selections[0] else { return }
        #expect(bareViewer.selectionSet?.range == SourceRange.none)

        let leaf = Selection.field(Field(name: Name("handle")))
        var field = Field(name: Name("viewer"), selectionSet: SelectionSet(selections: [leaf]))
        #expect(field.selectionSet == SelectionSet(selections: [leaf]))
        field.selectionSet = SelectionSet(selections: [], range: .none)
        #expect(field.selectionSet == SelectionSet(selections: []))
        field.selectionSet = nil
        #expect(field.selectionSet == nil)
        #expect(field == Field(name: Name("viewer")))
        // Only the start is stored: the end is the field's.
        field = Field(name: Name("viewer"), range: SourceRange(start: 0, end: 30))
        field.selectionSet = SelectionSet(selections: [leaf], range: SourceRange(start: 7, end: 12))
        #expect(field.selectionSet?.range == SourceRange(start: 7, end: 30))
    }

    @Test("Value and TypeReference parse on their own")
    func standaloneParsers() throws {
        #expect(try TypeReference(parsing: "[Int!]!").description == "[Int!]!")
        #expect(try Value(parsing: "{a: 1}", const: true).range == SourceRange(start: 0, end: 6))
        #expect(throws: GraphQLSyntaxError.self) { try Value(parsing: "$a", const: true) }
        #expect(throws: GraphQLSyntaxError.self) { try Value(parsing: "1 2") }
    }
}
