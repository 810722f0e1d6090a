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

/// The scratch stacks of one parse. The type-system ones are made on first use:
/// a query never needs them, and every object is a per-document cost.
final class ParserScratch {
    let definitions = ScratchStack<Definition>()
    let selections = ScratchStack<Selection>()
    let arguments = ScratchStack<Argument>()
    let directives = ScratchStack<Directive>()
    let values = ScratchStack<Value>()
    let objectFields = ScratchStack<ObjectField>()
    lazy var variableDefinitions = ScratchStack<VariableDefinition>()
    lazy var namedTypes = ScratchStack<NamedType>()
    lazy var names = ScratchStack<Name>()
    lazy var fieldDefinitions = ScratchStack<FieldDefinition>()
    lazy var inputValueDefinitions = ScratchStack<InputValueDefinition>()
    lazy var enumValueDefinitions = ScratchStack<EnumValueDefinition>()
    lazy var operationTypes = ScratchStack<RootOperationTypeDefinition>()
}
