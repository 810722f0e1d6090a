extension Parser {
    /// ```
    /// Value[Const] : [~Const] Variable | IntValue | FloatValue | StringValue
    ///   | BooleanValue | NullValue | EnumValue | ListValue[?Const] | ObjectValue[?Const]
    /// ```
    mutating func parseValue(const: Bool) throws(GraphQLSyntaxError) -> Value {
        let token = lexer.token
        switch token.kind {
        case .bracketL:
            try enterNesting()
            try lexer.advance()
            let stack = scratch.values
            let base = stack.count
            while try !expectOptional(.bracketR) {
                stack.push(try parseValue(const: const))
            }
            let values = stack.pop(from: base)
            depth -= 1
            return .list(ListValue(values, range: range(from: token.start)))
        case .braceL:
            try enterNesting()
            try lexer.advance()
            let stack = scratch.objectFields
            let base = stack.count
            while try !expectOptional(.braceR) {
                let name = try parsePackedName()
                try expect(.colon)
                let value = try parseValue(const: const)
                stack.push(ObjectField(value: value, nameStart: name.start, nameValue: name.value))
            }
            let fields = stack.pop(from: base)
            depth -= 1
            return .object(ObjectValue(fields, range: range(from: token.start)))
        case .int:
            try lexer.advance()
            return .int(IntValue(lexer.ascii(token), range: range(from: token.start)))
        case .float:
            try lexer.advance()
            return .float(FloatValue(lexer.ascii(token), range: range(from: token.start)))
        case .string, .blockString:
            return .string(try parseStringLiteral())
        case .name:
            // Only a name of four or five letters can be `true`, `false` or `null`.
            let length = token.end - token.start
            let isTrue = length == 4 && peekKeyword("true")
            let isFalse = length == 5 && peekKeyword("false")
            let isNull = length == 4 && !isTrue && peekKeyword("null")
            try lexer.advance()
            let r = range(from: token.start)
            if isTrue { return .boolean(BooleanValue(true, range: r)) }
            if isFalse { return .boolean(BooleanValue(false, range: r)) }
            if isNull { return .null(NullValue(range: r)) }
            return .enumValue(EnumValue(lexer.ascii(token), range: r))
        case .dollar:
            if const {
                try lexer.advance()
                if peek(.name) {
                    let name = lexer.text(lexer.token.start, lexer.token.end)
                    throw lexer.error(at: token.start, "Unexpected variable \"$\(name)\" in constant value.")
                }
                throw unexpected(token)
            }
            return .variable(try parseVariable())
        default:
            throw unexpected()
        }
    }

    /// A StringValue token as an AST node.
    mutating func parseStringLiteral() throws(GraphQLSyntaxError) -> StringValue {
        let token = lexer.token
        let value = lexer.stringValue
        try lexer.advance()
        return StringValue(value, isBlock: token.kind == .blockString, range: range(from: token.start))
    }

    /// `Description : StringValue`, when present.
    mutating func parseDescription() throws(GraphQLSyntaxError) -> StringValue? {
        peekDescription() ? try parseStringLiteral() : nil
    }

    /// `Type : NamedType | ListType | NonNullType`
    mutating func parseTypeReference() throws(GraphQLSyntaxError) -> TypeReference {
        let start = lexer.token.start
        var type: TypeReference
        if peek(.bracketL) {
            try enterNesting()
            try lexer.advance()
            let inner = try parseTypeReference()
            try expect(.bracketR)
            depth -= 1
            type = .list(ListType(type: inner, range: range(from: start)))
        } else {
            type = .named(try parseNamedType())
        }
        if try expectOptional(.bang) {
            type = .nonNull(NonNullType(type: type, range: range(from: start)))
        }
        return type
    }

    /// `NamedType : Name`
    mutating func parseNamedType() throws(GraphQLSyntaxError) -> NamedType {
        let start = lexer.token.start
        let name = try parseName()
        return NamedType(name: name, range: range(from: start))
    }
}
