/// A stack that lists are built on before they are moved, at their exact size,
/// into the AST.
///
/// Appending to a fresh `Array` grows it 1, 2, 4, 8..., reallocating each time;
/// copying out of a reusable `Array` retains and releases every element. This
/// stack moves elements in and out, so building a list costs one allocation.
/// Nested lists push above their parent's items and pop before it resumes.
final class ScratchStack<Element> {
    private var storage: UnsafeMutablePointer<Element>
    private var capacity: Int
    private(set) var count = 0

    init(capacity: Int = 64) {
        self.capacity = capacity
        storage = .allocate(capacity: capacity)
    }

    deinit {
        storage.deinitialize(count: count)
        storage.deallocate()
    }

    @inline(__always)
    func push(_ element: consuming Element) {
        if count == capacity { grow() }
        (storage + count).initialize(to: element)
        count += 1
    }

    /// Moves the elements above `base` into a new array and drops them from the stack.
    @inline(__always)
    func pop(from base: Int) -> [Element] {
        let n = count - base
        if n == 0 { return [] }
        let source = storage + base
        let items = [Element](unsafeUninitializedCapacity: n) { buffer, initialized in
            buffer.baseAddress!.moveInitialize(from: source, count: n)
            initialized = n
        }
        count = base
        return items
    }

    private func grow() {
        let newCapacity = capacity * 2
        let newStorage = UnsafeMutablePointer<Element>.allocate(capacity: newCapacity)
        newStorage.moveInitialize(from: storage, count: count)
        storage.deallocate()
        storage = newStorage
        capacity = newCapacity
    }
}

/// The scratch stacks of one parse.
final class ParserScratch {
    let selections = ScratchStack<Selection>()
    let arguments = ScratchStack<Argument>()
    let values = ScratchStack<Value>()
    let objectFields = ScratchStack<ObjectField>()
}
