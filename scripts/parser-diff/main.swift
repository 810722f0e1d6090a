// Differential check of two versions of GraphQLLanguage (run by ../parser-diff-check):
// on every input, mutated from the shared bench documents, both must give the same
// printed document and the same node kinds, names and source ranges, or the same
// syntax error message at the same line and column.
//
// `Old` and `New` are the same module at two commits, so every function below that
// touches the AST exists twice, once per module: their types share names, not a type.
import Foundation
import New
import Old

// MARK: - What a parse gives, as text to compare

func outcomeOld(_ text: String) -> String {
    do {
        let d = try Old.Document(parsing: text)
        return "ok:" + d.printed + "|" + d.definitions.map { "\($0.range.start)-\($0.range.end)" }.joined(separator: ",")
    } catch { return "error:\(error.message)@\(error.location.line):\(error.location.column)" }
}

func outcomeNew(_ text: String) -> String {
    do {
        let d = try New.Document(parsing: text)
        return "ok:" + d.printed + "|" + d.definitions.map { "\($0.range.start)-\($0.range.end)" }.joined(separator: ",")
    } catch { return "error:\(error.message)@\(error.location.line):\(error.location.column)" }
}

// MARK: - Every node's kind, key names and range, in visiting order

struct RangesOld: Old.ASTVisitor {
    var out: [String] = []
    mutating func enter(_ node: Old.ASTNode) -> Old.VisitorAction {
        let r: Old.SourceRange
        let kind: String
        switch node {
        case .document(let n): r = n.range; kind = "doc"
        case .operation(let n): r = n.range; kind = "op"
        case .variableDefinition(let n): r = n.range; kind = "var"
        case .selectionSet(let n): r = n.range; kind = "sel"
        case .field(let n): r = n.range; kind = "field:\(n.name.value)@\(n.name.range.start)-\(n.name.range.end)/\(n.alias?.value ?? "")@\(n.alias?.range.start ?? -1)"
        case .argument(let n): r = n.range; kind = "arg:\(n.name.value)@\(n.name.range.start)-\(n.name.range.end)"
        case .fragmentSpread(let n): r = n.range; kind = "spread"
        case .inlineFragment(let n): r = n.range; kind = "inline"
        case .fragmentDefinition(let n): r = n.range; kind = "frag"
        case .directive(let n): r = n.range; kind = "dir:\(n.name.value)"
        case .value(let n): r = n.range; kind = "value:" + valueKind(n)
        case .objectField(let n): r = n.range; kind = "of:\(n.name.value)@\(n.name.range.start)-\(n.name.range.end)"
        case .type(let n): r = n.range; kind = "type:\(n)"
        case .schemaDefinition(let n): r = n.range; kind = "schema"
        case .schemaExtension(let n): r = n.range; kind = "schemaext"
        case .typeDefinition(let n): r = n.range; kind = "typedef:\(n.name.value)"
        case .typeExtension(let n): r = n.range; kind = "typeext"
        case .fieldDefinition(let n): r = n.range; kind = "fd:\(n.name.value)\(descriptionKind(n.description))"
        case .inputValueDefinition(let n): r = n.range; kind = "ivd:\(n.name.value)\(descriptionKind(n.description))"
        case .enumValueDefinition(let n): r = n.range; kind = "evd"
        case .directiveDefinition(let n): r = n.range; kind = "dd\(n.locations.map(\.value))\(n.isRepeatable)"
        }
        out.append(kind + "@\(r.start)-\(r.end)")
        return .continue
    }
}
func rangesOld(_ text: String) -> String {
    guard let d = try? Old.Document(parsing: text) else { return "" }
    var v = RangesOld()
    Old.walk(d, &v)
    return v.out.joined(separator: "\n").replacingOccurrences(of: "Old.", with: "")
}

struct RangesNew: New.ASTVisitor {
    var out: [String] = []
    mutating func enter(_ node: New.ASTNode) -> New.VisitorAction {
        let r: New.SourceRange
        let kind: String
        switch node {
        case .document(let n): r = n.range; kind = "doc"
        case .operation(let n): r = n.range; kind = "op"
        case .variableDefinition(let n): r = n.range; kind = "var"
        case .selectionSet(let n): r = n.range; kind = "sel"
        case .field(let n): r = n.range; kind = "field:\(n.name.value)@\(n.name.range.start)-\(n.name.range.end)/\(n.alias?.value ?? "")@\(n.alias?.range.start ?? -1)"
        case .argument(let n): r = n.range; kind = "arg:\(n.name.value)@\(n.name.range.start)-\(n.name.range.end)"
        case .fragmentSpread(let n): r = n.range; kind = "spread"
        case .inlineFragment(let n): r = n.range; kind = "inline"
        case .fragmentDefinition(let n): r = n.range; kind = "frag"
        case .directive(let n): r = n.range; kind = "dir:\(n.name.value)"
        case .value(let n): r = n.range; kind = "value:" + valueKind(n)
        case .objectField(let n): r = n.range; kind = "of:\(n.name.value)@\(n.name.range.start)-\(n.name.range.end)"
        case .type(let n): r = n.range; kind = "type:\(n)"
        case .schemaDefinition(let n): r = n.range; kind = "schema"
        case .schemaExtension(let n): r = n.range; kind = "schemaext"
        case .typeDefinition(let n): r = n.range; kind = "typedef:\(n.name.value)"
        case .typeExtension(let n): r = n.range; kind = "typeext"
        case .fieldDefinition(let n): r = n.range; kind = "fd:\(n.name.value)\(descriptionKind(n.description))"
        case .inputValueDefinition(let n): r = n.range; kind = "ivd:\(n.name.value)\(descriptionKind(n.description))"
        case .enumValueDefinition(let n): r = n.range; kind = "evd"
        case .directiveDefinition(let n): r = n.range; kind = "dd\(n.locations.map(\.value))\(n.isRepeatable)"
        }
        out.append(kind + "@\(r.start)-\(r.end)")
        return .continue
    }
}
func rangesNew(_ text: String) -> String {
    guard let d = try? New.Document(parsing: text) else { return "" }
    var v = RangesNew()
    New.walk(d, &v)
    return v.out.joined(separator: "\n").replacingOccurrences(of: "New.", with: "")
}

