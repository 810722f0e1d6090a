import GraphQLLanguage

/// §6.4.1 CoerceArgumentValues, and literal coercion (graphql-js's `valueFromAST`).
enum ArgumentCoercion {
    static func coerceArguments(
        _ definition: GraphQLField, _ node: Field, context: ExecutionContext
    ) -> Result<ArgumentValues, GraphQLError> {
        var coerced = JSONObject()
        for argument in definition.arguments {
            let name = argument.name
            let type = argument.type
            let given = node.arguments.first { $0.name.value == name }
            var hasValue = given != nil
            var isNull = false
            if let given, case .variable(let variable) = given.value {
                hasValue = context.variables[variable.name.value] != nil
                isNull = context.variables[variable.name.value]?.isNull ?? false
                if !hasValue {
                    if let defaultValue = argument.defaultValue {
                        coerced[name] = (try? valueFromAST(defaultValue, type, variables: JSONObject())) ?? .null
                        continue
                    }
                    if type.isNonNull {
                        return .failure(
                            context.error(
                                "Argument \"\(name)\" of required type \"\(type)\" was provided the variable \"$\(variable.name.value)\" which was not provided a runtime value.",
                                [given.value.range]))
                    }
                    continue
                }
            } else if let given, case .null = given.value {
                isNull = true
            }
            guard hasValue, let given else {
                if let defaultValue = argument.defaultValue {
                    coerced[name] = (try? valueFromAST(defaultValue, type, variables: JSONObject())) ?? .null
                } else if type.isNonNull {
                    return .failure(
                        context.error("Argument \"\(name)\" of required type \"\(type)\" was not provided.", [node.range]))
                }
                continue
            }
            if isNull && type.isNonNull {
                return .failure(
                    context.error("Argument \"\(name)\" of non-null type \"\(type)\" must not be null.", [given.value.range]))
            }
            do {
                coerced[name] = try valueFromAST(given.value, type, variables: context.variables)
            } catch {
                return .failure(context.error("Argument \"\(name)\" has invalid value \(Printer.print(given.value)).", [given.value.range]))
            }
        }
        return .success(ArgumentValues(coerced))
    }

    /// The coerced value of a literal for `type`, variables substituted (graphql-js `valueFromAST`).
    /// - Throws: ``CoercionError`` when the literal is not a valid `type`.
    static func valueFromAST(_ literal: Value, _ type: GraphQLType, variables: JSONObject) throws(CoercionError) -> JSONValue {
        if case .variable(let variable) = literal {
            let value = variables[variable.name.value] ?? .null
            if value.isNull && type.isNonNull { throw CoercionError("Expected non-null value for \(type).") }
            return value
        }
        switch type {
        case .nonNull(let inner):
            if case .null = literal { throw CoercionError("Expected non-null value for \(type).") }
            return try valueFromAST(literal, inner, variables: variables)
        case .list(let itemType):
            if case .null = literal { return .null }
            if case .list(let list) = literal {
                var items: [JSONValue] = []
                for item in list.values {
                    if case .variable(let v) = item, variables[v.name.value] == nil {
                        if itemType.isNonNull { throw CoercionError("Missing variable for non-null list item.") }
                        items.append(.null)
                        continue
                    }
                    items.append(try valueFromAST(item, itemType, variables: variables))
                }
                return .array(items)
            }
            return .array([try valueFromAST(literal, itemType, variables: variables)])
        case .named(let named):
            if case .null = literal { return .null }
            switch named {
            case .scalar(let scalar):
                do {
                    if containsVariables(literal) {
                        return try scalar.coercion.parseValue(try JSONValue(literal: literal, variables: variables))
                    }
                    return try scalar.coercion.parseLiteral(literal, variables)
                } catch let error as CoercionError {
                    throw error
                } catch {
                    throw CoercionError("Expected value of type \"\(scalar.name)\".")
                }
            case .enumType(let enumType):
                guard case .enumValue(let value) = literal, enumType.value(named: value.value) != nil else {
                    throw CoercionError("Expected value of type \"\(enumType.name)\", found \(Printer.print(literal)).")
                }
                return .string(value.value)
            case .inputObject(let input):
                guard case .object(let object) = literal else {
                    throw CoercionError("Expected value of type \"\(input.name)\", found \(Printer.print(literal)).")
                }
                var result = JSONObject()
                for field in input.fields {
                    let given = object.fields.first { $0.name.value == field.name }
                    if let given, !isMissingVariable(given.value, variables) {
                        result.append(field.name, try valueFromAST(given.value, field.type, variables: variables))
                    } else if let defaultValue = field.defaultValue {
                        result.append(field.name, try valueFromAST(defaultValue, field.type, variables: JSONObject()))
                    } else if field.type.isNonNull {
                        throw CoercionError("Field \"\(field.name)\" of required type \"\(field.type)\" was not provided.")
                    }
                }
                if input.isOneOf && (result.count != 1 || result.values.first?.isNull == true) {
                    throw CoercionError("Exactly one key must be specified for OneOf type \"\(input.name)\".")
                }
                return .object(result)
            case .object, .interface, .union:
                throw CoercionError("Expected an input type, got \"\(named.name)\".")
            }
        }
    }

    static func isMissingVariable(_ value: Value, _ variables: JSONObject) -> Bool {
        if case .variable(let v) = value { return variables[v.name.value] == nil }
        return false
    }

    static func containsVariables(_ value: Value) -> Bool {
        switch value {
        case .variable: true
        case .list(let l): l.values.contains(where: containsVariables)
        case .object(let o): o.fields.contains { containsVariables($0.value) }
        default: false
        }
    }
}
