import GraphQLLanguage

/// The type system's own validity rules (§3, "Type Validation" under each kind),
/// with graphql-js's `validateSchema` wording. The builder has already checked
/// unknown and duplicate names; this checks shapes and relationships.
enum SchemaValidator {
    static func validate(_ schema: GraphQLSchema) -> [GraphQLError] {
        var validator = Run(schema: schema)
        validator.run()
        return validator.errors
    }

    struct Run {
        let schema: GraphQLSchema
        var errors: [GraphQLError] = []

        mutating func report(_ message: String, _ ranges: [SourceRange?]) {
            errors.append(GraphQLError(message, ranges: ranges.compactMap { $0 }, source: schema.source))
        }

        mutating func run() {
            for directive in schema.directives where directive.astNode != nil && !directive.isSpecified {
                checkName(directive.name, directive.astNode?.name.range)
                for argument in directive.arguments {
                    checkName(argument.name, argument.astNode?.name.range)
                    if !argument.type.isInputType {
                        report(
                            "The type of @\(directive.name)(\(argument.name):) must be Input Type but got: \(argument.type).",
                            [argument.astNode?.type.range])
                    }
                    if argument.isRequired && argument.isDeprecated {
                        report("Required argument @\(directive.name)(\(argument.name):) cannot be deprecated.", [deprecatedRange(argument.directives)])
                    }
                }
            }
            for type in schema.definedTypes {
                switch type {
                case .object(let object):
                    checkFields(of: object.name, object.fields, kind: "Type", astNode: object.astNode)
                    checkInterfaces(of: type, object.interfaces, fields: object.fields)
                case .interface(let interface):
                    checkFields(of: interface.name, interface.fields, kind: "Interface", astNode: interface.astNode)
                    checkInterfaces(of: type, interface.interfaces, fields: interface.fields)
                case .union(let union):
                    if union.types.isEmpty {
                        report("Union type \(union.name) must define one or more member types.", [union.astNode?.name.range])
                    }
                case .enumType(let enumType):
                    if enumType.values.isEmpty {
                        report("Enum type \(enumType.name) must define one or more values.", [enumType.astNode?.name.range])
                    }
                    for value in enumType.values { checkName(value.name, value.astNode?.name.range) }
                case .inputObject(let input):
                    checkInputObject(input)
                case .scalar:
                    break
                }
            }
        }

        mutating func checkName(_ name: String, _ range: SourceRange?) {
            if name.hasPrefix("__") {
                report("Name \"\(name)\" must not begin with \"__\", which is reserved by GraphQL introspection.", [range])
            }
        }

        func deprecatedRange(_ directives: [Directive]) -> SourceRange? {
            directives.first { $0.name.value == "deprecated" }?.range
        }

        mutating func checkFields(of typeName: String, _ fields: [GraphQLField], kind: String, astNode: TypeDefinition?) {
            if fields.isEmpty {
                report("\(kind) \(typeName) must define one or more fields.", [astNode?.name.range])
            }
            for field in fields {
                checkName(field.name, field.astNode?.name.range)
                if !field.type.isOutputType {
                    report("The type of \(typeName).\(field.name) must be Output Type but got: \(field.type).", [field.astNode?.type.range])
                }
                for argument in field.arguments {
                    checkName(argument.name, argument.astNode?.name.range)
                    if !argument.type.isInputType {
                        report(
                            "The type of \(typeName).\(field.name)(\(argument.name):) must be Input Type but got: \(argument.type).",
                            [argument.astNode?.type.range])
                    }
                    if argument.isRequired && argument.isDeprecated {
                        report(
                            "Required argument \(typeName).\(field.name)(\(argument.name):) cannot be deprecated.",
                            [deprecatedRange(argument.directives)])
                    }
                }
            }
        }

