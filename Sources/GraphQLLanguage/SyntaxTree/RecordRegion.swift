/// The memory of one ``SyntaxTree``: records bump-allocated one after the other,
/// each at a 4-byte aligned offset (every record field is at most 4-aligned).
///
/// A region is written during its parse only, by the parser that holds it in its
/// own struct (held by a class, every append paid a dynamic exclusivity check:
/// 40% of a parse in the prototype), then handed to the tree, which frees it.
struct RecordRegion {
    private(set) var base: UnsafeMutableRawPointer? = nil
    private(set) var used = 0
    private(set) var capacity = 0

    /// Appends `record`; returns its offset.
    @inline(__always)
    mutating func append<T>(_ record: T) -> NodeRef {
        let size = (MemoryLayout<T>.stride + 3) & ~3
        if used + size > capacity { grow(toFit: used + size) }
        (base.unsafelyUnwrapped + used).initializeMemory(as: T.self, to: record)
        let offset = used
        used += size
        return NodeRef(truncatingIfNeeded: offset)
    }

    /// Appends `count` records from `source`, contiguous; returns them as a list.
    @inline(__always)
    mutating func append<T>(contentsOf source: UnsafePointer<T>, count: Int) -> ListRef {
        if count == 0 { return .empty }
        let size = count * MemoryLayout<T>.stride
        if used + size > capacity { grow(toFit: used + size) }
        (base.unsafelyUnwrapped + used).copyMemory(from: source, byteCount: size)
        let list = ListRef(offset: UInt32(truncatingIfNeeded: used), count: UInt32(truncatingIfNeeded: count))
        used += (size + 3) & ~3
        return list
    }

    /// Makes room for at least `bytes` more without moving (an estimate from the source size).
    mutating func reserve(_ bytes: Int) {
        if used + bytes > capacity { grow(toFit: used + bytes) }
    }

    @inline(never)
    private mutating func grow(toFit needed: Int) {
        // Offsets are 32-bit; ParseOptions.tokenCeiling keeps a parse far below this.
        precondition(needed <= Int(UInt32.max), "a syntax tree is limited to 4 GiB of records")
        let newCapacity = min(max(1024, capacity * 2, needed), Int(UInt32.max))
        let newBase = UnsafeMutableRawPointer.allocate(byteCount: newCapacity, alignment: 8)
        if let base {
            newBase.copyMemory(from: base, byteCount: used)
            base.deallocate()
        }
        base = newBase
        capacity = newCapacity
    }

    /// Empties the region for reuse, freeing its memory if a large document grew
    /// it past `limit` bytes.
    mutating func clear(keepingAtMost limit: Int) {
        used = 0
        if capacity > limit {
            base?.deallocate()
            base = nil
            capacity = 0
        }
    }

    /// Frees the memory; the region must not be used again.
    func free() { base?.deallocate() }

    /// The `index`th record of type `T` from `offset` (a list's first record, or a
    /// single record at index 0).
    @inline(__always)
    func record<T>(at offset: UInt32, index: Int, as type: T.Type = T.self) -> T {
        UnsafeRawPointer(base.unsafelyUnwrapped).load(fromByteOffset: Int(offset) + index * MemoryLayout<T>.stride, as: T.self)
    }

    /// The record of type `T` at `offset`.
    @inline(__always)
    func record<T>(_ offset: NodeRef, as type: T.Type = T.self) -> T {
        record(at: offset, index: 0)
    }

    /// The `index`th record of `list`.
    @inline(__always)
    func record<T>(_ list: ListRef, _ index: Int, as type: T.Type = T.self) -> T {
        record(at: list.offset, index: index)
    }
}

/// A stack of records that one kind of list is built on: a list's items are
/// pushed as they are parsed (nested lists above their parent's), then moved
/// into the region, contiguous, when the list ends.
struct RecordStack<T> {
    private var storage: UnsafeMutablePointer<T>? = nil
    private(set) var count = 0
    private var capacity = 0

    @inline(__always)
    mutating func push(_ record: T) {
        if count == capacity { grow() }
        (storage.unsafelyUnwrapped + count).initialize(to: record)
        count += 1
    }

    /// Moves the records above `base` into `region`, as one list.
    @inline(__always)
    mutating func pop(from base: Int, into region: inout RecordRegion) -> ListRef {
        let n = count - base
        if n == 0 { return .empty }
        let list = region.append(contentsOf: storage.unsafelyUnwrapped + base, count: n)
        count = base
        return list
    }

    @inline(never)
    private mutating func grow() {
        let newCapacity = max(16, capacity * 2)
        let newStorage = UnsafeMutablePointer<T>.allocate(capacity: newCapacity)
        if let storage {
            newStorage.moveInitialize(from: storage, count: count)
            storage.deallocate()
        }
        storage = newStorage
        capacity = newCapacity
    }

    /// Drops the records a failed parse left, and the storage if a large document
    /// grew it past `limit` bytes. Records are plain values: nothing to destroy.
    mutating func reset(keepingAtMost limit: Int) {
        count = 0
        if capacity * MemoryLayout<T>.stride > limit {
            storage?.deallocate()
            storage = nil
            capacity = 0
        }
    }

    func free() { storage?.deallocate() }
}

/// The record stacks of one parse, one per kind of list, reused from parse to
/// parse through the ``ParserWorkspace`` pool.
struct RecordStacks {
    /// Bytes of storage a stack keeps between parses (64 KiB); nesting, not
    /// document size, decides how many records are on a stack at once.
    static let retainedBytes = 64 * 1024

    var definitions = RecordStack<DefinitionRecord>()
    var selections = RecordStack<SelectionRecord>()
    var arguments = RecordStack<ArgumentRecord>()
    var directives = RecordStack<DirectiveRecord>()
    var values = RecordStack<ValueRecord>()
    var objectFields = RecordStack<ObjectFieldRecord>()
    var variableDefinitions = RecordStack<VariableDefinitionRecord>()
    var names = RecordStack<NameRef>()
    var operationTypes = RecordStack<OperationTypeRecord>()
    var fieldDefinitions = RecordStack<FieldDefinitionRecord>()
    var inputValues = RecordStack<InputValueRecord>()
    var enumValues = RecordStack<EnumValueRecord>()

    /// Records left on the stacks (non-zero only during a parse).
    var count: Int {
        definitions.count + selections.count + arguments.count + directives.count + values.count
            + objectFields.count + variableDefinitions.count + names.count + operationTypes.count
            + fieldDefinitions.count + inputValues.count + enumValues.count
    }

    mutating func reset() {
        let limit = RecordStacks.retainedBytes
        definitions.reset(keepingAtMost: limit)
        selections.reset(keepingAtMost: limit)
        arguments.reset(keepingAtMost: limit)
        directives.reset(keepingAtMost: limit)
        values.reset(keepingAtMost: limit)
        objectFields.reset(keepingAtMost: limit)
        variableDefinitions.reset(keepingAtMost: limit)
        names.reset(keepingAtMost: limit)
        operationTypes.reset(keepingAtMost: limit)
        fieldDefinitions.reset(keepingAtMost: limit)
        inputValues.reset(keepingAtMost: limit)
        enumValues.reset(keepingAtMost: limit)
    }

    func free() {
        definitions.free(); selections.free(); arguments.free(); directives.free(); values.free()
        objectFields.free(); variableDefinitions.free(); names.free(); operationTypes.free()
        fieldDefinitions.free(); inputValues.free(); enumValues.free()
    }
}
