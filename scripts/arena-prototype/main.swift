// The arena prototype (ArenaParser.swift) beside the value-type AST of
// Sources/GraphQLLanguage and GraphQLSwift 4.3.0, on the shared bench inputs
// (run by ../arena-prototype-bench). Both of ours are the same lexer; what differs is
// what the parser builds. Method as Benchmarks/: median of 5 timed passes of ~0.4 s.
import ArenaLang
import Foundation
import GraphQL
import GraphQLLanguage

func secondsPerOp(passes: Int = 5, seconds: Double = 0.4, _ body: () throws -> Void) rethrows -> Double {
    func time(_ n: Int) throws -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        for _ in 0..<n { try body() }
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }
    var iterations = 1
    while true {
        let t = try time(iterations)
        if t > seconds / 4 || iterations > 1 << 24 {
            iterations = max(1, Int(Double(iterations) * seconds / max(t, 1e-9)))
            break
        }
        iterations *= 4
    }
    var samples: [Double] = []
    for _ in 0..<passes { samples.append(try time(iterations) / Double(iterations)) }
    return samples.sorted()[passes / 2]
}

/// The value AST's node counts, by the rules of `ArenaDocument.census()`.
func census(of document: GraphQLLanguage.Document) -> Census {
    var c = Census()
    func name(_ n: GraphQLLanguage.Name?) { if let n { c.names += n.value.utf8.count } }
    func value(_ v: GraphQLLanguage.Value?) {
        guard let v else { return }
        c.values += 1
        if case .list(let l) = v { l.values.forEach { value($0) } }
        if case .object(let o) = v { for f in o.fields { name(f.name); value(f.value) } }
    }
    func description(_ s: GraphQLLanguage.StringValue?) { if s != nil { c.values += 1 } }
    func arguments(_ a: [GraphQLLanguage.Argument]) { for x in a { c.arguments += 1; name(x.name); value(x.value) } }
    func directives(_ d: [GraphQLLanguage.Directive]) { for x in d { c.directives += 1; name(x.name); arguments(x.arguments) } }
    func selections(_ s: [GraphQLLanguage.Selection]) {
        for x in s {
            switch x {
            case .field(let f):
                c.fields += 1
                name(f.alias); name(f.name); arguments(f.arguments); directives(f.directives)
                selections(f.selectionSet?.selections ?? [])
            case .fragmentSpread(let f): c.spreads += 1; name(f.name); directives(f.directives)
            case .inlineFragment(let f):
                c.inlines += 1
                name(f.typeCondition?.name); directives(f.directives); selections(f.selectionSet.selections)
            }
        }
    }
    func type(_ t: GraphQLLanguage.TypeReference) { name(t.namedType.name) }
    func inputs(_ a: [GraphQLLanguage.InputValueDefinition]) {
        for v in a {
            c.inputValues += 1
            description(v.description); name(v.name); type(v.type); value(v.defaultValue); directives(v.directives)
        }
    }
    func fields(_ a: [GraphQLLanguage.FieldDefinition]) {
        for f in a {
            c.fieldDefinitions += 1
            description(f.description); name(f.name); inputs(f.arguments); type(f.type); directives(f.directives)
        }
    }
    func typeDefinition(_ t: GraphQLLanguage.TypeDefinition) {
        c.typeDefinitions += 1
        switch t {
        case .scalar(let s): description(s.description); name(s.name); directives(s.directives)
        case .object(let o):
            description(o.description); name(o.name); o.interfaces.forEach { name($0.name) }; directives(o.directives); fields(o.fields)
        case .interface(let o):
            description(o.description); name(o.name); o.interfaces.forEach { name($0.name) }; directives(o.directives); fields(o.fields)
        case .union(let u): description(u.description); name(u.name); directives(u.directives); u.types.forEach { name($0.name) }
        case .enumType(let e):
            description(e.description); name(e.name); directives(e.directives)
            for v in e.values { c.enumValues += 1; description(v.description); name(v.name); directives(v.directives) }
        case .inputObject(let i): description(i.description); name(i.name); directives(i.directives); inputs(i.fields)
        }
    }
    for d in document.definitions {
        c.definitions += 1
        switch d {
        case .operation(let o):
            description(o.description); name(o.name)
            for v in o.variableDefinitions {
                c.variables += 1
                description(v.description); name(v.variable.name); type(v.type); value(v.defaultValue); directives(v.directives)
            }
            directives(o.directives); selections(o.selectionSet.selections)
        case .fragment(let f):
            description(f.description); name(f.name); name(f.typeCondition.name); directives(f.directives)
            selections(f.selectionSet.selections)
        case .schema(let s): description(s.description); directives(s.directives); s.operationTypes.forEach { name($0.type.name) }
        case .schemaExtension(let s): directives(s.directives); s.operationTypes.forEach { name($0.type.name) }
        case .type(let t): typeDefinition(t)
        case .typeExtension(let t): typeDefinition(t.definition)
        case .directive(let dd): description(dd.description); name(dd.name); inputs(dd.arguments); dd.locations.forEach { name($0) }
        }
    }
    return c
}

let bench = CommandLine.arguments.count > 1 ? CommandLine.arguments[1] : "../shared/bench"
let inputs = ["kitchen_sink.graphql", "schema_kitchen_sink.graphql", "social_query.graphql", "large_query.graphql"]
print("| input | value AST ops/s | arena ops/s | arena MB/s | arena / value AST | GraphQLSwift ops/s | value AST / GraphQLSwift | arena / GraphQLSwift | arena node bytes |")
print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
var failed = false
for name in inputs {
    let text = try String(contentsOfFile: bench + "/" + name, encoding: .utf8)
    let bytes = Double(text.utf8.count)
    let arenaSource = ArenaLang.Source(text)
    let valueSource = GraphQLLanguage.Source(text)
    let arenaDocument = try ArenaDocument.parse(arenaSource)
    let arenaCensus = arenaDocument.census()
    let valueCensus = census(of: try GraphQLLanguage.Document(parsing: valueSource))
    guard arenaCensus == valueCensus else {
        print("\(name): the arena tree differs from the value AST\n  arena \(arenaCensus)\n  value \(valueCensus)")
        failed = true
        continue
    }
    let value = try secondsPerOp { _ = try GraphQLLanguage.Document(parsing: valueSource) }
    let arena = try secondsPerOp { _ = try ArenaDocument.parse(arenaSource) }
    let peerSource = GraphQL.Source(body: text)
    let peer = try secondsPerOp(passes: name == "large_query.graphql" ? 3 : 5) { _ = try GraphQL.parse(source: peerSource) }
    func f(_ x: Double, _ d: Int = 0) -> String { String(format: "%.\(d)f", x) }
    print(
        "| \(name) | \(f(1 / value)) | \(f(1 / arena)) | \(f(bytes / arena / 1e6, 1)) | \(f(value / arena, 2))x | \(f(1 / peer)) "
            + "| \(f(peer / value, 1))x | \(f(peer / arena, 1))x | \(arenaDocument.nodeBytes) (\(f(Double(arenaDocument.nodeBytes) / bytes, 2))x input) |")
}
if failed { exit(1) }
