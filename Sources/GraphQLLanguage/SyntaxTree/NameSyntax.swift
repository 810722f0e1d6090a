/// A name (§2.1.9) in a ``SyntaxTree``: an operation's, a field's, a type's...
public struct NameSyntax: SyntaxNode, CustomStringConvertible {
    public let tree: SyntaxTree
    let name: NameRef

    init(_ tree: SyntaxTree, _ name: NameRef) {
        self.tree = tree
        self.name = name
    }

    public init(at position: SyntaxPosition) { self.init(position.tree, position.record(as: NameRef.self)) }

    /// Names of absent nodes are `nil`.
    static func optional(_ tree: SyntaxTree, _ name: NameRef) -> NameSyntax? {
        name.isNone ? nil : NameSyntax(tree, name)
    }

    /// The name's text (made on each call).
    public var value: String { tree.text(Int(name.start), name.end) }
    public var range: SourceRange { SourceRange(start: Int(name.start), end: name.end) }
    public var description: String { value }
}
