import GraphQLLanguage

/// §6.1.2 CoerceVariableValues and the input coercion it relies on (§3.10, §3.11).
/// Messages follow graphql-js so clients see familiar errors.
enum VariableCoercion {
    static func coerceVariableValues(
        _ schema: GraphQLSchema, _ definitions: [VariableDefinition], _ inputs: JSONObject, source: Source?
    ) -> Result<JSONObject, VariableErrors> {
        var coerced = JSONObject()
        var errors: [GraphQLError] = []
        for definition in definitions {
            let name = definition.variable.name.value
            let typeReference = definition.type
            guard let type = schema.type(from: typeReference), type.isInputType else {
                errors.append(
                    GraphQLError(
                        "Variable \"$\(name)\" expected value of type \"\(typeReference)\" which cannot be used as an input type.",
                        ranges: [typeReference.range], source: source))
                continue
            }
            guard let value = inputs[name] else {
                if let defaultValue = definition.defaultValue {
                    do {
                        coerced[name] = try ArgumentCoercion.valueFromAST(defaultValue, type, variables: JSONObject())
                    } catch {
                        errors.append(GraphQLError(error.message, ranges: [defaultValue.range], source: source))
                    }
                } else if type.isNonNull {
                    errors.append(
                        GraphQLError(
                            "Variable \"$\(name)\" of required type \"\(type)\" was not provided.", ranges: [definition.range],
                            source: source))
                }
                continue
            }
            if value.isNull && type.isNonNull {
                errors.append(
                    GraphQLError(
                        "Variable \"$\(name)\" of non-null type \"\(type)\" must not be null.", ranges: [definition.range],
                        source: source))
                continue
            }
            do {
                coerced[name] = try coerceInputValue(value, type, path: [])
            } catch {
                let at = error.path.isEmpty ? "" : " at \"\(name)\(printPath(error.path))\""
                errors.append(
                    GraphQLError(
                        "Variable \"$\(name)\" got invalid value \(inspect(error.value))\(at); \(error.message)",
                        ranges: [definition.range], source: source))
            }
        }
        return errors.isEmpty ? .success(coerced) : .failure(VariableErrors(errors: errors))
    }

    struct VariableErrors: Error {
        var errors: [GraphQLError]
    }

    static func printPath(_ path: [PathComponent]) -> String {
        path.map { component in
            switch component {
            case .key(let k): ".\(k)"
            case .index(let i): "[\(i)]"
            }
        }.joined()
    }

    /// What is wrong with an input value, and where inside it.
    struct InputError: Error {
        var message: String
        var path: [PathComponent]
        var value: JSONValue
    }

    /// CoerceInputValue for a JSON input (graphql-js's `coerceInputValue`).
    static func coerceInputValue(_ value: JSONValue, _ type: GraphQLType, path: [PathComponent]) throws(InputError) -> JSONValue {
        switch type {
        case .nonNull(let inner):
            if value.isNull {
                throw InputError(message: "Expected non-nullable type \"\(type)\" not to be null.", path: path, value: value)
            }
            return try coerceInputValue(value, inner, path: path)
        case .list(let itemType):
            if value.isNull { return .null }
            if case .array(let items) = value {
                var result: [JSONValue] = []
                result.reserveCapacity(items.count)
                for (i, item) in items.enumerated() {
                    result.append(try coerceInputValue(item, itemType, path: path + [.index(i)]))
                }
                return .array(result)
            }
            // §3.11 input coercion: a single value stands for a list of one.
            return .array([try coerceInputValue(value, itemType, path: path)])
        case .named(let named):
            if value.isNull { return .null }
            switch named {
            case .scalar(let scalar):
                do {
                    return try scalar.coercion.parseValue(value)
                } catch let error as CoercionError {
                    throw InputError(message: error.message, path: path, value: value)
                } catch {
                    throw InputError(message: "Expected type \"\(scalar.name)\".", path: path, value: value)
                }
            case .enumType(let enumType):
                guard case .string(let name) = value else {
                    throw InputError(
                        message: "Enum \"\(enumType.name)\" cannot represent non-string value: \(inspect(value)).", path: path,
                        value: value)
                }
                guard enumType.value(named: name) != nil else {
                    let suggestions = Suggestions.list(name, enumType.values.map(\.name))
                    throw InputError(
                        message: "Value \"\(name)\" does not exist in \"\(enumType.name)\" enum.\(Suggestions.didYouMean(suggestions))",
                        path: path, value: value)
                }
                return value
            case .inputObject(let input):
                guard case .object(let object) = value else {
                    throw InputError(message: "Expected type \"\(input.name)\" to be an object.", path: path, value: value)
                }
                var result = JSONObject()
                for field in input.fields {
                    if let fieldValue = object[field.name] {
                        result.append(field.name, try coerceInputValue(fieldValue, field.type, path: path + [.key(field.name)]))
                    } else if let defaultValue = field.defaultValue {
                        result.append(field.name, (try? ArgumentCoercion.valueFromAST(defaultValue, field.type, variables: JSONObject())) ?? .null)
                    } else if field.type.isNonNull {
                        throw InputError(
                            message: "Field \"\(field.name)\" of required type \"\(field.type)\" was not provided.", path: path,
                            value: value)
                    }
                }
                for key in object.keys where input.field(named: key) == nil {
                    let suggestions = Suggestions.list(key, input.fields.map(\.name))
                    throw InputError(
                        message: "Field \"\(key)\" is not defined by type \"\(input.name)\".\(Suggestions.didYouMean(suggestions))",
                        path: path, value: value)
                }
                if input.isOneOf {
                    guard result.count == 1 else {
                        throw InputError(
                            message: "Exactly one key must be specified for OneOf type \"\(input.name)\".", path: path,
                            value: value)
                    }
                    if result.values[0].isNull {
                        throw InputError(message: "Field \"\(result.keys[0])\" must be non-null.", path: path, value: value)
                    }
                }
                return .object(result)
            case .object, .interface, .union:
                throw InputError(message: "Expected an input type, got \"\(named.name)\".", path: path, value: value)
            }
        }
    }
}
