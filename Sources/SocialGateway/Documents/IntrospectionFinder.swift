import GraphQLLanguage

/// Finds `__schema` or `__type` selections, for servers with introspection off.
enum IntrospectionFinder {
    static func firstUse(in document: Document) -> SourceRange? {
        struct Finder: ASTVisitor {
            var found: SourceRange?
            mutating func enter(_ node: ASTNode) -> VisitorAction {
                if case .field(let field) = node, field.name.value == "__schema" || field.name.value == "__type" {
                    found = field.range
                    return .stop
                }
                return .continue
            }
        }
        var finder = Finder()
        walk(document, &finder)
        return finder.found
    }
}

/// Finds `@defer` or `@stream`, which only an incremental answer needs to execute apart.
enum IncrementalDirectiveFinder {
    static func usesIncrementalDelivery(_ document: Document) -> Bool {
        struct Finder: ASTVisitor {
            var found = false
            mutating func enter(_ node: ASTNode) -> VisitorAction {
                if case .directive(let directive) = node, directive.name.value == "defer" || directive.name.value == "stream" {
                    found = true
                    return .stop
                }
                return .continue
            }
        }
        var finder = Finder()
        walk(document, &finder)
        return finder.found
    }
}
