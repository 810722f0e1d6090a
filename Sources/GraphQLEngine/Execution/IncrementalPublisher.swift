/// Writes the payloads of an incremental response in the format the client asked for
/// (``IncrementalFormat``), from the events of the ``IncrementalGraph``.
///
/// v0.2 (graphql-js 17's `IncrementalPublisher`): `pending` announces each released deferred
/// fragment and stream with an id; `incremental` entries name the id (and, when the data sits
/// below the fragment's path, a `subPath`); `completed` closes an id, with `errors` when it failed.
/// v0.1 (`deferSpec=20220824`): each entry carries its own `path` and `label`; a failed fragment
/// is `data: null` with its errors, a failed stream `items: null`.
///
/// Key order, which the tests pin byte for byte: the initial payload `errors`, `data`,
/// `pending`, `hasNext`, `extensions`; later ones `hasNext`, `pending`, `incremental`, `completed`.
struct IncrementalPublisher {
    let format: IncrementalFormat
    private var ids: [ObjectIdentifier: String] = [:]
    private var nextID = 0
    /// Every fragment and stream released so far, in order, with the payloads that opened and
    /// closed it: what ``closingPayload(_:)`` reads to fail exactly what a client that got every
    /// payload before the current one knows is open. One record per fragment or stream of the
    /// answer, written as each payload is built (never copied per payload); the records hold
    /// their objects, so no `ObjectIdentifier` here is reused while the answer runs.
    private var released: [Released] = []
    private var releasedIndex: [ObjectIdentifier: Int] = [:]
    /// The payload being built: 0 the initial one, then 1, 2, …
    private var payloadNumber = 0

    /// A released delivery group or stream, and what its payloads told the client.
    struct Released {
        enum Node {
            case group(DeliveryGroup)
            case stream(ItemStream)
        }

        let node: Node
        let openedIn: Int
        var closedIn: Int?
        /// The v0.2 id it was announced with, kept past its completion.
        var id: String?
        /// Items sent so far (a stream), and how many of them payload `lastSentIn` carried.
        var sentItems = 0
        var lastSentIn = -1
        var lastSent = 0

        /// The items the client had before payload `number`.
        func sentItems(before number: Int) -> Int { sentItems - (lastSentIn == number ? lastSent : 0) }
    }

    init(format: IncrementalFormat) { self.format = format }

    /// The initial payload: the initial result's data and errors, what is pending, `hasNext: true`.
    mutating func initialPayload(
        data: [UInt8], errors: [GraphQLError], groups: [DeliveryGroup], streams: [ItemStream], extensions: JSONObject?
    ) -> [UInt8] {
        var writer = JSONWriter(capacity: data.count + 256)
        writer.writeByte(UInt8(ascii: "{"))
        if !errors.isEmpty {
            writer.writeRaw("\"errors\":")
            writer.write(.array(errors.map(\.json)))
            writer.writeByte(UInt8(ascii: ","))
        }
        writer.writeRaw("\"data\":")
        writer.writeJSONBytes(data[...])
        opened(groups, streams)
        if format == .v0_2 {
            writer.writeRaw(",\"pending\":")
            writer.write(.array(pending(groups, streams)))
        }
        writer.writeRaw(",\"hasNext\":true")
        if let extensions, !extensions.isEmpty {
            writer.writeRaw(",\"extensions\":")
            writer.write(.object(extensions))
        }
        writer.writeByte(UInt8(ascii: "}"))
        return writer.bytes
    }

