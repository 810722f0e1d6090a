import GraphQLLanguage

extension BuildContext {
    /// Fills every type from its definition and extensions, in source order.
    mutating func fillTypes() {
        for (definition, source) in typeDefinitions {
            let name = definition.name.value
            guard let type = types[name] else { continue }
            let exts = extensions[name] ?? []
            for ext in exts where !sameKind(ext.definition, definition) {
                error("Cannot extend non-\(kindName(definition)) type \"\(name)\".", [ext.name.range])
            }
            let parts = [definition] + exts.filter { sameKind($0.definition, definition) }.map(\.definition)
            switch type {
            case .scalar(let scalar):
                scalar.directives = parts.flatMap(\.directives)
                scalar.extensionNodes = exts
                if let url = argument("url", of: "specifiedBy", in: scalar.directives) { scalar.specifiedByURL = url }
            case .object(let object):
                object.extensionNodes = exts
                for part in parts {
                    guard case .object(let body) = part else { continue }
                    object.directives += body.directives
                    object.interfaces += interfaces(body.interfaces, of: name, source: source)
                    for field in body.fields {
                        if object.field(named: field.name.value) != nil {
                            error("Field \"\(name).\(field.name.value)\" can only be defined once.", [field.name.range], source: source)
                            continue
                        }
                        object.addField(makeField(field, of: name, source: source))
                    }
                }
            case .interface(let interface):
                interface.extensionNodes = exts
                for part in parts {
                    guard case .interface(let body) = part else { continue }
                    interface.directives += body.directives
                    interface.interfaces += interfaces(body.interfaces, of: name, source: source)
                    for field in body.fields {
                        if interface.field(named: field.name.value) != nil {
                            error("Field \"\(name).\(field.name.value)\" can only be defined once.", [field.name.range], source: source)
                            continue
                        }
                        interface.addField(makeField(field, of: name, source: source))
                    }
                }
            case .union(let union):
                union.extensionNodes = exts
                for part in parts {
                    guard case .union(let body) = part else { continue }
                    union.directives += body.directives
                    for member in body.types {
                        guard let memberType = types[member.name.value] else {
                            error("Unknown type \"\(member.name.value)\".", [member.range], source: source)
                            continue
                        }
                        guard case .object(let object) = memberType else {
                            error(
                                "Union type \(name) can only include Object types, it cannot include \(memberType.name).",
                                [member.range], source: source)
                            continue
                        }
                        if union.types.contains(where: { $0 === object }) {
                            error("Union type \(name) can only include type \(object.name) once.", [member.range], source: source)
                            continue
                        }
                        union.types.append(object)
                    }
                }
            case .enumType(let enumType):
                enumType.extensionNodes = exts
                for part in parts {
                    guard case .enumType(let body) = part else { continue }
                    enumType.directives += body.directives
                    for valueDefinition in body.values {
                        if enumType.value(named: valueDefinition.name.value) != nil {
                            error(
                                "Enum value \"\(name).\(valueDefinition.name.value)\" can only be defined once.",
                                [valueDefinition.name.range], source: source)
                            continue
                        }
                        let value = GraphQLEnumValue(
                            name: valueDefinition.name.value, description: valueDefinition.description?.value,
                            deprecationReason: deprecationReason(valueDefinition.directives),
                            directives: valueDefinition.directives, astNode: valueDefinition)
                        enumType.values.append(value)
                    }
                }
            case .inputObject(let input):
                input.extensionNodes = exts
                for part in parts {
                    guard case .inputObject(let body) = part else { continue }
                    input.directives += body.directives
                    for field in body.fields {
                        if input.field(named: field.name.value) != nil {
                            error(
                                "Input field \"\(name).\(field.name.value)\" can only be defined once.", [field.name.range],
                                source: source)
                            continue
                        }
                        input.fields.append(makeArgument(field, source: source))
                    }
                }
                input.isOneOf = input.directives.contains { $0.name.value == "oneOf" }
            }
        }
    }

    mutating func interfaces(_ names: [NamedType], of typeName: String, source: Source?) -> [GraphQLInterfaceType] {
        var result: [GraphQLInterfaceType] = []
        for named in names {
            guard let type = types[named.name.value] else {
                error("Unknown type \"\(named.name.value)\".", [named.range], source: source)
                continue
            }
            guard case .interface(let interface) = type else {
                error(
                    "Type \(typeName) must only implement Interface types, it cannot implement \(type.name).",
                    [named.range], source: source)
                continue
            }
            result.append(interface)
        }
        return result
    }

    mutating func makeField(_ definition: FieldDefinition, of typeName: String, source: Source?) -> GraphQLField {
        GraphQLField(
            name: definition.name.value, type: resolve(definition.type, source: source),
            description: definition.description?.value,
            arguments: makeArguments(definition.arguments, owner: "\(typeName).\(definition.name.value)", source: source),
            deprecationReason: deprecationReason(definition.directives), directives: definition.directives,
            astNode: definition, resolver: resolvers.fields[typeName]?[definition.name.value])
    }

    mutating func makeArguments(_ definitions: [InputValueDefinition], owner: String, source: Source?) -> [GraphQLArgument] {
        var arguments: [GraphQLArgument] = []
        for definition in definitions {
            if arguments.contains(where: { $0.name == definition.name.value }) {
                error(
                    "Argument \"\(owner)(\(definition.name.value):)\" can only be defined once.", [definition.name.range],
                    source: source)
                continue
            }
            arguments.append(makeArgument(definition, source: source))
        }
        return arguments
    }

    mutating func makeArgument(_ definition: InputValueDefinition, source: Source?) -> GraphQLArgument {
        GraphQLArgument(
            name: definition.name.value, type: resolve(definition.type, source: source),
            defaultValue: definition.defaultValue, description: definition.description?.value,
            deprecationReason: deprecationReason(definition.directives), directives: definition.directives,
            astNode: definition)
    }

    /// The reason given by `@deprecated`, its default when it has none, or nil.
    func deprecationReason(_ directives: [Directive]) -> String? {
        guard let directive = directives.first(where: { $0.name.value == "deprecated" }) else { return nil }
        if let reason = directive.arguments.first(where: { $0.name.value == "reason" }), case .string(let s) = reason.value {
            return s.value
        }
        return "No longer supported"
    }

    func argument(_ name: String, of directiveName: String, in directives: [Directive]) -> String? {
        guard let directive = directives.first(where: { $0.name.value == directiveName }),
            let argument = directive.arguments.first(where: { $0.name.value == name }),
            case .string(let s) = argument.value
        else { return nil }
        return s.value
    }

    func sameKind(_ a: TypeDefinition, _ b: TypeDefinition) -> Bool {
        switch (a, b) {
        case (.scalar, .scalar), (.object, .object), (.interface, .interface), (.union, .union), (.enumType, .enumType),
            (.inputObject, .inputObject):
            true
        default: false
        }
    }

    func kindName(_ definition: TypeDefinition) -> String {
        switch definition {
        case .scalar: "scalar"
        case .object: "object"
        case .interface: "interface"
        case .union: "union"
        case .enumType: "enum"
        case .inputObject: "input object"
        }
    }
}
