/// A reference to any AST node, as handed to an ``ASTVisitor``.
public enum ASTNode: Sendable {
    case document(Document)
    case operation(OperationDefinition)
    case variableDefinition(VariableDefinition)
    case selectionSet(SelectionSet)
    case field(Field)
    case argument(Argument)
    case fragmentSpread(FragmentSpread)
    case inlineFragment(InlineFragment)
    case fragmentDefinition(FragmentDefinition)
    case directive(Directive)
    case value(Value)
    case objectField(ObjectField)
    case type(TypeReference)
    case schemaDefinition(SchemaDefinition)
    case schemaExtension(SchemaExtension)
    case typeDefinition(TypeDefinition)
    case typeExtension(TypeExtension)
    case fieldDefinition(FieldDefinition)
    case inputValueDefinition(InputValueDefinition)
    case enumValueDefinition(EnumValueDefinition)
    case directiveDefinition(DirectiveDefinition)
}

/// What a visitor wants after entering a node.
public enum VisitorAction: Sendable {
    /// Visit the node's children, then leave it.
    case `continue`
    /// Do not visit the children; `leave` is still called.
    case skipChildren
    /// Stop the whole traversal now.
    case stop
}

/// Receives every node of a document in depth-first order (graphql-js's
/// `visit`): `enter` on the way down, `leave` on the way up. Both default to
/// doing nothing, so a visitor implements only what it looks at.
///
/// ```swift
/// struct FieldCounter: ASTVisitor {
///     var count = 0
///     mutating func enter(_ node: ASTNode) -> VisitorAction {
///         if case .field = node { count += 1 }
///         return .continue
///     }
/// }
/// var counter = FieldCounter()
/// walk(document, &counter)
/// ```
public protocol ASTVisitor {
    mutating func enter(_ node: ASTNode) -> VisitorAction
    mutating func leave(_ node: ASTNode)
}

extension ASTVisitor {
    public mutating func enter(_ node: ASTNode) -> VisitorAction { .continue }
    public mutating func leave(_ node: ASTNode) {}
}

/// Walks `document` with `visitor`, children in graphql-js's key order.
/// Recursion depth is bounded by the parser's ``ParseOptions/maxDepth``.
public func walk<V: ASTVisitor>(_ document: Document, _ visitor: inout V) {
    var walker = ASTWalker(visitor: visitor)
    _ = walker.visit(.document(document))
    visitor = walker.visitor
}

/// Walks any node and its children with `visitor`.
public func walk<V: ASTVisitor>(_ node: ASTNode, _ visitor: inout V) {
    var walker = ASTWalker(visitor: visitor)
    _ = walker.visit(node)
    visitor = walker.visitor
}

struct ASTWalker<V: ASTVisitor> {
    var visitor: V

    /// Visits a node and its children; returns false once the traversal is stopped.
    mutating func visit(_ node: ASTNode) -> Bool {
        switch visitor.enter(node) {
        case .stop: return false
        case .skipChildren:
            visitor.leave(node)
            return true
        case .continue:
            guard visitChildren(of: node) else { return false }
            visitor.leave(node)
            return true
        }
    }

    mutating func visitAll<C: Collection>(_ nodes: C, _ wrap: (C.Element) -> ASTNode) -> Bool {
        for node in nodes where !visit(wrap(node)) { return false }
        return true
    }

