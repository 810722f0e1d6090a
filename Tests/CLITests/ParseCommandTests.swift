import Foundation
import Testing

@Suite("social-gateway graphql parse")
struct ParseCommandTests {
    @Test("a valid document exits 0 and prints nothing")
    func valid() async throws {
        let file = try CLIRunner.temporaryFile(Data("type Query { a: Int }\nquery Q { a }".utf8))
        let result = try await CLIRunner.run(["graphql", "parse", file])
        #expect(result.status == 0)
        #expect(result.stdout == "")
    }

    @Test("an invalid document exits 1 with exactly the GraphQL error JSON on stdout")
    func invalid() async throws {
        let file = try CLIRunner.temporaryFile(Data("query {\n  viewer {\n    handle\n".utf8))
        let result = try await CLIRunner.run(["graphql", "parse", file])
        #expect(result.status == 1)
        #expect(result.stdout == #"{"errors":[{"message":"Syntax Error: Expected Name, found <EOF>.","locations":[{"line":4,"column":1}]}]}"# + "\n")
    }

    @Test("quotes and backslashes in the message are escaped as JSON")
    func jsonEscaping() async throws {
        let file = try CLIRunner.temporaryFile(Data(#"{ f(a: "\q") }"#.utf8))
        let result = try await CLIRunner.run(["graphql", "parse", file])
        #expect(result.status == 1)
        #expect(result.stdout == #"{"errors":[{"message":"Syntax Error: Invalid character escape sequence: \"\\q\".","locations":[{"line":1,"column":9}]}]}"# + "\n")
    }

    @Test("--print prints the canonical form")
    func printCanonical() async throws {
        let file = try CLIRunner.temporaryFile(Data("query Q{viewer{handle # c\n}}".utf8))
        let result = try await CLIRunner.run(["graphql", "parse", "--print", file])
        #expect(result.status == 0)
        #expect(result.stdout == "query Q {\n  viewer {\n    handle\n  }\n}\n")
    }

    @Test("invalid UTF-8 exits 1 with a located error")
    func invalidUTF8() async throws {
        let file = try CLIRunner.temporaryFile(Data([0x7B, 0x20, 0xFF, 0x20, 0x7D]))
        let result = try await CLIRunner.run(["graphql", "parse", file])
        #expect(result.status == 1)
        #expect(result.stdout == #"{"errors":[{"message":"Syntax Error: Invalid UTF-8 byte 0xFF.","locations":[{"line":1,"column":3}]}]}"# + "\n")
    }

    @Test("the depth limit is a flag and its error is reported like any syntax error")
    func depthFlag() async throws {
        let file = try CLIRunner.temporaryFile(Data("{ a { b { c } } }".utf8))
        let result = try await CLIRunner.run(["graphql", "parse", "--max-depth", "2", file])
        #expect(result.status == 1)
        #expect(result.stdout.contains("Document is nested more than 2 levels deep"))
    }

    @Test("standard input is read for '-'")
    func stdin() async throws {
        let result = try await CLIRunner.run(["graphql", "parse", "-"], stdin: Data("{ a }".utf8))
        #expect(result.status == 0)
    }

    @Test("a missing file is a usage error (exit 2), not a syntax error")
    func missingFile() async throws {
        let result = try await CLIRunner.run(["graphql", "parse", "/nonexistent/x.graphql"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("cannot read /nonexistent/x.graphql"))
    }
}
