extension Parser {
    /// ```
    /// OperationDefinition :
    ///   - Description? OperationType Name? VariablesDefinition? Directives? SelectionSet
    ///   - SelectionSet
    /// ```
    mutating func parseOperationDefinition() throws(GraphQLSyntaxError) -> OperationDefinition {
        let start = lexer.token.start
        if peek(.braceL) {
            let selectionSet = try parseSelectionSet()
            return OperationDefinition(
                range: range(from: start), description: nil, operation: .query, name: nil, variableDefinitions: [],
                directives: [], selectionSet: selectionSet)
        }
        let description = try parseDescription()
        let operation = try parseOperationType()
        let name = peek(.name) ? try parseName() : nil
        let variables = try parseVariableDefinitions()
        let directives = try parseDirectives(const: false)
        let selectionSet = try parseSelectionSet()
        return OperationDefinition(
            range: range(from: start), description: description, operation: operation, name: name,
            variableDefinitions: variables, directives: directives, selectionSet: selectionSet)
    }

    /// `OperationType : one of query mutation subscription`
    mutating func parseOperationType() throws(GraphQLSyntaxError) -> OperationType {
        let operation: OperationType
        if peekKeyword("query") {
            operation = .query
        } else if peekKeyword("mutation") {
            operation = .mutation
        } else if peekKeyword("subscription") {
            operation = .subscription
        } else {
            // Same order as graphql-js: consume the name (a lexical error after it
            // wins), then reject it.
            let token = try expect(.name)
            throw unexpected(token)
        }
        try lexer.advance()
        return operation
    }

    /// `VariablesDefinition : ( VariableDefinition+ )`
    mutating func parseVariableDefinitions() throws(GraphQLSyntaxError) -> [VariableDefinition] {
        guard try expectOptional(.parenL) else { return [] }
        return try parseList(scratch.variableDefinitions, until: .parenR) { (p) throws(GraphQLSyntaxError) in
            try p.parseVariableDefinition()
        }
    }

    /// `VariableDefinition : Description? Variable : Type DefaultValue? Directives[Const]?`
    mutating func parseVariableDefinition() throws(GraphQLSyntaxError) -> VariableDefinition {
        let start = lexer.token.start
        let description = try parseDescription()
        let variable = try parseVariable()
        try expect(.colon)
        let type = try parseTypeReference()
        let defaultValue = try expectOptional(.equals) ? try parseValue(const: true) : nil
        let directives = try parseDirectives(const: true)
        return VariableDefinition(
            range: range(from: start), description: description, variable: variable, type: type,
            defaultValue: defaultValue, directives: directives)
    }

    /// `Variable : $ Name`
    mutating func parseVariable() throws(GraphQLSyntaxError) -> Variable {
        let start = lexer.token.start
        try expect(.dollar)
        let name = try parseName()
        return Variable(name: name, range: range(from: start))
    }

    /// `SelectionSet : { Selection+ }`
    mutating func parseSelectionSet() throws(GraphQLSyntaxError) -> SelectionSet {
        let start = lexer.token.start
        let selections = try parseSelections()
        return SelectionSet(range: range(from: start), selections: selections)
    }

    /// A selection set's selections, braces included in what it reads.
    @inline(__always)
    mutating func parseSelections() throws(GraphQLSyntaxError) -> [Selection] {
        try enterNesting()
        try expect(.braceL)
        let stack = scratch.selections
        let base = stack.count
        repeat {
            stack.push(try parseSelection())
        } while try !expectOptional(.braceR)
        let selections = stack.pop(from: base)
        depth -= 1
        return selections
    }

    /// `Selection : Field | FragmentSpread | InlineFragment`
    mutating func parseSelection() throws(GraphQLSyntaxError) -> Selection {
        peek(.spread) ? try parseFragment() : .field(try parseField())
    }

