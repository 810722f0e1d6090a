/// A stack that lists are built on before they are moved, at their exact size,
/// into the AST.
///
/// Appending to a fresh `Array` grows it 1, 2, 4, 8..., reallocating each time;
/// copying out of a reusable `Array` retains and releases every element. This
/// stack moves elements in and out, so building a list costs one allocation.
/// Nested lists push above their parent's items and pop before it resumes.
///
/// The value is a plain pointer to the stack's state, not a class: the parser
/// passes its stacks around and calls them in every list, and a class reference
/// held in the parser would be retained and released around each of those calls.
/// The state is owned by the ``ParserWorkspace`` that made it (``ParserScratch``),
/// which frees it when it goes away; the parser only borrows it during a parse.
struct ScratchStack<Element> {
    private struct State {
        var storage: UnsafeMutablePointer<Element>?
        var capacity: Int
        var count: Int
    }

    private let state: UnsafeMutablePointer<State>

    /// Allocates an empty stack; its storage is allocated on the first push.
    /// Must be ended with ``free()``.
    init() {
        state = .allocate(capacity: 1)
        state.initialize(to: State(storage: nil, capacity: 0, count: 0))
    }

    var count: Int {
        @inline(__always) get { state.pointee.count }
    }

    @inline(__always)
    func push(_ element: consuming Element) {
        let count = state.pointee.count
        if count == state.pointee.capacity { grow() }
        (state.pointee.storage.unsafelyUnwrapped + count).initialize(to: element)
        state.pointee.count = count + 1
    }

    /// Moves the elements above `base` into a new array and drops them from the stack.
    ///
    /// The array is made with `reserveCapacity` and `append`, which the compiler
    /// specializes for `Element`; `Array(unsafeUninitializedCapacity:)` goes through
    /// an unspecialized standard-library entry point that looks the array's storage
    /// class up in the runtime's generic-metadata cache on every call.
    @inline(__always)
    func pop(from base: Int) -> [Element] {
        let n = state.pointee.count - base
        if n == 0 { return [] }
        let source = state.pointee.storage.unsafelyUnwrapped + base
        // Most lists have one to four items; an array literal allocates them at
        // their size in one step, where reserveCapacity goes through the general
        // growth path (10-20% faster per list, measured on 88-byte items).
        if n == 1 {
            state.pointee.count = base
            return [source.move()]
        }
        if n == 2 {
            state.pointee.count = base
            return [source.move(), (source + 1).move()]
        }
        if n == 3 {
            state.pointee.count = base
            return [source.move(), (source + 1).move(), (source + 2).move()]
        }
        if n == 4 {
            state.pointee.count = base
            return [source.move(), (source + 1).move(), (source + 2).move(), (source + 3).move()]
        }
        var items: [Element] = []
        items.reserveCapacity(n)
        for i in 0..<n { items.append((source + i).move()) }
        state.pointee.count = base
        return items
    }

    /// Destroys the elements left by a parse that failed midway, and frees the
    /// storage if a large document grew it past `keepingAtMost` bytes (a pooled
    /// workspace should not hold on to the memory of the largest document seen).
    func reset(keepingAtMost limit: Int) {
        guard let storage = state.pointee.storage else { return }
        storage.deinitialize(count: state.pointee.count)
        state.pointee.count = 0
        if state.pointee.capacity * MemoryLayout<Element>.stride > limit {
            storage.deallocate()
            state.pointee.storage = nil
            state.pointee.capacity = 0
        }
    }

    /// Destroys the elements and frees everything; the stack must not be used again.
    func free() {
        reset(keepingAtMost: 0)
        state.deinitialize(count: 1)
        state.deallocate()
    }

    private func grow() {
        let capacity = state.pointee.capacity
        let newCapacity = max(16, capacity * 2)
        let newStorage = UnsafeMutablePointer<Element>.allocate(capacity: newCapacity)
        if let storage = state.pointee.storage {
            newStorage.moveInitialize(from: storage, count: state.pointee.count)
            storage.deallocate()
        }
        state.pointee.storage = newStorage
        state.pointee.capacity = newCapacity
    }
}

/// The scratch stacks of one parse, reused from parse to parse: a
/// ``ParserWorkspace`` makes them once and frees them (``free()``) in its `deinit`.
struct ParserScratch {
    /// Bytes of storage a stack keeps between parses (64 KiB: 744 selections, 1,170
    /// arguments); nesting, not document size, decides how many items are on a stack
    /// at once, so typical documents stay far below, and an idle workspace holds at
    /// most 13 times this.
    static let retainedBytes = 64 * 1024

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

    /// Items left on all stacks (0 between parses).
    var count: Int {
        var total = 0
        forEach { total += $0.itemCount }
        return total
    }

    /// Empties every stack (see ``ScratchStack/reset(keepingAtMost:)``).
    func reset() {
        forEach { $0.reset(keepingAtMost: ParserScratch.retainedBytes) }
    }

    /// Frees every stack; the scratch must not be used again.
    func free() {
        forEach { $0.free() }
    }

    /// Calls `body` with each stack, whatever its element type.
    private func forEach(_ body: (any ScratchStackProtocol) -> Void) {
        body(definitions)
        body(selections)
        body(arguments)
        body(directives)
        body(values)
        body(objectFields)
        body(variableDefinitions)
        body(namedTypes)
        body(names)
        body(fieldDefinitions)
        body(inputValueDefinitions)
        body(enumValueDefinitions)
        body(operationTypes)
    }
}

/// What ``ParserScratch`` does to all its stacks alike.
protocol ScratchStackProtocol {
    var itemCount: Int { get }
    func reset(keepingAtMost limit: Int)
    func free()
}

extension ScratchStack: ScratchStackProtocol {
    var itemCount: Int { count }
}
