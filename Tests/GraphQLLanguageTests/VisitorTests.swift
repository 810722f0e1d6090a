import Testing
@testable import GraphQLLanguage

@Suite("Visitor: depth-first traversal for later layers")
struct VisitorTests {
    struct Recorder: ASTVisitor {
        var events: [String] = []
        var skipFieldsNamed: String? = nil
        var stopAtField: String? = nil

        mutating func enter(_ node: ASTNode) -> VisitorAction {
            switch node {
            case .field(let f):
                events.append("enter \(f.name.value)")
                if f.name.value == stopAtField { return .stop }
                if f.name.value == skipFieldsNamed { return .skipChildren }
            case .fragmentSpread(let s): events.append("spread \(s.name.value)")
            case .value(let v): events.append("value \(Printer.print(v))")
            case .type(let t): events.append("type \(t)")
            case .fieldDefinition(let f): events.append("fieldDef \(f.name.value)")
            default: break
            }
            return .continue
        }

        mutating func leave(_ node: ASTNode) {
            if case .field(let f) = node { events.append("leave \(f.name.value)") }
        }
    }

    @Test("enter and leave come in document order, with arguments before sub-selections")
    func order() throws {
        let document = try Document(parsing: "query ($v: [Int]) { a(x: [1]) { b ...F } } fragment F on T { c }")
        var recorder = Recorder()
        walk(document, &recorder)
        #expect(recorder.events == [
            "type [Int]", "type Int", "enter a", "value [1]", "value 1", "enter b", "leave b", "spread F",
            "leave a", "type T", "enter c", "leave c",
        ])
    }

    @Test("skipChildren skips a subtree but still leaves; stop ends the walk")
    func control() throws {
        let document = try Document(parsing: "{ a { b } c { d } }")
        var skipper = Recorder(skipFieldsNamed: "a")
        walk(document, &skipper)
        #expect(skipper.events == ["enter a", "leave a", "enter c", "enter d", "leave d", "leave c"])
        var stopper = Recorder(stopAtField: "b")
        walk(document, &stopper)
        #expect(stopper.events == ["enter a", "enter b"])
    }

    @Test("type-system definitions are visited too")
    func typeSystem() throws {
        let document = try Document(parsing: "type T { f(a: Int = 1): [String!] }")
        var recorder = Recorder()
        walk(document, &recorder)
        #expect(recorder.events == ["fieldDef f", "type Int", "value 1", "type [String!]", "type String!", "type String"])
    }
}