    /// `Field : Alias? Name Arguments? Directives? SelectionSet?`
    mutating func parseField() throws(GraphQLSyntaxError) -> Field {
        let nameOrAlias = try parsePackedName()
        let alias: (value: String, start: UInt32)?
        let name: (value: String, start: UInt32)
        if try expectOptional(.colon) {
            alias = nameOrAlias
            name = try parsePackedName()
        } else {
            alias = nil
            name = nameOrAlias
        }
        let arguments = try parseArguments(const: false)
        let directives = try parseDirectives(const: false)
        var selections: [Selection] = []
        var selectionSetStart = Field.noSelectionSet
        if peek(.braceL) {
            selectionSetStart = options.noLocation ? Field.selectionSetWithoutRange : UInt32(truncatingIfNeeded: lexer.token.start)
            selections = try parseSelections()
        }
        return Field(
            aliasValue: alias?.value, aliasStart: alias?.start ?? UInt32.max, nameStart: name.start, nameValue: name.value,
            arguments: arguments, directives: directives, selections: selections, selectionSetStart: selectionSetStart,
            storedEnd: options.noLocation ? 0 : UInt32(truncatingIfNeeded: lexer.lastEnd))
    }

    /// `Arguments[Const] : ( Argument[?Const]+ )`
    ///
    /// Most fields and directives have no arguments: the check is inlined into the
    /// caller and the list is built out of line, so that the absent case does not
    /// pay the large stack frame of building one.
    @inline(__always)
    mutating func parseArguments(const: Bool) throws(GraphQLSyntaxError) -> [Argument] {
        guard peek(.parenL) else { return [] }
        return try parseArgumentList(const: const)
    }

    /// The arguments, from the `(` on.
    @inline(never)
    mutating func parseArgumentList(const: Bool) throws(GraphQLSyntaxError) -> [Argument] {
        try lexer.advance()
        let stack = scratch.arguments
        let base = stack.count
        repeat {
            let name = try parsePackedName()
            try expect(.colon)
            let value = try parseValue(const: const)
            stack.push(Argument(value: value, nameStart: name.start, nameValue: name.value))
        } while try !expectOptional(.parenR)
        return stack.pop(from: base)
    }

    /// ```
    /// FragmentSpread : ... FragmentName Directives?
    /// InlineFragment : ... TypeCondition? Directives? SelectionSet
    /// ```
    mutating func parseFragment() throws(GraphQLSyntaxError) -> Selection {
        let start = lexer.token.start
        try expect(.spread)
        let hasTypeCondition = try expectOptionalKeyword("on")
        if !hasTypeCondition && peek(.name) {
            let name = try parseFragmentName()
            let directives = try parseDirectives(const: false)
            return .fragmentSpread(FragmentSpread(range: range(from: start), name: name, directives: directives))
        }
        let typeCondition = hasTypeCondition ? try parseNamedType() : nil
        let directives = try parseDirectives(const: false)
        let selectionSet = try parseSelectionSet()
        return .inlineFragment(
            InlineFragment(
                range: range(from: start), typeCondition: typeCondition, directives: directives,
                selectionSet: selectionSet))
    }

    /// `FragmentDefinition : Description? fragment FragmentName TypeCondition Directives? SelectionSet`
    mutating func parseFragmentDefinition() throws(GraphQLSyntaxError) -> FragmentDefinition {
        let start = lexer.token.start
        let description = try parseDescription()
        try expectKeyword("fragment")
        let name = try parseFragmentName()
        try expectKeyword("on")
        let typeCondition = try parseNamedType()
        let directives = try parseDirectives(const: false)
        let selectionSet = try parseSelectionSet()
        return FragmentDefinition(
            range: range(from: start), description: description, name: name, typeCondition: typeCondition,
            directives: directives, selectionSet: selectionSet)
    }

    /// `FragmentName : Name but not on`
    mutating func parseFragmentName() throws(GraphQLSyntaxError) -> Name {
        if peekKeyword("on") { throw unexpected() }
        return try parseName()
    }

    /// `Directives[Const] : Directive[?Const]+`, `Directive[Const] : @ Name Arguments[?Const]?`
    ///
    /// Inlined check, list built out of line (see ``parseArguments(const:)``).
    @inline(__always)
    mutating func parseDirectives(const: Bool) throws(GraphQLSyntaxError) -> [Directive] {
        guard peek(.at) else { return [] }
        return try parseDirectiveList(const: const)
    }

    /// The directives, from the first `@` on.
    @inline(never)
    mutating func parseDirectiveList(const: Bool) throws(GraphQLSyntaxError) -> [Directive] {
        let stack = scratch.directives
        let base = stack.count
        repeat {
            let start = lexer.token.start
            try lexer.advance()
            let name = try parseName()
            let arguments = try parseArguments(const: const)
            stack.push(Directive(range: range(from: start), name: name, arguments: arguments))
        } while peek(.at)
        return stack.pop(from: base)
    }
}
