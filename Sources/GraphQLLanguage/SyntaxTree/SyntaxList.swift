/// Where a view's record lies: its tree, and its place in a list (or alone).
/// Only the tree makes positions, so every view reads a record that exists.
public struct SyntaxPosition: Sendable {
    let tree: SyntaxTree
    let offset: UInt32
    let index: Int

    init(_ tree: SyntaxTree, _ offset: UInt32, _ index: Int = 0) {
        self.tree = tree
        self.offset = offset
        self.index = index
    }

    /// The record of type `R` here.
    @inline(__always)
    func record<R>(as type: R.Type = R.self) -> R {
        tree.region.record(at: offset, index: index)
    }
}

/// A view of one node of a ``SyntaxTree``, made from its position.
public protocol SyntaxNode: Sendable {
    init(at position: SyntaxPosition)
}

/// The nodes of one list of a ``SyntaxTree`` (a selection set's selections, a
/// field's arguments, ...), in source order, read in place.
public struct SyntaxList<Element: SyntaxNode>: RandomAccessCollection, Sendable {
    let tree: SyntaxTree
    let list: ListRef

    init(_ tree: SyntaxTree, _ list: ListRef) {
        self.tree = tree
        self.list = list
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { Int(list.count) }

    public subscript(position: Int) -> Element {
        precondition(position >= 0 && position < endIndex, "SyntaxList index out of range")
        return Element(at: SyntaxPosition(tree, list.offset, position))
    }
}