        /// §3.6 / §3.7 IsValidImplementation for every interface a type declares.
        mutating func checkInterfaces(of type: GraphQLNamedType, _ interfaces: [GraphQLInterfaceType], fields: [GraphQLField]) {
            var seen = Set<String>()
            for interface in interfaces {
                if case .interface(let own) = type, own === interface {
                    report(
                        "Type \(type.name) cannot implement itself because it would create a circular reference.",
                        [interfaceRange(type, interface.name)])
                    continue
                }
                if !seen.insert(interface.name).inserted {
                    report("Type \(type.name) can only implement \(interface.name) once.", [interfaceRange(type, interface.name)])
                    continue
                }
                for transitive in interface.interfaces where !interfaces.contains(where: { $0 === transitive }) {
                    let message =
                        transitive.name == type.name
                        ? "Type \(type.name) cannot implement \(interface.name) because it would create a circular reference."
                        : "Type \(type.name) must implement \(transitive.name) because it is implemented by \(interface.name)."
                    report(message, [interfaceRange(type, interface.name)])
                }
                for interfaceField in interface.fields {
                    guard let field = fields.first(where: { $0.name == interfaceField.name }) else {
                        report(
                            "Interface field \(interface.name).\(interfaceField.name) expected but \(type.name) does not provide it.",
                            [interfaceField.astNode?.name.range, type.astNode?.name.range])
                        continue
                    }
                    if !schema.isTypeSubType(field.type, of: interfaceField.type) {
                        report(
                            "Interface field \(interface.name).\(interfaceField.name) expects type \(interfaceField.type) but \(type.name).\(field.name) is type \(field.type).",
                            [interfaceField.astNode?.type.range, field.astNode?.type.range])
                    }
                    for interfaceArgument in interfaceField.arguments {
                        guard let argument = field.argument(named: interfaceArgument.name) else {
                            report(
                                "Interface field argument \(interface.name).\(interfaceField.name)(\(interfaceArgument.name):) expected but \(type.name).\(field.name) does not provide it.",
                                [interfaceArgument.astNode?.name.range, field.astNode?.name.range])
                            continue
                        }
                        if argument.type != interfaceArgument.type {
                            report(
                                "Interface field argument \(interface.name).\(interfaceField.name)(\(interfaceArgument.name):) expects type \(interfaceArgument.type) but \(type.name).\(field.name)(\(argument.name):) is type \(argument.type).",
                                [interfaceArgument.astNode?.type.range, argument.astNode?.type.range])
                        }
                    }
                    for argument in field.arguments
                    where argument.isRequired && interfaceField.argument(named: argument.name) == nil {
                        report(
                            "Object field \(type.name).\(field.name) includes required argument \(argument.name) that is missing from the Interface field \(interface.name).\(interfaceField.name).",
                            [argument.astNode?.name.range, interfaceField.astNode?.name.range])
                    }
                }
            }
        }

        func interfaceRange(_ type: GraphQLNamedType, _ name: String) -> SourceRange? {
            switch type.astNode {
            case .object(let d)?, .interface(let d)?: d.interfaces.first { $0.name.value == name }?.range
            default: nil
            }
        }

        mutating func checkInputObject(_ input: GraphQLInputObjectType) {
            if input.fields.isEmpty {
                report("Input Object type \(input.name) must define one or more fields.", [input.astNode?.name.range])
            }
            for field in input.fields {
                checkName(field.name, field.astNode?.name.range)
                if !field.type.isInputType {
                    report("The type of \(input.name).\(field.name) must be Input Type but got: \(field.type).", [field.astNode?.type.range])
                }
                if field.isRequired && field.isDeprecated {
                    report("Required input field \(input.name).\(field.name) cannot be deprecated.", [deprecatedRange(field.directives)])
                }
                if input.isOneOf {
                    if field.type.isNonNull {
                        report("OneOf input field \(input.name).\(field.name) must be nullable.", [field.astNode?.type.range])
                    }
                    if field.defaultValue != nil {
                        report("OneOf input field \(input.name).\(field.name) cannot have a default value.", [field.astNode?.defaultValue?.range])
                    }
                }
            }
            checkNonNullCycle(from: input, path: [], visiting: [])
        }

        /// An input object may not reach itself through non-null, non-list fields (§3.10).
        mutating func checkNonNullCycle(from input: GraphQLInputObjectType, path: [GraphQLInputField], visiting: [String]) {
            for field in input.fields {
                guard case .nonNull(.named(.inputObject(let next))) = field.type else { continue }
                let fieldPath = path + [field]
                if next.name == (visiting.first ?? input.name) && !(visiting.isEmpty && next !== input) {
                    let spelled = fieldPath.map(\.name).joined(separator: ".")
                    report(
                        "Cannot reference Input Object \"\(next.name)\" within itself through a series of non-null fields: \"\(spelled)\".",
                        fieldPath.map { $0.astNode?.range })
                    continue
                }
                if visiting.contains(next.name) || next === input { continue }
                if visiting.count < 32 {
                    checkNonNullCycle(from: next, path: fieldPath, visiting: visiting.isEmpty ? [input.name, next.name] : visiting + [next.name])
                }
            }
        }
    }
}
