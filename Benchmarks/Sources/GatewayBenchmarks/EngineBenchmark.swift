import Foundation
import GraphQL
import GraphQLEngine
import GraphQLLanguage
import GraphQLValidation

/// Validation and execution of `social_query` on the bench dataset: ours beside GraphQLSwift.
enum EngineBenchmark {
    static func run(benchDirectory: URL) async throws {
        let sdl = BenchInputs.read("social_schema.graphql", in: benchDirectory)
        let queryText = BenchInputs.read("social_query.graphql", in: benchDirectory)
        let expected = BenchInputs.read("expected_social_response.json", in: benchDirectory)
        let data = SocialBenchData()

        // Ours
        let schema = try data.bind(try SchemaBuilder.build(sdl: sdl))
        let variables: JSONObject = ["first": 50, "nestedFirst": 10, "after": nil, "withBio": true]
        let source = GraphQLLanguage.Source(queryText)
        let document = try GraphQLLanguage.Document(parsing: source)
        func full() async throws -> [UInt8] {
            let source = GraphQLLanguage.Source(queryText)
            let document = try GraphQLLanguage.Document(parsing: source)
            guard Validator.validate(schema: schema, document: document, source: source).isEmpty else { fatalError("invalid") }
            return await Executor.execute(
                schema: schema, request: GraphQLRequest(document: document, source: source, variables: variables)
            ).serialized()
        }
        let bytes = try await full()
        guard String(decoding: bytes, as: UTF8.self) == expected.trimmingCharacters(in: .newlines) else {
            fatalError("our response differs from expected_social_response.json")
        }

        // GraphQLSwift
        let peerSDLSchema = try GraphQL.buildSchema(source: sdl)
        let peerSchema = try PeerSocialSchema.make(data)
        let peerDocument = try GraphQL.parse(source: GraphQL.Source(body: queryText))
        let peerVariables: [String: Map] = ["first": .number(50), "nestedFirst": .number(10), "after": .null, "withBio": .bool(true)]
        let peerCheck = try await GraphQL.graphql(schema: peerSchema, request: queryText, variableValues: peerVariables)
        guard peerCheck.errors.isEmpty else { fatalError("GraphQLSwift failed: \(peerCheck.errors)") }

        print("\n## Validate and execute social_query (median of 5 passes, release build)")
        print("| workload | ours ops/s | GraphQLSwift ops/s | ratio |")
        print("|---|---:|---:|---:|")
        let validateOurs = Stopwatch.secondsPerOp { _ = Validator.validate(schema: schema, document: document, source: source) }
        let validatePeer = Stopwatch.secondsPerOp(passes: 3, seconds: 1) { _ = GraphQL.validate(schema: peerSDLSchema, ast: peerDocument) }
        row("validate (all rules)", validateOurs, validatePeer)
        let executeOurs = try await asyncSecondsPerOp {
            _ = await Executor.execute(schema: schema, request: GraphQLRequest(document: document, source: source, variables: variables)).serialized()
        }
        let fullOurs = try await asyncSecondsPerOp { _ = try await full() }
        let fullPeer = try await asyncSecondsPerOp(passes: 3, seconds: 1) {
            _ = try await GraphQL.graphql(schema: peerSchema, request: queryText, variableValues: peerVariables)
        }
        row("execute + serialize, pre-parsed (ours)", executeOurs, nil)
        row("parse + validate + execute + serialize", fullOurs, fullPeer)
    }

    static func row(_ name: String, _ ours: Double, _ peer: Double?) {
        let peerText = peer.map { grouped(1 / $0, decimals: 1) } ?? "—"
        let ratio = peer.map { grouped($0 / ours, decimals: 1) + "x" } ?? "—"
        print("| \(name) | \(grouped(1 / ours)) | \(peerText) | \(ratio) |")
    }

    /// `Stopwatch.secondsPerOp` for async work.
    static func asyncSecondsPerOp(passes: Int = 5, seconds: Double = 0.5, _ body: () async throws -> Void) async throws -> Double {
        var iterations = 1
        while true {
            let t = try await time(iterations, body)
            if t > seconds / 4 || iterations > 1 << 20 {
                iterations = max(1, Int(Double(iterations) * seconds / max(t, 1e-9)))
                break
            }
            iterations *= 4
        }
        var samples: [Double] = []
        for _ in 0..<passes { samples.append(try await time(iterations, body) / Double(iterations)) }
        return samples.sorted()[samples.count / 2]
    }

    static func time(_ iterations: Int, _ body: () async throws -> Void) async throws -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        for _ in 0..<iterations { try await body() }
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }

    /// Child-process mode: 20 full executions, then the growth of peak memory.
    static func measureMemory(engine: String, benchDirectory: URL) async throws {
        let sdl = BenchInputs.read("social_schema.graphql", in: benchDirectory)
        let queryText = BenchInputs.read("social_query.graphql", in: benchDirectory)
        let data = SocialBenchData()
        let before = peakResidentBytes()
        if engine == "ours" {
            let schema = try data.bind(try SchemaBuilder.build(sdl: sdl))
            for _ in 0..<20 {
                let source = GraphQLLanguage.Source(queryText)
                let document = try GraphQLLanguage.Document(parsing: source)
                _ = Validator.validate(schema: schema, document: document, source: source)
                _ = await Executor.execute(
                    schema: schema,
                    request: GraphQLRequest(document: document, source: source, variables: ["first": 50, "nestedFirst": 10, "withBio": true])
                ).serialized()
            }
        } else {
            let schema = try PeerSocialSchema.make(data)
            for _ in 0..<20 {
                _ = try await GraphQL.graphql(
                    schema: schema, request: queryText, variableValues: ["first": .number(50), "nestedFirst": .number(10), "withBio": .bool(true)])
            }
        }
        print(peakResidentBytes() - before)
    }
}
