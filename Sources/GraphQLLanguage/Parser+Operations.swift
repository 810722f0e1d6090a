extension Parser {
    /// ```
    /// OperationDefinition :
    ///   - Description? OperationType Name? VariablesDefinition? Directives? SelectionSet
    ///   - SelectionSet
    /// ```
    mutating func parseOperationDefinition() throws(GraphQLSyntaxError) -> NodeRef {
        let start = self.start
        if peek(.braceL) {
            let selectionSet = try parseSelectionSet()
            return region.append(
                OperationRecord(
                    start: start, end: end, operation: .query, description: .none, name: .none, variables: .empty,
                    directives: .empty, selectionSet: selectionSet))
        }
        let description = try parseDescription()
        let operation = try parseOperationType()
        let name = peek(.name) ? try parseName() : .none
        let variables = try parseVariableDefinitions()
        let directives = try parseDirectives(const: false)
        let selectionSet = try parseSelectionSet()
        return region.append(
            OperationRecord(
                start: start, end: end, operation: operation, description: description, name: name,
                variables: variables, directives: directives, selectionSet: selectionSet))
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
    mutating func parseVariableDefinitions() throws(GraphQLSyntaxError) -> ListRef {
        guard try expectOptional(.parenL) else { return .empty }
        let base = stacks.variableDefinitions.count
        repeat {
            let definition = try parseVariableDefinition()
            stacks.variableDefinitions.push(definition)
        } while try !expectOptional(.parenR)
        return stacks.variableDefinitions.pop(from: base, into: &region)
    }

    /// `VariableDefinition : Description? Variable : Type DefaultValue? Directives[Const]?`
    mutating func parseVariableDefinition() throws(GraphQLSyntaxError) -> VariableDefinitionRecord {
        let start = self.start
        let description = try parseDescription()
        let variableStart = self.start
        try expect(.dollar)
        let name = try parseName()
        try expect(.colon)
        let type = try parseTypeReference()
        let defaultValue = try expectOptional(.equals) ? region.append(try parseValue(const: true)) : .none
        let directives = try parseDirectives(const: true)
        return VariableDefinitionRecord(
            start: start, end: end, description: description, variableStart: variableStart, name: name, type: type,
            defaultValue: defaultValue, directives: directives)
    }

    /// `SelectionSet : { Selection+ }`
    mutating func parseSelectionSet() throws(GraphQLSyntaxError) -> SelectionSetRecord {
        let start = self.start
        try enterNesting()
        try expect(.braceL)
        let base = stacks.selections.count
        repeat {
            let selection = try parseSelection()
            stacks.selections.push(selection)
        } while try !expectOptional(.braceR)
        let selections = stacks.selections.pop(from: base, into: &region)
        depth -= 1
        return SelectionSetRecord(start: start, end: end, selections: selections)
    }

    /// `Selection : Field | FragmentSpread | InlineFragment`
    mutating func parseSelection() throws(GraphQLSyntaxError) -> SelectionRecord {
        peek(.spread) ? try parseFragment() : SelectionRecord(kind: .field, node: try parseField())
    }

    /// `Field : Alias? Name Arguments? Directives? SelectionSet?`
    mutating func parseField() throws(GraphQLSyntaxError) -> NodeRef {
        let nameOrAlias = try parseName()
        let alias: NameRef
        let name: NameRef
        if try expectOptional(.colon) {
            alias = nameOrAlias
            name = try parseName()
        } else {
            alias = .none
            name = nameOrAlias
        }
        let arguments = try parseArguments(const: false)
        let directives = try parseDirectives(const: false)
        let selectionSet = peek(.braceL) ? try parseSelectionSet() : .none
        return region.append(
            FieldRecord(
                alias: alias, name: name, arguments: arguments, directives: directives, selectionSet: selectionSet,
                end: end))
    }

    /// `Arguments[Const] : ( Argument[?Const]+ )`
    ///
    /// Most fields and directives have no arguments: the check is inlined into the
    /// caller and the list is built out of line, so that the absent case does not
    /// pay the large stack frame of building one.
    @inline(__always)
    mutating func parseArguments(const: Bool) throws(GraphQLSyntaxError) -> ListRef {
        guard peek(.parenL) else { return .empty }
        return try parseArgumentList(const: const)
    }

    /// The arguments, from the `(` on.
    @inline(never)
    mutating func parseArgumentList(const: Bool) throws(GraphQLSyntaxError) -> ListRef {
        try lexer.advance()
        let base = stacks.arguments.count
        repeat {
            let name = try parseName()
            try expect(.colon)
            let value = try parseValue(const: const)
            stacks.arguments.push(ArgumentRecord(name: name, value: value))
        } while try !expectOptional(.parenR)
        return stacks.arguments.pop(from: base, into: &region)
    }

    /// ```
    /// FragmentSpread : ... FragmentName Directives?
    /// InlineFragment : ... TypeCondition? Directives? SelectionSet
    /// ```
    mutating func parseFragment() throws(GraphQLSyntaxError) -> SelectionRecord {
        let start = self.start
        try expect(.spread)
        let hasTypeCondition = try expectOptionalKeyword("on")
        if !hasTypeCondition && peek(.name) {
            let name = try parseFragmentName()
            let directives = try parseDirectives(const: false)
            let spread = region.append(FragmentSpreadRecord(start: start, end: end, name: name, directives: directives))
            return SelectionRecord(kind: .fragmentSpread, node: spread)
        }
        let typeCondition = hasTypeCondition ? try parseName() : .none
        let directives = try parseDirectives(const: false)
        let selectionSet = try parseSelectionSet()
        let fragment = region.append(
            InlineFragmentRecord(
                start: start, end: end, typeCondition: typeCondition, directives: directives, selectionSet: selectionSet))
        return SelectionRecord(kind: .inlineFragment, node: fragment)
    }

    /// `FragmentDefinition : Description? fragment FragmentName TypeCondition Directives? SelectionSet`
    mutating func parseFragmentDefinition() throws(GraphQLSyntaxError) -> NodeRef {
        let start = self.start
        let description = try parseDescription()
        try expectKeyword("fragment")
        let name = try parseFragmentName()
        try expectKeyword("on")
        let typeCondition = try parseName()
        let directives = try parseDirectives(const: false)
        let selectionSet = try parseSelectionSet()
        return region.append(
            FragmentDefinitionRecord(
                start: start, end: end, description: description, name: name, typeCondition: typeCondition,
                directives: directives, selectionSet: selectionSet))
    }

    /// `FragmentName : Name but not on`
    mutating func parseFragmentName() throws(GraphQLSyntaxError) -> NameRef {
        if peekKeyword("on") { throw unexpected() }
        return try parseName()
    }

    /// `Directives[Const] : Directive[?Const]+`, `Directive[Const] : @ Name Arguments[?Const]?`
    ///
    /// Inlined check, list built out of line (see ``parseArguments(const:)``).
    @inline(__always)
    mutating func parseDirectives(const: Bool) throws(GraphQLSyntaxError) -> ListRef {
        guard peek(.at) else { return .empty }
        return try parseDirectiveList(const: const)
    }

    /// The directives, from the first `@` on.
    @inline(never)
    mutating func parseDirectiveList(const: Bool) throws(GraphQLSyntaxError) -> ListRef {
        let base = stacks.directives.count
        repeat {
            let start = self.start
            try lexer.advance()
            let name = try parseName()
            let arguments = try parseArguments(const: const)
            stacks.directives.push(DirectiveRecord(start: start, end: end, name: name, arguments: arguments))
        } while peek(.at)
        return stacks.directives.pop(from: base, into: &region)
    }
}
