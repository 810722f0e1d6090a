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
    /// The fragments and streams a client that read every payload so far knows are still open
    /// (announced, or in v0.1 implied by the query, and not yet completed), in the order they came.
    private var open: [OpenEntry] = []
    /// The items of each stream sent so far (here, not on the stream, so that a copy of the
    /// publisher is exactly what a client saw: ``closingPayload(_:)``).
    private var sentItems: [ObjectIdentifier: Int] = [:]

    /// A released delivery group or stream.
    enum OpenEntry {
        case group(DeliveryGroup)
        case stream(ItemStream)

        var node: AnyObject {
            switch self {
            case .group(let group): group
            case .stream(let stream): stream
            }
        }
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
                ids[ObjectIdentifier(group)] = nil
                closed(group)
                opened(newGroups, newStreams)
                pending += self.pending(newGroups, newStreams)
            case .groupFailed(let group, let errors):
                hasErrors = true
                if format == .v0_1 {
                    incremental.append(entry(data: Array("null".utf8), key: "data", path: group.path, label: group.label, errors: errors))
                }
                completed.append(["id": .string(ensureID(group)), "errors": .array(errors.map(\.json))])
                ids[ObjectIdentifier(group)] = nil
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
                    let path = stream.path + [.index(stream.firstIndex + sentItems[ObjectIdentifier(stream), default: 0])]
                    incremental.append(entry(data: items, key: "items", path: path, label: stream.label, errors: errors))
                } else {
                    incremental.append(entry(data: items, key: "items", id: id, subPath: nil, errors: errors))
                }
                sentItems[ObjectIdentifier(stream), default: 0] += values.count
                opened(newGroups, newStreams)
                pending += self.pending(newGroups, newStreams)
            case .streamSucceeded(let stream):
                completed.append(["id": .string(ensureID(stream))])
                ids[ObjectIdentifier(stream)] = nil
                sentItems[ObjectIdentifier(stream)] = nil
                closed(stream)
            case .streamFailed(let stream, let errors):
                hasErrors = true
                if format == .v0_1 {
                    let path = stream.path + [.index(stream.firstIndex + sentItems[ObjectIdentifier(stream), default: 0])]
                    incremental.append(entry(data: Array("null".utf8), key: "items", path: path, label: stream.label, errors: errors))
                }
                completed.append(["id": .string(ensureID(stream)), "errors": .array(errors.map(\.json))])
                ids[ObjectIdentifier(stream)] = nil
                sentItems[ObjectIdentifier(stream)] = nil
                closed(stream)
            case .finished:
                hasNext = false
            }
        }
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
        return (writer.bytes, hasNext, hasErrors)
    }

    /// The last payload, sent instead of the next one when the answer has to stop early: every
    /// fragment and stream still open fails with `error`, and `hasNext` is false. Built from this
    /// publisher as it stood after the last payload the client got, so it closes exactly what
    /// that client knows is open.
    ///
    /// Why: a stream that merely ends leaves a client waiting on fragments it was promised, and
    /// reports an incomplete answer with no reason; this one says which parts failed, and why.
    mutating func closingPayload(_ error: GraphQLError) -> [UInt8] {
        let events: [IncrementalGraph.Event] = open.map { entry in
            switch entry {
            case .group(let group): .groupFailed(group, [error])
            case .stream(let stream): .streamFailed(stream, [error])
            }
        }
        return subsequentPayload(events + [.finished]).body
    }

    private mutating func opened(_ groups: [DeliveryGroup], _ streams: [ItemStream]) {
        open += groups.map(OpenEntry.group) + streams.map(OpenEntry.stream)
    }

    private mutating func closed(_ node: AnyObject) {
        open.removeAll { $0.node === node }
    }

    // MARK: Entries

    private mutating func pending(_ groups: [DeliveryGroup], _ streams: [ItemStream]) -> [JSONValue] {
        guard format == .v0_2 else { return [] }
        var entries: [JSONValue] = []
        for group in groups { entries.append(pendingEntry(ensureID(group), group.path, group.label)) }
        for stream in streams { entries.append(pendingEntry(ensureID(stream), stream.path, stream.label)) }
        return entries
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