    mutating func visitChildren(of node: ASTNode) -> Bool {
        switch node {
        case .document(let d):
            return visitAll(d.definitions) { definition in
                switch definition {
                case .operation(let o): .operation(o)
                case .fragment(let f): .fragmentDefinition(f)
                case .schema(let s): .schemaDefinition(s)
                case .type(let t): .typeDefinition(t)
                case .directive(let d): .directiveDefinition(d)
                case .schemaExtension(let s): .schemaExtension(s)
                case .typeExtension(let t): .typeExtension(t)
                }
            }
        case .operation(let o):
            return visitAll(o.variableDefinitions, ASTNode.variableDefinition)
                && visitAll(o.directives, ASTNode.directive) && visit(.selectionSet(o.selectionSet))
        case .variableDefinition(let v):
            return visit(.type(v.type)) && visitAll(v.defaultValue.map { [$0] } ?? [], ASTNode.value)
                && visitAll(v.directives, ASTNode.directive)
        case .selectionSet(let s):
            return visitAll(s.selections) { selection in
                switch selection {
                case .field(let f): .field(f)
                case .fragmentSpread(let f): .fragmentSpread(f)
                case .inlineFragment(let f): .inlineFragment(f)
                }
            }
        case .field(let f):
            return visitAll(f.arguments, ASTNode.argument) && visitAll(f.directives, ASTNode.directive)
                && visitAll(f.selectionSet.map { [$0] } ?? [], ASTNode.selectionSet)
        case .argument(let a):
            return visit(.value(a.value))
        case .fragmentSpread(let f):
            return visitAll(f.directives, ASTNode.directive)
        case .inlineFragment(let f):
            return visitAll(f.typeCondition.map { [TypeReference.named($0)] } ?? [], ASTNode.type)
                && visitAll(f.directives, ASTNode.directive) && visit(.selectionSet(f.selectionSet))
        case .fragmentDefinition(let f):
            return visit(.type(.named(f.typeCondition))) && visitAll(f.directives, ASTNode.directive)
                && visit(.selectionSet(f.selectionSet))
        case .directive(let d):
            return visitAll(d.arguments, ASTNode.argument)
        case .value(let v):
            switch v {
            case .list(let l): return visitAll(l.values, ASTNode.value)
            case .object(let o): return visitAll(o.fields, ASTNode.objectField)
            default: return true
            }
        case .objectField(let f):
            return visit(.value(f.value))
        case .type(let t):
            switch t {
            case .named: return true
            case .list(let l): return visit(.type(l.type))
            case .nonNull(let n): return visit(.type(n.type))
            }
        case .schemaDefinition(let s):
            return visitAll(s.directives, ASTNode.directive)
                && visitAll(s.operationTypes) { ASTNode.type(.named($0.type)) }
        case .schemaExtension(let s):
            return visitAll(s.directives, ASTNode.directive)
                && visitAll(s.operationTypes) { ASTNode.type(.named($0.type)) }
        case .typeDefinition(let t):
            return visitTypeParts(t)
        case .typeExtension(let t):
            return visitTypeParts(t.definition)
        case .fieldDefinition(let f):
            return visitAll(f.arguments, ASTNode.inputValueDefinition) && visit(.type(f.type))
                && visitAll(f.directives, ASTNode.directive)
        case .inputValueDefinition(let i):
            return visit(.type(i.type)) && visitAll(i.defaultValue.map { [$0] } ?? [], ASTNode.value)
                && visitAll(i.directives, ASTNode.directive)
        case .enumValueDefinition(let e):
            return visitAll(e.directives, ASTNode.directive)
        case .directiveDefinition(let d):
            return visitAll(d.arguments, ASTNode.inputValueDefinition)
        }
    }

    mutating func visitTypeParts(_ t: TypeDefinition) -> Bool {
        switch t {
        case .scalar(let s):
            return visitAll(s.directives, ASTNode.directive)
        case .object(let o), .interface(let o):
            return visitAll(o.interfaces) { ASTNode.type(.named($0)) } && visitAll(o.directives, ASTNode.directive)
                && visitAll(o.fields, ASTNode.fieldDefinition)
        case .union(let u):
            return visitAll(u.directives, ASTNode.directive) && visitAll(u.types) { ASTNode.type(.named($0)) }
        case .enumType(let e):
            return visitAll(e.directives, ASTNode.directive) && visitAll(e.values, ASTNode.enumValueDefinition)
        case .inputObject(let i):
            return visitAll(i.directives, ASTNode.directive) && visitAll(i.fields, ASTNode.inputValueDefinition)
        }
    }
}
