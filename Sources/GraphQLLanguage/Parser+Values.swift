extension Parser {
    /// ```
    /// Value[Const] : [~Const] Variable | IntValue | FloatValue | StringValue
    ///   | BooleanValue | NullValue | EnumValue | ListValue[?Const] | ObjectValue[?Const]
    /// ```
    mutating func parseValue(const: Bool) throws(GraphQLSyntaxError) -> ValueRecord {
        let token = lexer.token
        let start = UInt32(truncatingIfNeeded: token.start)
        switch token.kind {
        case .bracketL:
            try enterNesting()
            try lexer.advance()
            let base = stacks.values.count
            while try !expectOptional(.bracketR) {
                let value = try parseValue(const: const)
                stacks.values.push(value)
            }
            let values = stacks.values.pop(from: base, into: &region)
            depth -= 1
            return ValueRecord(kind: .list, start: start, end: end, payload: values)
        case .braceL:
            try enterNesting()
            try lexer.advance()
            let base = stacks.objectFields.count
            while try !expectOptional(.braceR) {
                let name = try parseName()
                try expect(.colon)
                let value = try parseValue(const: const)
                stacks.objectFields.push(ObjectFieldRecord(name: name, value: value))
            }
            let fields = stacks.objectFields.pop(from: base, into: &region)
            depth -= 1
            return ValueRecord(kind: .object, start: start, end: end, payload: fields)
        case .int:
            try lexer.advance()
            return ValueRecord(kind: .int, start: start, end: end, payload: .empty)
        case .float:
            try lexer.advance()
            return ValueRecord(kind: .float, start: start, end: end, payload: .empty)
        case .string, .blockString:
            return try parseStringLiteral()
        case .name:
            // Only a name of four or five letters can be `true`, `false` or `null`.
            let length = token.end - token.start
            let kind: ValueKind =
                length == 4 && peekKeyword("true") ? .true
                : length == 5 && peekKeyword("false") ? .false
                : length == 4 && peekKeyword("null") ? .null : .enumValue
            try lexer.advance()
            return ValueRecord(kind: kind, start: start, end: end, payload: .empty)
        case .dollar:
            if const {
                try lexer.advance()
                if peek(.name) {
                    let name = lexer.text(lexer.token.start, lexer.token.end)
                    throw lexer.error(at: token.start, "Unexpected variable \"$\(name)\" in constant value.")
                }
                throw unexpected(token)
            }
            try lexer.advance()
            let name = try parseName()
            return ValueRecord(kind: .variable, start: start, end: end, payload: ListRef(offset: name.start, count: name.count))
        default:
            throw unexpected()
        }
    }

    /// A StringValue token as a value record; its cooked text goes to ``strings``.
    mutating func parseStringLiteral() throws(GraphQLSyntaxError) -> ValueRecord {
        let token = lexer.token
        strings.append(lexer.stringValue)
        try lexer.advance()
        return ValueRecord(
            kind: token.kind == .blockString ? .blockString : .string, start: UInt32(truncatingIfNeeded: token.start),
            end: end, payload: ListRef(offset: UInt32(truncatingIfNeeded: strings.count - 1), count: 0))
    }

    /// `Description : StringValue`, when present: its value record's offset.
    mutating func parseDescription() throws(GraphQLSyntaxError) -> NodeRef {
        peekDescription() ? region.append(try parseStringLiteral()) : .none
    }

    /// `Type : NamedType | ListType | NonNullType`
    mutating func parseTypeReference() throws(GraphQLSyntaxError) -> NodeRef {
        let start = self.start
        var type: NodeRef
        if peek(.bracketL) {
            try enterNesting()
            try lexer.advance()
            let inner = try parseTypeReference()
            try expect(.bracketR)
            depth -= 1
            type = region.append(TypeReferenceRecord(kind: .list, start: start, end: end, name: .none, inner: inner))
        } else {
            let name = try parseName()
            type = region.append(TypeReferenceRecord(kind: .named, start: start, end: end, name: name, inner: .none))
        }
        if try expectOptional(.bang) {
            type = region.append(TypeReferenceRecord(kind: .nonNull, start: start, end: end, name: .none, inner: type))
        }
        return type
    }
}
