import GraphQLLanguage

extension ResolveInfo {
    /// Whether the field's sub-selection selects a field named `name` on objects of `type`:
    /// directly, or through inline fragments and fragment spreads whose type condition applies,
    /// `@skip` and `@include` honoured (CollectFields, §6.3.2, for one name).
    ///
    /// For loads a resolver can start before its value is complete: a post's `author` that
    /// will be asked `viewerIsFollowing` queues the follow state with the author
    /// (``DataLoader/prefetch(_:)``), so both go in one wave instead of one after the other.
    /// It reads only the document and the variables, so resolvers running at once may call it.
    public func selects(_ name: String, on type: GraphQLObjectType) -> Bool {
        var visited = Set<String>()
        for node in plan.nodes {
            if let selectionSet = node.selectionSet, execution.selectionSet(selectionSet, on: type, selects: name, &visited) {
                return true
            }
        }
        return false
    }
}

extension ExecutionContext {
    fileprivate func selectionSet(
        _ selectionSet: SelectionSet, on type: GraphQLObjectType, selects name: String, _ visited: inout Set<String>
    ) -> Bool {
        for selection in selectionSet.selections {
            guard shouldInclude(selection.directives) else { continue }
            switch selection {
            case .field(let field):
                if field.name.value == name { return true }
            case .fragmentSpread(let spread):
                let fragmentName = spread.name.value
                guard visited.insert(fragmentName).inserted, let fragment = fragments[fragmentName],
                      doesFragmentTypeApply(type, fragment.typeCondition.name.value) else { continue }
                if self.selectionSet(fragment.selectionSet, on: type, selects: name, &visited) { return true }
            case .inlineFragment(let inline):
                if let condition = inline.typeCondition, !doesFragmentTypeApply(type, condition.name.value) { continue }
                if self.selectionSet(inline.selectionSet, on: type, selects: name, &visited) { return true }
            }
        }
        return false
    }
}