    /// One subsequent payload for the events of one drain of the graph.
    mutating func subsequentPayload(_ events: [IncrementalGraph.Event]) -> (body: [UInt8], hasNext: Bool, hasErrors: Bool) {
        payloadNumber += 1
        var pending: [JSONValue] = []
        var incremental: [[UInt8]] = []
        var completed: [JSONValue] = []
        var hasNext = true
        var hasErrors = false
        for event in events {
            switch event {
            case .groupValues(let group, let values):
                let id = ensureID(group)
                for value in values {
                    hasErrors = hasErrors || !value.errors.isEmpty
                    incremental.append(deferEntry(value, group: group, id: id))
                }
            case .groupSucceeded(let group, let newGroups, let newStreams):
                completed.append(["id": .string(ensureID(group))])
                closed(group)
                opened(newGroups, newStreams)
                pending += self.pending(newGroups, newStreams)
            case .groupFailed(let group, let errors):
                hasErrors = true
                if format == .v0_1 {
                    incremental.append(entry(data: Array("null".utf8), key: "data", path: group.path, label: group.label, errors: errors))
                }
                completed.append(["id": .string(ensureID(group)), "errors": .array(errors.map(\.json))])
                closed(group)
            case .streamValues(let stream, let values, let newGroups, let newStreams):
                let id = ensureID(stream)
                let errors = values.flatMap(\.errors)
                hasErrors = hasErrors || !errors.isEmpty
                var items: [UInt8] = [UInt8(ascii: "[")]
                for (i, value) in values.enumerated() {
                    if i > 0 { items.append(UInt8(ascii: ",")) }
                    items += value.item
                }
                items.append(UInt8(ascii: "]"))
                if format == .v0_1 {
                    let path = stream.path + [.index(stream.firstIndex + sentItems(stream))]
                    incremental.append(entry(data: items, key: "items", path: path, label: stream.label, errors: errors))
                } else {
                    incremental.append(entry(data: items, key: "items", id: id, subPath: nil, errors: errors))
                }
                sent(values.count, of: stream)
                opened(newGroups, newStreams)
                pending += self.pending(newGroups, newStreams)
            case .streamSucceeded(let stream):
                completed.append(["id": .string(ensureID(stream))])
                closed(stream)
            case .streamFailed(let stream, let errors):
                hasErrors = true
                if format == .v0_1 {
                    let path = stream.path + [.index(stream.firstIndex + sentItems(stream))]
                    incremental.append(entry(data: Array("null".utf8), key: "items", path: path, label: stream.label, errors: errors))
                }
                completed.append(["id": .string(ensureID(stream)), "errors": .array(errors.map(\.json))])
                closed(stream)
            case .finished:
                hasNext = false
            }
        }
        return (body(hasNext: hasNext, pending: pending, incremental: incremental, completed: completed), hasNext, hasErrors)
    }

    /// A later payload's JSON from its parts, in the pinned key order.
    private func body(hasNext: Bool, pending: [JSONValue], incremental: [[UInt8]], completed: [JSONValue]) -> [UInt8] {
        var writer = JSONWriter(capacity: incremental.reduce(64) { $0 + $1.count + 1 })
        writer.writeRaw("{\"hasNext\":")
        writer.writeRaw(hasNext ? "true" : "false")
        if format == .v0_2, !pending.isEmpty {
            writer.writeRaw(",\"pending\":")
            writer.write(.array(pending))
        }
        if !incremental.isEmpty {
            writer.writeRaw(",\"incremental\":[")
            for (i, entry) in incremental.enumerated() {
                if i > 0 { writer.writeByte(UInt8(ascii: ",")) }
                writer.writeJSONBytes(entry[...])
            }
            writer.writeByte(UInt8(ascii: "]"))
        }
        if format == .v0_2, !completed.isEmpty {
            writer.writeRaw(",\"completed\":")
            writer.write(.array(completed))
        }
        writer.writeByte(UInt8(ascii: "}"))
        return writer.bytes
    }

    /// The payload to send instead of the one just built, when the answer has to stop there:
    /// every fragment and stream a client that got the payloads before it knows is open fails
    /// with `error` (v0.2: `completed` with `errors`; v0.1: `data: null` or `items: null` with
    /// their path and label), and `hasNext` is false. Linear in the fragments and streams released.
    ///
    /// Why: a stream that merely ends leaves a client waiting on fragments it was promised, and
    /// reports an incomplete answer with no reason; this one says which parts failed, and why.
    func closingPayload(_ error: GraphQLError) -> [UInt8] {
        let errors: JSONValue = .array([error.json])
        var incremental: [[UInt8]] = []
        var completed: [JSONValue] = []
        for record in released where record.openedIn < payloadNumber && (record.closedIn ?? payloadNumber) >= payloadNumber {
            switch (format, record.node) {
            case (.v0_1, .group(let group)):
                incremental.append(entry(data: Array("null".utf8), key: "data", path: group.path, label: group.label, errors: [error]))
            case (.v0_1, .stream(let stream)):
                let path = stream.path + [.index(stream.firstIndex + record.sentItems(before: payloadNumber))]
                incremental.append(entry(data: Array("null".utf8), key: "items", path: path, label: stream.label, errors: [error]))
            case (.v0_2, _):
                guard let id = record.id else { continue }
                completed.append(["id": .string(id), "errors": errors])
            }
        }
        return body(hasNext: false, pending: [], incremental: incremental, completed: completed)
    }

    private mutating func opened(_ groups: [DeliveryGroup], _ streams: [ItemStream]) {
        for group in groups { release(.group(group), group) }
        for stream in streams { release(.stream(stream), stream) }
    }

    private mutating func release(_ node: Released.Node, _ object: AnyObject) {
        releasedIndex[ObjectIdentifier(object)] = released.count
        released.append(Released(node: node, openedIn: payloadNumber))
    }

