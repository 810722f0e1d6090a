/// A stack that lists are built on before they are moved, at their exact size,
/// into the AST.
///
/// Appending to a fresh `Array` grows it 1, 2, 4, 8..., reallocating each time;
/// copying out of a reusable `Array` retains and releases every element. This
/// stack moves elements in and out, so building a list costs one allocation.
/// Nested lists push above their parent's items and pop before it resumes.
/// Storage is allocated on the first push: a small document never touches most
/// of its parser's stacks, and each allocation is a per-document fixed cost.
final class ScratchStack<Element> {
    private var storage: UnsafeMutablePointer<Element>?
    private var capacity = 0
    private(set) var count = 0

    init() {}

    deinit {
        if let storage {
            storage.deinitialize(count: count)
            storage.deallocate()
        }
    }

    @inline(__always)
    func push(_ element: consuming Element) {
        if count == capacity { grow() }
        (storage.unsafelyUnwrapped + count).initialize(to: element)
        count += 1
    }

    /// Moves the elements above `base` into a new array and drops them from the stack.
    ///
    /// The array is made with `reserveCapacity` and `append`, which the compiler
    /// specializes for `Element`; `Array(unsafeUninitializedCapacity:)` goes through
    /// an unspecialized standard-library entry point that looks the array's storage
    /// class up in the runtime's generic-metadata cache on every call.
    @inline(__always)
    func pop(from base: Int) -> [Element] {
        let n = count - base
        if n == 0 { return [] }
        let source = storage.unsafelyUnwrapped + base
        var items: [Element] = []
        items.reserveCapacity(n)
        for i in 0..<n { items.append((source + i).move()) }
        count = base
        return items
    }

    /// Destroys the elements left by a parse that failed midway, and frees the
    /// storage if a large document grew it past `keepingAtMost` elements (a pooled
    /// workspace should not hold on to the memory of the largest document seen).
    func reset(keepingAtMost limit: Int) {
        guard let storage else { return }
        storage.deinitialize(count: count)
        count = 0
        if capacity > limit {
            storage.deallocate()
            self.storage = nil
            capacity = 0
        }
    }

    private func grow() {
        let newCapacity = max(16, capacity * 2)
        let newStorage = UnsafeMutablePointer<Element>.allocate(capacity: newCapacity)
        if let storage {
            newStorage.moveInitialize(from: storage, count: count)
            storage.deallocate()
        }
        storage = newStorage
        capacity = newCapacity
    }
}

/// The scratch stacks of one parse, reused from parse to parse (see
/// ``ParserWorkspace``). A stack's storage is allocated on its first push.
final class ParserScratch {
    /// Elements a stack keeps room for between parses; nesting, not document
    /// size, decides how many are in use at once, so typical documents stay far below.
    static let retainedCapacity = 1024

    let definitions = ScratchStack<Definition>()
    let selections = ScratchStack<Selection>()
    let arguments = ScratchStack<Argument>()
    let directives = ScratchStack<Directive>()
    let values = ScratchStack<Value>()
    let objectFields = ScratchStack<ObjectField>()
    let variableDefinitions = ScratchStack<VariableDefinition>()
    let namedTypes = ScratchStack<NamedType>()
    let names = ScratchStack<Name>()
    let fieldDefinitions = ScratchStack<FieldDefinition>()
    let inputValueDefinitions = ScratchStack<InputValueDefinition>()
    let enumValueDefinitions = ScratchStack<EnumValueDefinition>()
    let operationTypes = ScratchStack<RootOperationTypeDefinition>()

    /// Empties every stack (see ``ScratchStack/reset(keepingAtMost:)``).
    func reset() {
        let limit = ParserScratch.retainedCapacity
        definitions.reset(keepingAtMost: limit)
        selections.reset(keepingAtMost: limit)
        arguments.reset(keepingAtMost: limit)
        directives.reset(keepingAtMost: limit)
        values.reset(keepingAtMost: limit)
        objectFields.reset(keepingAtMost: limit)
        variableDefinitions.reset(keepingAtMost: limit)
        namedTypes.reset(keepingAtMost: limit)
        names.reset(keepingAtMost: limit)
        fieldDefinitions.reset(keepingAtMost: limit)
        inputValueDefinitions.reset(keepingAtMost: limit)
        enumValueDefinitions.reset(keepingAtMost: limit)
        operationTypes.reset(keepingAtMost: limit)
    }
}
