extension Parser {
    /// `SchemaDefinition : Description? schema Directives[Const]? { RootOperationTypeDefinition+ }`
    mutating func parseSchemaDefinition() throws(GraphQLSyntaxError) -> SchemaDefinition {
        let start = lexer.token.start
        let description = try parseDescription()
        try expectKeyword("schema")
        let directives = try parseDirectives(const: true)
        try expect(.braceL)
        var operationTypes: [RootOperationTypeDefinition] = []
        repeat {
            operationTypes.append(try parseRootOperationTypeDefinition())
        } while try !expectOptional(.braceR)
        return SchemaDefinition(
            description: description, directives: directives, operationTypes: operationTypes,
            range: range(from: start))
    }

    /// `RootOperationTypeDefinition : OperationType : NamedType`
    mutating func parseRootOperationTypeDefinition() throws(GraphQLSyntaxError) -> RootOperationTypeDefinition {
        let start = lexer.token.start
        let operation = try parseOperationType()
        try expect(.colon)
        let type = try parseNamedType()
        return RootOperationTypeDefinition(operation: operation, type: type, range: range(from: start))
    }

    /// `TypeDefinition : ScalarTypeDefinition | ObjectTypeDefinition | InterfaceTypeDefinition
    ///   | UnionTypeDefinition | EnumTypeDefinition | InputObjectTypeDefinition`
    mutating func parseTypeDefinition() throws(GraphQLSyntaxError) -> TypeDefinition {
        let start = lexer.token.start
        let description = try parseDescription()
        let keyword = lexer.token
        try lexer.advance()
        let definition = try parseTypeBody(keyword: keywordText(keyword), isExtension: false)
        return definition.with(description: description, start: start, end: lexer.lastEnd, noLocation: options.noLocation)
    }

    /// The part of a type definition or extension after its keyword.
    ///
    /// An extension must add something (§3.4.3): `extend type Foo` alone is
    /// "Unexpected <next token>." as in graphql-js.
    mutating func parseTypeBody(keyword: String, isExtension: Bool) throws(GraphQLSyntaxError) -> TypeDefinition {
        let name = try parseName()
        switch keyword {
        case "scalar":
            let directives = try parseDirectives(const: true)
            if isExtension && directives.isEmpty { throw unexpected() }
            return .scalar(ScalarTypeDefinition(name: name, directives: directives))
        case "type", "interface":
            let interfaces = try parseImplementsInterfaces()
            let directives = try parseDirectives(const: true)
            let fields = try parseFieldsDefinition()
            if isExtension && interfaces.isEmpty && directives.isEmpty && fields.isEmpty { throw unexpected() }
            let body = ObjectTypeDefinition(name: name, interfaces: interfaces, directives: directives, fields: fields)
            return keyword == "type" ? .object(body) : .interface(body)
        case "union":
            let directives = try parseDirectives(const: true)
            var types: [NamedType] = []
            if try expectOptional(.equals) {
                types = try parseDelimited(.pipe) { (p) throws(GraphQLSyntaxError) in try p.parseNamedType() }
            }
            if isExtension && directives.isEmpty && types.isEmpty { throw unexpected() }
            return .union(UnionTypeDefinition(name: name, directives: directives, types: types))
        case "enum":
            let directives = try parseDirectives(const: true)
            var values: [EnumValueDefinition] = []
            if try expectOptional(.braceL) {
                repeat {
                    values.append(try parseEnumValueDefinition())
                } while try !expectOptional(.braceR)
            }
            if isExtension && directives.isEmpty && values.isEmpty { throw unexpected() }
            return .enumType(EnumTypeDefinition(name: name, directives: directives, values: values))
        default:  // "input"
            let directives = try parseDirectives(const: true)
            var fields: [InputValueDefinition] = []
            if try expectOptional(.braceL) {
                repeat {
                    fields.append(try parseInputValueDefinition())
                } while try !expectOptional(.braceR)
            }
            if isExtension && directives.isEmpty && fields.isEmpty { throw unexpected() }
            return .inputObject(InputObjectTypeDefinition(name: name, directives: directives, fields: fields))
        }
    }

    /// `ImplementsInterfaces : implements &? NamedType (& NamedType)*`
    mutating func parseImplementsInterfaces() throws(GraphQLSyntaxError) -> [NamedType] {
        guard try expectOptionalKeyword("implements") else { return [] }
        return try parseDelimited(.amp) { (p) throws(GraphQLSyntaxError) in try p.parseNamedType() }
    }

    /// An optional leading delimiter, then items separated by it: `|? A | B`, `&? A & B`.
    mutating func parseDelimited<T>(
        _ delimiter: TokenKind, _ item: (inout Parser) throws(GraphQLSyntaxError) -> T
    ) throws(GraphQLSyntaxError) -> [T] {
        _ = try expectOptional(delimiter)
        var items: [T] = []
        repeat {
            items.append(try item(&self))
        } while try expectOptional(delimiter)
        return items
    }

