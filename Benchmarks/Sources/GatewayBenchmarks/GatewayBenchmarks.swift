import Foundation
import GraphQLEngine
import GraphQLLanguage

/// `gateway-benchmarks [--bench-dir DIR] [parse]`: prints Markdown tables of our
/// engine beside GraphQLSwift 4.3.0, measured in the same run.
/// Peak memory of 20 full executions in a fresh process per engine.
func reportExecutionMemory(_ directory: URL) {
    print("\n## Peak memory growth over 20 full executions of social_query, fresh process each")
    print("| engine | peak growth |")
    print("|---|---:|")
    for engine in ["ours", "GraphQLSwift"] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        process.arguments = ["--exec-memory", engine == "ours" ? "ours" : "peer", "--bench-dir", directory.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        guard (try? process.run()) != nil else { continue }
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let growth = Double(output.trimmingCharacters(in: .whitespacesAndNewlines)) ?? .nan
        print("| \(engine) | \(grouped(growth / 1_048_576, decimals: 1)) MiB |")
    }
}

@main
enum GatewayBenchmarks {
    static func main() async throws {
        let arguments = CommandLine.arguments
        if let i = arguments.firstIndex(of: "--exec-memory"), i + 1 < arguments.count {
            try await EngineBenchmark.measureMemory(engine: arguments[i + 1], benchDirectory: BenchInputs.directory(arguments: arguments))
            return
        }
        if let i = arguments.firstIndex(of: "--memory"), i + 2 < arguments.count {
            try ParseBenchmark.measureMemory(
                engine: arguments[i + 1], file: URL(fileURLWithPath: arguments[i + 2]), warm: arguments.contains("--warm"))
            return
        }
        if let i = arguments.firstIndex(of: "--profile-parse"), i + 1 < arguments.count {
            // For `perf record`: our parser alone, over and over (about 200 MB of input,
            // so that small documents run long enough to sample too).
            let source = GraphQLLanguage.Source(try String(contentsOf: URL(fileURLWithPath: arguments[i + 1]), encoding: .utf8))
            // PARSE_ITERATIONS overrides the count (valgrind/heaptrack runs want a few hundred).
            let iterations = ProcessInfo.processInfo.environment["PARSE_ITERATIONS"].flatMap { Int($0) }
                ?? max(200, 200_000_000 / max(1, source.body.utf8.count))
            for _ in 0..<iterations {
                _ = try GraphQLLanguage.Document(parsing: source)
            }
            return
        }
        if let i = arguments.firstIndex(of: "--census"), i + 1 < arguments.count {
            let source = GraphQLLanguage.Source(try String(contentsOf: URL(fileURLWithPath: arguments[i + 1]), encoding: .utf8))
            ParseCensus.run(try GraphQLLanguage.Document(parsing: source))
            return
        }
        if arguments.contains("--json-keys") {
            JSONBenchmark.run()
            return
        }
        if arguments.contains("--layouts") {
            print("Selection", MemoryLayout<Selection>.stride, "Field", MemoryLayout<Field>.stride,
                  "Name", MemoryLayout<Name>.stride, "Name?", MemoryLayout<Name?>.stride,
                  "Value", MemoryLayout<GraphQLLanguage.Value>.stride, "Argument", MemoryLayout<GraphQLLanguage.Argument>.stride,
                  "ObjectField", MemoryLayout<ObjectField>.stride, "SelectionSet?", MemoryLayout<SelectionSet?>.stride,
                  "Directive", MemoryLayout<GraphQLLanguage.Directive>.stride, "InlineFragment", MemoryLayout<InlineFragment>.stride,
                  "Definition", MemoryLayout<Definition>.stride, "OperationDefinition", MemoryLayout<OperationDefinition>.stride,
                  "TypeDefinition", MemoryLayout<TypeDefinition>.stride, "FieldDefinition", MemoryLayout<FieldDefinition>.stride,
                  "InputValueDefinition", MemoryLayout<InputValueDefinition>.stride, "StringValue?", MemoryLayout<StringValue?>.stride,
                  "Value size", MemoryLayout<GraphQLLanguage.Value>.size, "Variable", MemoryLayout<Variable>.size)
            return
        }
        let directory = BenchInputs.directory(arguments: arguments)
        if arguments.contains("--profile-execute") {
            // For `perf record`: our executor alone, over and over.
            let schema = try SocialBenchData().bind(
                try SchemaBuilder.build(sdl: BenchInputs.read("social_schema.graphql", in: directory)))
            let source = GraphQLLanguage.Source(BenchInputs.read("social_query.graphql", in: directory))
            let document = try GraphQLLanguage.Document(parsing: source)
            for _ in 0..<400 {
                _ = await Executor.execute(
                    schema: schema,
                    request: GraphQLRequest(document: document, source: source, variables: ["first": 50, "nestedFirst": 10, "withBio": true])
                ).serialized()
            }
            return
        }
        let selected = Set(arguments.dropFirst().filter { !$0.hasPrefix("-") && !$0.contains("/") })
        func wants(_ name: String) -> Bool { selected.isEmpty || selected.contains(name) }
        print("# social-gateway benchmarks (\(ProcessInfo.processInfo.processorCount) cores)\n")
        if wants("parse") {
            try ParseBenchmark.run(benchDirectory: directory)
            try ParseBenchmark.reportMemory(benchDirectory: directory)
        }
        if wants("engine") {
            try await EngineBenchmark.run(benchDirectory: directory)
            reportExecutionMemory(directory)
        }
        if wants("cache") {
            try await CacheBenchmark.run(repositoryDirectory: BenchInputs.repository)
        }
    }
}
