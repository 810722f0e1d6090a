import GraphQLLanguage

/// `--census FILE`: what a parsed document is made of (lists by kind, heap strings),
/// to estimate where the parse's heap goes. An estimate: 32-byte array and string headers,
/// malloc rounding to 16 bytes plus 8 bytes of chunk header.
struct ParseCensus: ASTVisitor {
    var lists: [String: (count: Int, items: Int, bytes: Int)] = [:]
    var nodes: [String: Int] = [:]
    var heapStrings: Set<String> = []
    var heapStringRefs = 0

    static func malloc(_ n: Int) -> Int { max(32, (n + 8 + 15) / 16 * 16) }

    mutating func list<C: Collection>(_ name: String, _ array: C) {
        guard !array.isEmpty else { return }
        var e = lists[name] ?? (0, 0, 0)
        e.count += 1; e.items += array.count
        e.bytes += Self.malloc(32 + array.count * MemoryLayout<C.Element>.stride)
        lists[name] = e
    }
    mutating func string(_ s: String) {
        guard s.utf8.count > 15 else { return }
        heapStringRefs += 1
        heapStrings.insert(s)
    }

    mutating func enter(_ node: ASTNode) -> VisitorAction {
        switch node {
        case .selectionSet(let s): list("selections", s.selections); nodes["SelectionSet", default: 0] += 1
        case .field(let f):
            list("field.arguments", f.arguments); list("field.directives", f.directives)
            nodes["Field", default: 0] += 1; string(f.name.value); if let a = f.alias { string(a.value) }
        case .directive(let d): list("directive.arguments", d.arguments); nodes["Directive", default: 0] += 1
        case .fragmentSpread(let s): list("spread.directives", s.directives)
        case .inlineFragment(let s): list("inline.directives", s.directives)
        case .fragmentDefinition(let s): list("fragment.directives", s.directives)
        case .operation(let o): list("operation.variables", o.variableDefinitions); list("operation.directives", o.directives)
        case .argument: nodes["Argument", default: 0] += 1
        case .value(let v):
            nodes["Value", default: 0] += 1
            switch v {
            case .list(let l): list("list.values", l.values)
            case .object(let o): list("object.fields", o.fields)
            case .string(let s): string(s.value)
            case .enumValue(let e): string(e.value)
            default: break
            }
        default: break
        }
        return .continue
    }

    static func run(_ document: Document) {
        var census = ParseCensus()
        walk(document, &census)
        var total = 0
        for (name, e) in census.lists.sorted(by: { $0.value.bytes > $1.value.bytes }) {
            print(name, "lists", e.count, "items", e.items, "bytes", e.bytes, "header+malloc", e.count * 40)
            total += e.bytes
        }
        let stringBytes = census.heapStrings.reduce(0) { $0 + malloc(32 + $1.utf8.count + 1) }
        print("heap strings", census.heapStrings.count, "unique of", census.heapStringRefs, "bytes", stringBytes)
        print("nodes", census.nodes.sorted { $0.key < $1.key })
        print("list bytes", total, "total estimate", total + stringBytes + document.definitions.count * MemoryLayout<Definition>.stride)
    }
}