    /// `FieldsDefinition : { FieldDefinition+ }`
    mutating func parseFieldsDefinition() throws(GraphQLSyntaxError) -> [FieldDefinition] {
        guard try expectOptional(.braceL) else { return [] }
        var fields: [FieldDefinition] = []
        repeat {
            let start = lexer.token.start
            let description = try parseDescription()
            let name = try parseName()
            let arguments = try parseArgumentsDefinition()
            try expect(.colon)
            let type = try parseTypeReference()
            let directives = try parseDirectives(const: true)
            fields.append(
                FieldDefinition(
                    description: description, name: name, arguments: arguments, type: type, directives: directives,
                    range: range(from: start)))
        } while try !expectOptional(.braceR)
        return fields
    }

    /// `ArgumentsDefinition : ( InputValueDefinition+ )`
    mutating func parseArgumentsDefinition() throws(GraphQLSyntaxError) -> [InputValueDefinition] {
        guard try expectOptional(.parenL) else { return [] }
        var arguments: [InputValueDefinition] = []
        repeat {
            arguments.append(try parseInputValueDefinition())
        } while try !expectOptional(.parenR)
        return arguments
    }

    /// `InputValueDefinition : Description? Name : Type DefaultValue? Directives[Const]?`
    mutating func parseInputValueDefinition() throws(GraphQLSyntaxError) -> InputValueDefinition {
        let start = lexer.token.start
        let description = try parseDescription()
        let name = try parseName()
        try expect(.colon)
        let type = try parseTypeReference()
        let defaultValue = try expectOptional(.equals) ? try parseValue(const: true) : nil
        let directives = try parseDirectives(const: true)
        return InputValueDefinition(
            description: description, name: name, type: type, defaultValue: defaultValue, directives: directives,
            range: range(from: start))
    }

    /// `EnumValueDefinition : Description? EnumValue Directives[Const]?`; `true`,
    /// `false` and `null` cannot be enum values.
    mutating func parseEnumValueDefinition() throws(GraphQLSyntaxError) -> EnumValueDefinition {
        let start = lexer.token.start
        let description = try parseDescription()
        if peekKeyword("true") || peekKeyword("false") || peekKeyword("null") {
            throw lexer.error(
                at: lexer.token.start, "\(describe(lexer.token)) is reserved and cannot be used for an enum value.")
        }
        let name = try parseName()
        let directives = try parseDirectives(const: true)
        return EnumValueDefinition(description: description, name: name, directives: directives, range: range(from: start))
    }

    /// `DirectiveDefinition : Description? directive @ Name ArgumentsDefinition? repeatable? on DirectiveLocations`
    mutating func parseDirectiveDefinition() throws(GraphQLSyntaxError) -> DirectiveDefinition {
        let start = lexer.token.start
        let description = try parseDescription()
        try expectKeyword("directive")
        try expect(.at)
        let name = try parseName()
        let arguments = try parseArgumentsDefinition()
        let isRepeatable = try expectOptionalKeyword("repeatable")
        try expectKeyword("on")
        let locations = try parseDelimited(.pipe) { (p) throws(GraphQLSyntaxError) -> Name in
            let token = p.lexer.token
            let name = try p.parseName()
            guard DirectiveLocation(rawValue: name.value) != nil else { throw p.unexpected(token) }
            return name
        }
        return DirectiveDefinition(
            description: description, name: name, arguments: arguments, isRepeatable: isRepeatable,
            locations: locations, range: range(from: start))
    }

    /// `TypeSystemExtension : SchemaExtension | TypeExtension`
    mutating func parseTypeSystemExtension() throws(GraphQLSyntaxError) -> Definition {
        let start = lexer.token.start
        let keyword = try lexer.lookahead()
        guard keyword.kind == .name else { throw unexpected(keyword) }
        let text = keywordText(keyword)
        switch text {
        case "schema":
            try lexer.advance()  // extend
            try lexer.advance()  // schema
            let directives = try parseDirectives(const: true)
            var operationTypes: [RootOperationTypeDefinition] = []
            if try expectOptional(.braceL) {
                repeat {
                    operationTypes.append(try parseRootOperationTypeDefinition())
                } while try !expectOptional(.braceR)
            }
            if directives.isEmpty && operationTypes.isEmpty { throw unexpected() }
            return .schemaExtension(
                SchemaExtension(directives: directives, operationTypes: operationTypes, range: range(from: start)))
        case "scalar", "type", "interface", "union", "enum", "input":
            try lexer.advance()  // extend
            try lexer.advance()  // keyword
            let body = try parseTypeBody(keyword: text, isExtension: true)
            return .typeExtension(
                TypeExtension(body.with(description: nil, start: start, end: lexer.lastEnd, noLocation: options.noLocation)))
        default:
            throw unexpected(keyword)
        }
    }
}

extension TypeDefinition {
    /// The same definition with its description and range set.
    func with(description: StringValue?, start: Int, end: Int, noLocation: Bool) -> TypeDefinition {
        let range = noLocation ? SourceRange.none : SourceRange(start: start, end: end)
        switch self {
        case .scalar(var t): t.description = description; t.range = range; return .scalar(t)
        case .object(var t): t.description = description; t.range = range; return .object(t)
        case .interface(var t): t.description = description; t.range = range; return .interface(t)
        case .union(var t): t.description = description; t.range = range; return .union(t)
        case .enumType(var t): t.description = description; t.range = range; return .enumType(t)
        case .inputObject(var t): t.description = description; t.range = range; return .inputObject(t)
        }
    }
}