    /// A fragment or stream completed in this payload: its id is let go (kept on its record).
    private mutating func closed(_ object: AnyObject) {
        let key = ObjectIdentifier(object)
        if let index = releasedIndex[key] {
            released[index].closedIn = payloadNumber
            released[index].id = ids[key]
        }
        ids[key] = nil
    }

    private mutating func sent(_ count: Int, of stream: ItemStream) {
        guard let index = releasedIndex[ObjectIdentifier(stream)] else { return }
        released[index].sentItems += count
        released[index].lastSentIn = payloadNumber
        released[index].lastSent = count
    }

    private func sentItems(_ stream: ItemStream) -> Int {
        releasedIndex[ObjectIdentifier(stream)].map { released[$0].sentItems } ?? 0
    }

    // MARK: Entries

    private mutating func pending(_ groups: [DeliveryGroup], _ streams: [ItemStream]) -> [JSONValue] {
        guard format == .v0_2 else { return [] }
        var entries: [JSONValue] = []
        for group in groups { entries.append(pendingEntry(announce(group), group.path, group.label)) }
        for stream in streams { entries.append(pendingEntry(announce(stream), stream.path, stream.label)) }
        return entries
    }

    /// The id a released fragment or stream is announced with, kept on its record.
    private mutating func announce(_ object: AnyObject) -> String {
        let id = ensureID(object)
        if let index = releasedIndex[ObjectIdentifier(object)] { released[index].id = id }
        return id
    }

    private func pendingEntry(_ id: String, _ path: [PathComponent], _ label: String?) -> JSONValue {
        var object: JSONObject = ["id": .string(id), "path": .array(path.map(\.json))]
        if let label { object.append("label", .string(label)) }
        return .object(object)
    }

    private mutating func deferEntry(_ value: ExecutionGroupValue, group: DeliveryGroup, id: String) -> [UInt8] {
        if format == .v0_1 {
            return entry(data: value.data, key: "data", path: value.path, label: group.label, errors: value.errors)
        }
        // The released fragment with the longest path that this value belongs to: the shortest subPath.
        var bestID = id
        var longest = group.path.count
        for other in value.groups where other !== group {
            guard let otherID = ids[ObjectIdentifier(other)], other.path.count > longest else { continue }
            longest = other.path.count
            bestID = otherID
        }
        let subPath = value.path.count > longest ? Array(value.path[longest...]) : nil
        return entry(data: value.data, key: "data", id: bestID, subPath: subPath, errors: value.errors)
    }

    /// A v0.2 entry: `{"data"|"items":..., "id":..., "subPath":..., "errors":...}`.
    private func entry(data: [UInt8], key: String, id: String, subPath: [PathComponent]?, errors: [GraphQLError]) -> [UInt8] {
        var writer = JSONWriter(capacity: data.count + 64)
        writer.writeByte(UInt8(ascii: "{"))
        writer.writeString(key)
        writer.writeByte(UInt8(ascii: ":"))
        writer.writeJSONBytes(data[...])
        writer.writeRaw(",\"id\":")
        writer.writeString(id)
        if let subPath {
            writer.writeRaw(",\"subPath\":")
            writer.write(.array(subPath.map(\.json)))
        }
        writeErrors(errors, into: &writer)
        writer.writeByte(UInt8(ascii: "}"))
        return writer.bytes
    }

    /// A v0.1 entry: `{"data"|"items":..., "path":..., "label":..., "errors":...}`.
    private func entry(data: [UInt8], key: String, path: [PathComponent], label: String?, errors: [GraphQLError]) -> [UInt8] {
        var writer = JSONWriter(capacity: data.count + 64)
        writer.writeByte(UInt8(ascii: "{"))
        writer.writeString(key)
        writer.writeByte(UInt8(ascii: ":"))
        writer.writeJSONBytes(data[...])
        writer.writeRaw(",\"path\":")
        writer.write(.array(path.map(\.json)))
        if let label {
            writer.writeRaw(",\"label\":")
            writer.writeString(label)
        }
        writeErrors(errors, into: &writer)
        writer.writeByte(UInt8(ascii: "}"))
        return writer.bytes
    }

    private func writeErrors(_ errors: [GraphQLError], into writer: inout JSONWriter) {
        guard !errors.isEmpty else { return }
        writer.writeRaw(",\"errors\":")
        writer.write(.array(errors.map(\.json)))
    }

    private mutating func ensureID(_ node: AnyObject) -> String {
        if let id = ids[ObjectIdentifier(node)] { return id }
        let id = String(nextID)
        nextID += 1
        ids[ObjectIdentifier(node)] = id
        return id
    }
}
