import Foundation
import Testing
@testable import GraphQLLanguage

/// The parser borrows its scratch stacks and string table from a shared pool
/// (``ParserWorkspace``). What a user must never see: a document that depends
/// on what was parsed before it, or on another thread's parse.
@Suite("Parser workspaces: reused memory never leaks from one parse into another")
struct ParserWorkspaceTests {
    /// A document with lists, long shared strings and block strings, its AST
    /// compared without locations.
    static let reference = """
        query Q($a: [Int!]! = [1, 2], $b: String = "a long enough default string") @d(x: {k: [1, {y: "z"}]}) {
          alias: field(arg: "a long enough default string", other: ENUM_VALUE_WITH_A_LONG_NAME) {
            ...Fragment @include(if: $b)
            ... on Type { nested(list: [[1], [2, 3]]) { leaf } }
          }
        }
        fragment Fragment on Type { x y z }
        \"""
        A description long enough to be shared.
        \"""
        type Type implements A & B @key(fields: "id") { f(a: [String!] = ["x"]): [Type!]! }
        """

    static func parsed(_ text: String) throws -> Document {
        try Document(parsing: text, options: ParseOptions(noLocation: true))
    }

    @Test("a parse after syntax errors part-way through lists gives the same AST as a fresh one")
    func afterErrors() throws {
        let expected = try Self.parsed(Self.reference)
        // Each fails with items on the scratch stacks and strings in the table.
        let broken = [
            #"{ a(x: [1, 2, {k: "a long enough string value"}, "#,
            "{ a { b { c(x: [[[1, 2], [3 }}} ",
            #"type T { f(a: Int = 1, b: "long enough description" String): Int } type"#,
            "query ($a: Int, $b: [String!]! = [\"x\", \"y\"], $c",
            "{ a @d(x: 1) @e(y: [1, 2, 3]) @f(z: ) }",
        ]
        for text in broken {
            #expect(throws: GraphQLSyntaxError.self) { try Self.parsed(text) }
            #expect(try Self.parsed(Self.reference) == expected, "after \(text.debugDescription)")
        }
    }

    @Test("a list of 5,000 items, longer than a pooled stack keeps, parses and is followed by a correct parse")
    func longListThenSmall() throws {
        let items = (0..<5_000).map { "f\($0)" }
        let big = try Self.parsed("{ " + items.joined(separator: " ") + " }")
        guard case .operation(let operation) = big.definitions.first else { Issue.record("no operation"); return }
        #expect(operation.selectionSet.selections.count == 5_000)
        guard case .field(let last) = operation.selectionSet.selections.last else { Issue.record("not a field"); return }
        #expect(last.name.value == "f4999")
        #expect(try Self.parsed(Self.reference) == (try Self.parsed(Self.reference)))
    }

    @Test("documents parsed on many tasks at once equal the same documents parsed one by one")
    func concurrentParses() async throws {
        let texts = (0..<16).map { i in Self.reference.replacingOccurrences(of: "field", with: "field\(i)") }
        let expected = try texts.map { try Self.parsed($0) }
        let results = try await withThrowingTaskGroup(of: (Int, Document).self) { group in
            for round in 0..<8 {
                for (i, text) in texts.enumerated() {
                    group.addTask {
                        // Interleave failures so workspaces go back to the pool in every state.
                        if (i + round) % 3 == 0 { _ = try? Self.parsed(text + " {") }
                        return (i, try Self.parsed(text))
                    }
                }
            }
            var all: [(Int, Document)] = []
            for try await result in group { all.append(result) }
            return all
        }
        #expect(results.count == 16 * 8)
        for (i, document) in results { #expect(document == expected[i]) }
    }

    @Test("a failed parse leaves nothing on the stacks of the workspaces in the pool")
    func failedParseLeavesEmptyStacks() {
        for text in [#"{ a(x: [1, {k: "v"}, "#, "type T { f(a: Int, b: [String!]) : }", "{ a { b { c @d(x: [1, 2 }}}"] {
            #expect(throws: GraphQLSyntaxError.self) { try Self.parsed(text) }
            // Other tests parse at the same time and may hold every workspace just
            // now; the ones that are idle must be empty whatever they parsed last.
            #expect(ParserWorkspacePool.idleState.items == 0, "after \(text.debugDescription)")
        }
    }

    @Test("a scratch stack destroys what is left on it when reset, and everything when freed")
    func scratchStackDestroysItsItems() {
        final class Tracked {
            nonisolated(unsafe) static var alive = 0
            init() { Tracked.alive += 1 }
            deinit { Tracked.alive -= 1 }
        }
        let stack = ScratchStack<Tracked>()
        for _ in 0..<40 { stack.push(Tracked()) }  // grows 16 -> 32 -> 64
        #expect(Tracked.alive == 40)
        let popped = stack.pop(from: 30)
        #expect(popped.count == 10 && stack.count == 30)
        stack.reset(keepingAtMost: 64 * 1024)
        #expect(stack.count == 0)
        #expect(Tracked.alive == 10, "the 30 left on the stack are destroyed, the 10 popped live on")
        for _ in 0..<5 { stack.push(Tracked()) }
        stack.free()
        #expect(Tracked.alive == 10, "the 5 pushed since are destroyed by free()")
        withExtendedLifetime(popped) {}
    }
}
