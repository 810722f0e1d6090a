extension Parser {
    /// `SchemaDefinition : Description? schema Directives[Const]? { RootOperationTypeDefinition+ }`
    mutating func parseSchemaDefinition() throws(GraphQLSyntaxError) -> NodeRef {
        let start = self.start
        let description = try parseDescription()
        try expectKeyword("schema")
        let directives = try parseDirectives(const: true)
        try expect(.braceL)
        let operationTypes = try parseRootOperationTypes()
        return region.append(
            SchemaRecord(
                start: start, end: end, description: description, directives: directives, operationTypes: operationTypes))
    }

    /// `RootOperationTypeDefinition+ }`, after the `{`.
    mutating func parseRootOperationTypes() throws(GraphQLSyntaxError) -> ListRef {
        let base = stacks.operationTypes.count
        repeat {
            let start = self.start
            let operation = try parseOperationType()
            try expect(.colon)
            let type = try parseName()
            stacks.operationTypes.push(OperationTypeRecord(start: start, end: end, operation: operation, type: type))
        } while try !expectOptional(.braceR)
        return stacks.operationTypes.pop(from: base, into: &region)
    }

    /// `TypeDefinition : ScalarTypeDefinition | ObjectTypeDefinition | InterfaceTypeDefinition
    ///   | UnionTypeDefinition | EnumTypeDefinition | InputObjectTypeDefinition`
    ///
    /// `keyword` is the type keyword ``Parser/definitionKeyword(_:)`` found after
    /// the optional description.
    mutating func parseTypeDefinition(_ keyword: TypeKeyword) throws(GraphQLSyntaxError) -> NodeRef {
        let start = self.start
        let description = try parseDescription()
        try lexer.advance()
        return try parseTypeBody(keyword: keyword, description: description, start: start, isExtension: false)
    }

    /// The part of a type definition or extension after its keyword; the record is
    /// written once, complete, with the `description` and `start` read before the keyword.
    ///
    /// An extension must add something (§3.4.3): `extend type Foo` alone is
    /// "Unexpected <next token>." as in graphql-js.
    mutating func parseTypeBody(
        keyword: TypeKeyword, description: NodeRef, start: UInt32, isExtension: Bool
    ) throws(GraphQLSyntaxError) -> NodeRef {
        let name = try parseName()
        var interfaces = ListRef.empty
        let directives: ListRef
        var members = ListRef.empty
        switch keyword {
        case .scalar:
            directives = try parseDirectives(const: true)
            if isExtension && directives.count == 0 { throw unexpected() }
        case .type, .interface:
            interfaces = try parseImplementsInterfaces()
            directives = try parseDirectives(const: true)
            members = try parseFieldsDefinition()
            if isExtension && interfaces.count == 0 && directives.count == 0 && members.count == 0 { throw unexpected() }
        case .union:
            directives = try parseDirectives(const: true)
            if try expectOptional(.equals) {
                members = try parseDelimitedNames(.pipe)
            }
            if isExtension && directives.count == 0 && members.count == 0 { throw unexpected() }
        case .enum:
            directives = try parseDirectives(const: true)
            if try expectOptional(.braceL) {
                let base = stacks.enumValues.count
                repeat {
                    let value = try parseEnumValueDefinition()
                    stacks.enumValues.push(value)
                } while try !expectOptional(.braceR)
                members = stacks.enumValues.pop(from: base, into: &region)
            }
            if isExtension && directives.count == 0 && members.count == 0 { throw unexpected() }
        case .input:
            directives = try parseDirectives(const: true)
            if try expectOptional(.braceL) {
                members = try parseInputValueDefinitions(until: .braceR)
            }
            if isExtension && directives.count == 0 && members.count == 0 { throw unexpected() }
        }
        return region.append(
            TypeDefinitionRecord(
                keyword: keyword, start: start, end: end, description: description, name: name,
                interfaces: interfaces, directives: directives, members: members))
    }

    /// `ImplementsInterfaces : implements &? NamedType (& NamedType)*`
    mutating func parseImplementsInterfaces() throws(GraphQLSyntaxError) -> ListRef {
        guard try expectOptionalKeyword("implements") else { return .empty }
        return try parseDelimitedNames(.amp)
    }

    /// An optional leading delimiter, then names separated by it: `|? A | B`, `&? A & B`.
    mutating func parseDelimitedNames(_ delimiter: TokenKind) throws(GraphQLSyntaxError) -> ListRef {
        _ = try expectOptional(delimiter)
        let base = stacks.names.count
        repeat {
            let name = try parseName()
            stacks.names.push(name)
        } while try expectOptional(delimiter)
        return stacks.names.pop(from: base, into: &region)
    }

    /// `FieldsDefinition : { FieldDefinition+ }`
    mutating func parseFieldsDefinition() throws(GraphQLSyntaxError) -> ListRef {
        guard try expectOptional(.braceL) else { return .empty }
        let base = stacks.fieldDefinitions.count
        repeat {
            let start = self.start
            let description = try parseDescription()
            let name = try parseName()
            let arguments = try parseArgumentsDefinition()
            try expect(.colon)
            let type = try parseTypeReference()
            let directives = try parseDirectives(const: true)
            stacks.fieldDefinitions.push(
                FieldDefinitionRecord(
                    start: start, end: end, description: description, name: name, arguments: arguments, type: type,
                    directives: directives))
        } while try !expectOptional(.braceR)
        return stacks.fieldDefinitions.pop(from: base, into: &region)
    }

    /// `ArgumentsDefinition : ( InputValueDefinition+ )`
    mutating func parseArgumentsDefinition() throws(GraphQLSyntaxError) -> ListRef {
        guard try expectOptional(.parenL) else { return .empty }
        return try parseInputValueDefinitions(until: .parenR)
    }

    /// `InputValueDefinition+` up to and including `close`.
    mutating func parseInputValueDefinitions(until close: TokenKind) throws(GraphQLSyntaxError) -> ListRef {
        let base = stacks.inputValues.count
        repeat {
            let value = try parseInputValueDefinition()
            stacks.inputValues.push(value)
        } while try !expectOptional(close)
        return stacks.inputValues.pop(from: base, into: &region)
    }

    /// `InputValueDefinition : Description? Name : Type DefaultValue? Directives[Const]?`
    mutating func parseInputValueDefinition() throws(GraphQLSyntaxError) -> InputValueRecord {
        let start = self.start
        let description = try parseDescription()
        let name = try parseName()
        try expect(.colon)
        let type = try parseTypeReference()
        let defaultValue = try expectOptional(.equals) ? region.append(try parseValue(const: true)) : .none
        let directives = try parseDirectives(const: true)
        return InputValueRecord(
            start: start, end: end, description: description, name: name, type: type, defaultValue: defaultValue,
            directives: directives)
    }

    /// `EnumValueDefinition : Description? EnumValue Directives[Const]?`; `true`,
    /// `false` and `null` cannot be enum values.
    mutating func parseEnumValueDefinition() throws(GraphQLSyntaxError) -> EnumValueRecord {
        let start = self.start
        let description = try parseDescription()
        if peekKeyword("true") || peekKeyword("false") || peekKeyword("null") {
            throw lexer.error(
                at: lexer.token.start, "\(describe(lexer.token)) is reserved and cannot be used for an enum value.")
        }
        let name = try parseName()
        let directives = try parseDirectives(const: true)
        return EnumValueRecord(start: start, end: end, description: description, name: name, directives: directives)
    }

    /// `DirectiveDefinition : Description? directive @ Name ArgumentsDefinition? repeatable? on DirectiveLocations`
    mutating func parseDirectiveDefinition() throws(GraphQLSyntaxError) -> NodeRef {
        let start = self.start
        let description = try parseDescription()
        try expectKeyword("directive")
        try expect(.at)
        let name = try parseName()
        let arguments = try parseArgumentsDefinition()
        let isRepeatable = try expectOptionalKeyword("repeatable")
        try expectKeyword("on")
        _ = try expectOptional(.pipe)
        let base = stacks.names.count
        repeat {
            let token = lexer.token
            let location = try parseName()
            guard DirectiveLocation.isLocation(lexer.ascii(token)) else { throw unexpected(token) }
            stacks.names.push(location)
        } while try expectOptional(.pipe)
        let locations = stacks.names.pop(from: base, into: &region)
        return region.append(
            DirectiveDefinitionRecord(
                start: start, end: end, description: description, name: name, arguments: arguments,
                isRepeatable: isRepeatable, locations: locations))
    }

    /// `TypeSystemExtension : SchemaExtension | TypeExtension`
    mutating func parseTypeSystemExtension() throws(GraphQLSyntaxError) -> DefinitionRecord {
        let start = self.start
        let keyword = try lexer.lookahead()
        guard keyword.kind == .name else { throw unexpected(keyword) }
        if isKeyword(keyword, "schema") {
            try lexer.advance()  // extend
            try lexer.advance()  // schema
            let directives = try parseDirectives(const: true)
            var operationTypes = ListRef.empty
            if try expectOptional(.braceL) {
                operationTypes = try parseRootOperationTypes()
            }
            if directives.count == 0 && operationTypes.count == 0 { throw unexpected() }
            let schema = region.append(
                SchemaRecord(
                    start: start, end: end, description: .none, directives: directives, operationTypes: operationTypes))
            return DefinitionRecord(kind: .schemaExtension, node: schema)
        }
        guard let typeKeyword = typeKeyword(keyword) else { throw unexpected(keyword) }
        try lexer.advance()  // extend
        try lexer.advance()  // keyword
        let type = try parseTypeBody(keyword: typeKeyword, description: .none, start: start, isExtension: true)
        return DefinitionRecord(kind: .typeExtension, node: type)
    }
}