// MARK: - Inputs: the bench documents with 1-4 random edits each

/// SplitMix64 with a fixed seed, so a mismatch can be replayed.
nonisolated(unsafe) var seed: UInt64 = 20261122
func next() -> UInt64 {
    seed &+= 0x9E37_79B9_7F4A_7C15
    var z = seed
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
}

let directory = CommandLine.arguments[1]
let rounds = Int(CommandLine.arguments[2]) ?? 20000
let files = ["kitchen_sink.graphql", "schema_kitchen_sink.graphql", "social_query.graphql", "social_schema.graphql"]
    + (CommandLine.arguments.count > 3 ? ["large_query.graphql"] : [])
let bases = files.map { try! String(contentsOfFile: directory + "/" + $0, encoding: .utf8) }
/// Tokens and fragments that reach the lexer's and parser's edge cases.
let snippets = [
    "{", "}", "(", ")", "[", "]", "\"", "\"\"\"", "\\\"\"\"", "\\u{1F600}", "\\uD83D\\uDE00", "\\u12", "\n", "\r\n", "\r",
    " ", "\t", ",", "#c\n", "...", "..", "@", "$", ":", "=", "!", "|", "&", "1", "1.5e3", "1e", "0x1", "-", "é", "😀",
    "on", "type", "extend", "schema", "query", "fragment", "true", "null", "scalar", "input", "enum", "union",
    "interface", "directive", "repeatable", "implements", "aVeryLongNameBeyondFifteen", "abcdefghijklmno",
    "\"a long enough string here\"", "\u{FEFF}", "'",
]

var mismatches = 0
var parsed = 0
var failed = 0
for round in 0..<rounds {
    var bytes = Array(bases[Int(next() % UInt64(bases.count))].utf8)
    for _ in 0..<(1 + Int(next() % 4)) {
        let position = bytes.isEmpty ? 0 : Int(next() % UInt64(bytes.count))
        switch next() % 3 {
        case 0: bytes.removeSubrange(position..<min(bytes.count, position + Int(next() % 8)))
        case 1: bytes.insert(contentsOf: Array(snippets[Int(next() % UInt64(snippets.count))].utf8), at: position)
        default: if round % 5 == 0 { bytes.removeSubrange(position..<bytes.count) }
        }
    }
    guard let text = String(validating: bytes, as: UTF8.self) else { continue }
    let old = outcomeOld(text)
    let new = outcomeNew(text)
    if old.hasPrefix("ok:") { parsed += 1 } else { failed += 1 }
    guard old != new || (old.hasPrefix("ok:") && rangesOld(text) != rangesNew(text)) else { continue }
    mismatches += 1
    if mismatches <= 5 {
        let oldNodes = rangesOld(text).split(separator: "\n")
        let newNodes = rangesNew(text).split(separator: "\n")
        let firstDifference = zip(oldNodes, newNodes).first { $0 != $1 }
        print("MISMATCH round \(round): input \(text.debugDescription.prefix(400))")
        print("  old: \(old.prefix(200))\n  new: \(new.prefix(200))\n  first node difference: \(String(describing: firstDifference))")
    }
}
print("rounds \(rounds): parsed \(parsed), syntax errors \(failed), mismatches \(mismatches)")
exit(mismatches == 0 ? 0 : 1)

// MARK: - Values by what they mean, not by their stored layout (which `\(value)` prints)

func valueKind(_ value: Old.Value) -> String {
    switch value {
    case .variable(let v): "var:\(v.name.value)@\(v.name.range.start)-\(v.name.range.end)"
    case .int(let v): "int:\(v.value)"
    case .float(let v): "float:\(v.value)"
    case .string(let v): "string:\(v.value.debugDescription)/\(v.isBlock)"
    case .boolean(let v): "bool:\(v.value)"
    case .null: "null"
    case .enumValue(let v): "enum:\(v.value)"
    case .list(let v): "list:\(v.values.count)"
    case .object(let v): "object:\(v.fields.count)"
    }
}

func valueKind(_ value: New.Value) -> String {
    switch value {
    case .variable(let v): "var:\(v.name.value)@\(v.name.range.start)-\(v.name.range.end)"
    case .int(let v): "int:\(v.value)"
    case .float(let v): "float:\(v.value)"
    case .string(let v): "string:\(v.value.debugDescription)/\(v.isBlock)"
    case .boolean(let v): "bool:\(v.value)"
    case .null: "null"
    case .enumValue(let v): "enum:\(v.value)"
    case .list(let v): "list:\(v.values.count)"
    case .object(let v): "object:\(v.fields.count)"
    }
}

func descriptionKind(_ description: Old.StringValue?) -> String {
    description.map { "\"\($0.value.debugDescription)/\($0.isBlock)@\($0.range.start)-\($0.range.end)\"" } ?? "-"
}

func descriptionKind(_ description: New.StringValue?) -> String {
    description.map { "\"\($0.value.debugDescription)/\($0.isBlock)@\($0.range.start)-\($0.range.end)\"" } ?? "-"
}
