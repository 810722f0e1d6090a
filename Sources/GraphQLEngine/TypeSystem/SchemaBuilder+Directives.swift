import GraphQLLanguage

extension BuildContext {
    /// Makes the schema's directives: those defined in SDL, then the specified ones.
    mutating func buildDirectives() {
        for (definition, source) in directiveDefinitions {
            let directive = GraphQLDirective(
                name: definition.name.value, description: definition.description?.value,
                arguments: makeArguments(definition.arguments, owner: "@\(definition.name.value)", source: source),
                locations: definition.locations.compactMap { DirectiveLocation(rawValue: $0.value) },
                isRepeatable: definition.isRepeatable, astNode: definition)
            directives.append(directive)
        }
    }

    /// KnownDirectives, UniqueDirectivesPerLocation and the directives' arguments, for SDL.
    mutating func checkAppliedDirectives() {
        var uses: [([Directive], DirectiveLocation)] = []
        if let schemaDefinition { uses.append((schemaDefinition.directives, .schema)) }
        for ext in schemaExtensions { uses.append((ext.directives, .schema)) }
        let allDefinitions = typeDefinitions.map(\.definition) + extensionOrder.flatMap { extensions[$0] ?? [] }.map(\.definition)
        for definition in allDefinitions {
            switch definition {
            case .scalar(let d): uses.append((d.directives, .scalar))
            case .object(let d), .interface(let d):
                uses.append((d.directives, { if case .object = definition { .object } else { .interface } }()))
                for field in d.fields {
                    uses.append((field.directives, .fieldDefinition))
                    for argument in field.arguments { uses.append((argument.directives, .argumentDefinition)) }
                }
            case .union(let d): uses.append((d.directives, .union))
            case .enumType(let d):
                uses.append((d.directives, .enumType))
                for value in d.values { uses.append((value.directives, .enumValue)) }
            case .inputObject(let d):
                uses.append((d.directives, .inputObject))
                for field in d.fields { uses.append((field.directives, .inputFieldDefinition)) }
            }
        }
        for (definition, _) in directiveDefinitions {
            for argument in definition.arguments { uses.append((argument.directives, .argumentDefinition)) }
        }
        for (applied, location) in uses where !applied.isEmpty {
            check(applied, at: location)
        }
    }

    private mutating func check(_ applied: [Directive], at location: DirectiveLocation) {
        var seen: [String: Directive] = [:]
        for use in applied {
            let name = use.name.value
            guard let directive = directives.first(where: { $0.name == name }) else {
                error("Unknown directive \"@\(name)\".", [use.name.range])
                continue
            }
            if !directive.locations.contains(location) {
                error("Directive \"@\(name)\" may not be used on \(location.rawValue).", [use.range])
            }
            if let first = seen[name], !directive.isRepeatable {
                error("The directive \"@\(name)\" can only be used once at this location.", [first.name.range, use.name.range])
            }
            seen[name] = use
            for argument in use.arguments where directive.argument(named: argument.name.value) == nil {
                let suggestions = Suggestions.list(argument.name.value, directive.arguments.map(\.name))
                error(
                    "Unknown argument \"\(argument.name.value)\" on directive \"@\(name)\".\(Suggestions.didYouMean(suggestions))",
                    [argument.name.range])
            }
            for argument in directive.arguments where argument.isRequired {
                if !use.arguments.contains(where: { $0.name.value == argument.name }) {
                    error(
                        "Argument \"@\(name)(\(argument.name):)\" of type \"\(argument.type)\" is required, but it was not provided.",
                        [use.range])
                }
            }
        }
    }

    /// Puts the schema together: roots from `schema { }` or the default names (§3.3.1).
    mutating func makeSchema(input: SchemaDefinitionInput) -> GraphQLSchema? {
        var roots: [OperationType: GraphQLObjectType] = [:]
        var rootRanges: [OperationType: SourceRange] = [:]
        let operationTypes = (schemaDefinition?.operationTypes ?? []) + schemaExtensions.flatMap(\.operationTypes)
        if schemaDefinition == nil && operationTypes.isEmpty {
            for operation in OperationType.allCases {
                let name = operation.rawValue.prefix(1).uppercased() + operation.rawValue.dropFirst()
                if case .object(let object)? = types[name] { roots[operation] = object }
            }
        }
        for definition in operationTypes {
            if let existing = rootRanges[definition.operation] {
                error("There can be only one \(definition.operation.rawValue) type in schema.", [existing, definition.range])
                continue
            }
            rootRanges[definition.operation] = definition.range
            guard let type = types[definition.type.name.value] else {
                error("Unknown type \"\(definition.type.name.value)\".", [definition.type.range])
                continue
            }
            guard case .object(let object) = type else {
                let kind = definition.operation.rawValue.prefix(1).uppercased() + definition.operation.rawValue.dropFirst()
                error("\(kind) root type must be Object type, it cannot be \(type.name).", [definition.type.range])
                continue
            }
            roots[definition.operation] = object
        }
        guard let query = roots[.query] else {
            error("Query root type must be provided.", schemaDefinition.map { [$0.range] } ?? [])
            return nil
        }
        guard errors.isEmpty else { return nil }

        // Specified scalars appear only where something uses them, as in graphql-js.
        var used = Set<String>()
        for name in typeNames {
            switch types[name]! {
            case .object(let t): for f in t.fields { used.insert(f.type.namedType.name); f.arguments.forEach { used.insert($0.type.namedType.name) } }
            case .interface(let t): for f in t.fields { used.insert(f.type.namedType.name); f.arguments.forEach { used.insert($0.type.namedType.name) } }
            case .inputObject(let t): t.fields.forEach { used.insert($0.type.namedType.name) }
            default: break
            }
        }
        for directive in directives { directive.arguments.forEach { used.insert($0.type.namedType.name) } }
        var names = typeNames
        for scalar in ["String", "Int", "Float", "Boolean", "ID"] where used.contains(scalar) && !names.contains(scalar) {
            names.append(scalar)
        }
        var typeMap: [String: GraphQLNamedType] = [:]
        for name in names { typeMap[name] = types[name] }
        // User types first, then built-ins: the order introspection lists them in.
        let userNames = names.filter { !builtInNames.contains($0) }
        let builtIns = names.filter { builtInNames.contains($0) }
        return GraphQLSchema(
            description: schemaDefinition?.description?.value, queryType: query, mutationType: roots[.mutation],
            subscriptionType: roots[.subscription], typeMap: typeMap, typeNames: userNames + builtIns,
            directives: orderedDirectives(), schemaDirectives: (schemaDefinition?.directives ?? []) + schemaExtensions.flatMap(\.directives),
            astNode: schemaDefinition, source: source, definitionInput: input)
    }

    /// Specified directives first (skip, include, deprecated, specifiedBy, oneOf), then the schema's own.
    func orderedDirectives() -> [GraphQLDirective] {
        let specified = ["include", "skip", "deprecated", "specifiedBy", "oneOf"]
        let first = specified.compactMap { name in directives.first { $0.name == name } }
        return first + directives.filter { !specified.contains($0.name) }
    }
}
