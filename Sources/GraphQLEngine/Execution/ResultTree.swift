/// The response being built: objects and lists are reference nodes, so an async
/// field can complete later into the slot it was given (its placeholder).
///
/// Every node knows the slot it sits in and whether that slot may be null, which
/// is what null propagation (§6.4.4) walks up through.
///
/// Only the parts of a response that wait on async resolvers need nodes: a subtree
/// that resolves synchronously is written straight to JSON (`CompleteValueToJSON.swift`)
/// and sits in the tree as a ``ResultValue/raw(_:)`` range of those bytes.
final class ResultObject {
    /// Response keys, shared with the plan that produced them.
    let keys: [String]
    var values: [ResultValue]
    var parent: ParentSlot?
    /// Under incremental delivery, the delivery groups of the deferred fragments met at or above
    /// this object (set where a `@defer` starts one, or at an execution group's root).
    var deliveryMap: DeliveryMap?

    init(keys: [String]) {
        self.keys = keys
        self.values = [ResultValue](repeating: .pending, count: keys.count)
    }
}

final class ResultList {
    var items: [ResultValue]
    var parent: ParentSlot?
    /// A null in a non-null position inside has replaced this list (or an ancestor) with
    /// null: its remaining items need not be completed.
    var isNulled = false

    init(count: Int) { items = [ResultValue](repeating: .pending, count: count) }
}

extension ResultObject {
    /// Clears the parent slot of this node and of every node below it, once execution is done.
    ///
    /// While execution runs, each node points up at its container (null propagation, §6.4.4,
    /// walks up those links) and the container points down at the node: a reference cycle.
    /// Left in place, every response with an async field below the root would never be freed.
    func unlinkFromParents() {
        parent = nil
        for value in values { value.unlinkFromParents() }
    }
}

extension ResultList {
    /// ``ResultObject/unlinkFromParents()`` for a list at the root of an execution (a streamed item).
    func unlinkFromParents() {
        parent = nil
        for item in items { item.unlinkFromParents() }
    }
}

extension ResultValue {
    fileprivate func unlinkFromParents() {
        switch self {
        case .object(let object): object.unlinkFromParents()
        case .list(let list):
            list.parent = nil
            for item in list.items { item.unlinkFromParents() }
        case .leaf, .raw, .pending: break
        }
    }
}

extension ParentSlot {
    /// Whether the node in this slot, and each node above it, is still where it was put: a null
    /// that replaced it or a parent detaches it (§6.4.4). `isRootNull` tells whether the root was.
    func stillHolds(_ node: AnyObject, isRootNull: Bool) -> Bool {
        var slot = self
        var current = node
        while true {
            switch slot.container {
            case .root:
                return !isRootNull
            case .object(let object):
                guard slot.index < object.values.count, object.values[slot.index].node === current,
                    let parent = object.parent
                else { return false }
                current = object
                slot = parent
            case .list(let list):
                guard !list.isNulled, slot.index < list.items.count, list.items[slot.index].node === current,
                    let parent = list.parent
                else { return false }
                current = list
                slot = parent
            }
        }
    }
}

extension ResultValue {
    /// The object or list node of this value, if it is one.
    var node: AnyObject? {
        switch self {
        case .object(let object): object
        case .list(let list): list
        case .leaf, .raw, .pending: nil
        }
    }
}

/// A value in the response tree.
enum ResultValue {
    case leaf(JSONValue)
    case object(ResultObject)
    case list(ResultList)
    /// JSON text already written, at this range of the execution's output bytes.
    case raw(Range<Int>)
    /// Not yet known: an async field still running (never left in a finished tree).
    case pending

    static var null: ResultValue { .leaf(.null) }
}

/// Where a node sits: its container and index, and whether that position is nullable.
struct ParentSlot {
    enum Container {
        case object(ResultObject)
        case list(ResultList)
        case root
    }

    var container: Container
    var index: Int
    var isNullable: Bool
}

extension ResultValue {
    /// Writes the value as JSON, in selection order (§7.2); `raw` holds the bytes of `.raw` ranges.
    func write(to writer: inout JSONWriter, raw: [UInt8]) {
        switch self {
        case .leaf(let json): writer.write(json)
        case .raw(let range): writer.writeJSONBytes(raw[range])
        case .pending: writer.writeRaw("null")
        case .object(let object):
            writer.writeByte(UInt8(ascii: "{"))
            for i in 0..<object.keys.count {
                if i > 0 { writer.writeByte(UInt8(ascii: ",")) }
                writer.writeString(object.keys[i])
                writer.writeByte(UInt8(ascii: ":"))
                object.values[i].write(to: &writer, raw: raw)
            }
            writer.writeByte(UInt8(ascii: "}"))
        case .list(let list):
            writer.writeByte(UInt8(ascii: "["))
            for i in 0..<list.items.count {
                if i > 0 { writer.writeByte(UInt8(ascii: ",")) }
                list.items[i].write(to: &writer, raw: raw)
            }
            writer.writeByte(UInt8(ascii: "]"))
        }
    }

    /// The value as a ``JSONValue`` tree (for callers that want values, not bytes);
    /// `.raw` ranges of `raw` are parsed back.
    func json(raw: [UInt8]) -> JSONValue {
        switch self {
        case .leaf(let json): return json
        case .pending: return .null
        case .raw(let range): return (try? JSONParser.parse(Array(raw[range]))) ?? .null
        case .object(let object):
            var result = JSONObject()
            for i in 0..<object.keys.count { result.append(object.keys[i], object.values[i].json(raw: raw)) }
            return .object(result)
        case .list(let list): return .array(list.items.map { $0.json(raw: raw) })
        }
    }
}

extension JSONValue {
    /// The fewest bytes this value's JSON can have (integers and doubles count one digit): what
    /// a result-tree leaf adds to the response, for its size limit.
    var leastJSONBytes: Int {
        switch self {
        case .null, .bool: 4
        case .int, .double: 1
        case .string(let string): string.utf8.count &+ 2
        case .array(let items): items.reduce(items.count &+ 1) { $0 &+ $1.leastJSONBytes }
        case .object(let object):
            object.reduce(object.count &+ 1) { total, member in total &+ member.0.utf8.count &+ 3 &+ member.1.leastJSONBytes }
        }
    }
}
