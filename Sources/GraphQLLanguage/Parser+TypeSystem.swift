extension Parser {
    /// `SchemaDefinition : Description? schema Directives[Const]? { RootOperationTypeDefinition+ }`
    mutating func parseSchemaDefinition() throws(GraphQLSyntaxError) -> SchemaDefinition {
        let start = lexer.token.start
        let description = try parseDescription()
        try expectKeyword("schema")
        let directives = try parseDirectives(const: true)
        try expect(.braceL)
        let operationTypes = try parseList(scratch.operationTypes, until: .braceR) { (p) throws(GraphQLSyntaxError) in
            try p.parseRootOperationTypeDefinition()
        }
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
    ///
    /// `keyword` is the type keyword ``Parser/definitionKeyword(_:)`` found after
    /// the optional description.
    mutating func parseTypeDefinition(_ keyword: TypeKeyword) throws(GraphQLSyntaxError) -> TypeDefinition {
        let start = lexer.token.start
        let description = try parseDescription()
        try lexer.advance()
        return try parseTypeBody(keyword: keyword, description: description, start: start, isExtension: false)
    }

    /// The part of a type definition or extension after its keyword; the node is
    /// built once, complete, with the `description` and `start` read before the keyword.
    ///
    /// An extension must add something (§3.4.3): `extend type Foo` alone is
    /// "Unexpected <next token>." as in graphql-js.
    mutating func parseTypeBody(
        keyword: TypeKeyword, description: StringValue?, start: Int, isExtension: Bool
    ) throws(GraphQLSyntaxError) -> TypeDefinition {
        let name = try parseName()
        switch keyword {
        case .scalar:
            let directives = try parseDirectives(const: true)
            if isExtension && directives.isEmpty { throw unexpected() }
            return .scalar(
                ScalarTypeDefinition(range: range(from: start), description: description, name: name, directives: directives))
        case .type, .interface:
            let interfaces = try parseImplementsInterfaces()
            let directives = try parseDirectives(const: true)
            let fields = try parseFieldsDefinition()
            if isExtension && interfaces.isEmpty && directives.isEmpty && fields.isEmpty { throw unexpected() }
            let nodeRange = range(from: start)
            if keyword == .type {
                return .object(
                    ObjectTypeDefinition(
                        range: nodeRange, description: description, name: name, interfaces: interfaces,
                        directives: directives, fields: fields))
            }
            return .interface(
                ObjectTypeDefinition(
                    range: nodeRange, description: description, name: name, interfaces: interfaces,
                    directives: directives, fields: fields))
        case .union:
            let directives = try parseDirectives(const: true)
            var types: [NamedType] = []
            if try expectOptional(.equals) {
                types = try parseDelimited(.pipe, on: scratch.namedTypes) { (p) throws(GraphQLSyntaxError) in try p.parseNamedType() }
            }
            if isExtension && directives.isEmpty && types.isEmpty { throw unexpected() }
            return .union(
                UnionTypeDefinition(
                    range: range(from: start), description: description, name: name, directives: directives, types: types))
        case .enum:
            let directives = try parseDirectives(const: true)
            var values: [EnumValueDefinition] = []
            if try expectOptional(.braceL) {
                values = try parseList(scratch.enumValueDefinitions, until: .braceR) { (p) throws(GraphQLSyntaxError) in
                    try p.parseEnumValueDefinition()
                }
            }
            if isExtension && directives.isEmpty && values.isEmpty { throw unexpected() }
            return .enumType(
                EnumTypeDefinition(
                    range: range(from: start), description: description, name: name, directives: directives, values: values))
        case .input:
            let directives = try parseDirectives(const: true)
            var fields: [InputValueDefinition] = []
            if try expectOptional(.braceL) {
                fields = try parseList(scratch.inputValueDefinitions, until: .braceR) { (p) throws(GraphQLSyntaxError) in
                    try p.parseInputValueDefinition()
                }
            }
            if isExtension && directives.isEmpty && fields.isEmpty { throw unexpected() }
            return .inputObject(
                InputObjectTypeDefinition(
                    range: range(from: start), description: description, name: name, directives: directives, fields: fields))
        }
    }

    /// `ImplementsInterfaces : implements &? NamedType (& NamedType)*`
    mutating func parseImplementsInterfaces() throws(GraphQLSyntaxError) -> [NamedType] {
        guard try expectOptionalKeyword("implements") else { return [] }
        return try parseDelimited(.amp, on: scratch.namedTypes) { (p) throws(GraphQLSyntaxError) in try p.parseNamedType() }
    }

    /// An optional leading delimiter, then items separated by it: `|? A | B`, `&? A & B`.
    mutating func parseDelimited<T>(
        _ delimiter: TokenKind, on stack: ScratchStack<T>, _ item: (inout Parser) throws(GraphQLSyntaxError) -> T
    ) throws(GraphQLSyntaxError) -> [T] {
        _ = try expectOptional(delimiter)
        let base = stack.count
        repeat {
            stack.push(try item(&self))
        } while try expectOptional(delimiter)
        return stack.pop(from: base)
    }

    /// `FieldsDefinition : { FieldDefinition+ }`
    mutating func parseFieldsDefinition() throws(GraphQLSyntaxError) -> [FieldDefinition] {
        guard try expectOptional(.braceL) else { return [] }
        return try parseList(scratch.fieldDefinitions, until: .braceR) { (p) throws(GraphQLSyntaxError) in
            let start = p.lexer.token.start
            let description = try p.parseDescription()
            let name = try p.parseName()
            let arguments = try p.parseArgumentsDefinition()
            try p.expect(.colon)
            let type = try p.parseTypeReference()
            let directives = try p.parseDirectives(const: true)
            return FieldDefinition(
                range: p.range(from: start), description: description, name: name, arguments: arguments, type: type,
                directives: directives)
        }
    }

    /// `ArgumentsDefinition : ( InputValueDefinition+ )`
    mutating func parseArgumentsDefinition() throws(GraphQLSyntaxError) -> [InputValueDefinition] {
        guard try expectOptional(.parenL) else { return [] }
        return try parseList(scratch.inputValueDefinitions, until: .parenR) { (p) throws(GraphQLSyntaxError) in
            try p.parseInputValueDefinition()
        }
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
            range: range(from: start), description: description, name: name, type: type, defaultValue: defaultValue,
            directives: directives)
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
        return EnumValueDefinition(range: range(from: start), description: description, name: name, directives: directives)
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
        let locations = try parseDelimited(.pipe, on: scratch.names) { (p) throws(GraphQLSyntaxError) -> Name in
            let token = p.lexer.token
            let name = try p.parseName()
            guard DirectiveLocation.isLocation(name.value) else { throw p.unexpected(token) }
            return name
        }
        return DirectiveDefinition(
            range: range(from: start), description: description, name: name, arguments: arguments,
            isRepeatable: isRepeatable, locations: locations)
    }

    /// `TypeSystemExtension : SchemaExtension | TypeExtension`
    mutating func parseTypeSystemExtension() throws(GraphQLSyntaxError) -> Definition {
        let start = lexer.token.start
        let keyword = try lexer.lookahead()
        guard keyword.kind == .name else { throw unexpected(keyword) }
        if isKeyword(keyword, "schema") {
            try lexer.advance()  // extend
            try lexer.advance()  // schema
            let directives = try parseDirectives(const: true)
            var operationTypes: [RootOperationTypeDefinition] = []
            if try expectOptional(.braceL) {
                operationTypes = try parseList(scratch.operationTypes, until: .braceR) { (p) throws(GraphQLSyntaxError) in
                    try p.parseRootOperationTypeDefinition()
                }
            }
            if directives.isEmpty && operationTypes.isEmpty { throw unexpected() }
            return .schemaExtension(
                SchemaExtension(directives: directives, operationTypes: operationTypes, range: range(from: start)))
        }
        guard let typeKeyword = typeKeyword(keyword) else { throw unexpected(keyword) }
        try lexer.advance()  // extend
        try lexer.advance()  // keyword
        return .typeExtension(
            TypeExtension(try parseTypeBody(keyword: typeKeyword, description: nil, start: start, isExtension: true)))
    }
}
