import Foundation
import GraphQL
import GraphQLLanguage

/// Parse throughput of our parser beside GraphQLSwift 4.3.0 on the shared inputs.
enum ParseBenchmark {
    static let inputs = ["kitchen_sink.graphql", "schema_kitchen_sink.graphql", "social_query.graphql", "large_query.graphql"]

    static func run(benchDirectory: URL) throws {
        print("## Parse (median of 5 passes, release build)")
        print("| input | bytes | ours ops/s | ours MB/s | GraphQLSwift ops/s | GraphQLSwift MB/s | ratio |")
        print("|---|---:|---:|---:|---:|---:|---:|")
        for name in inputs {
            let text = BenchInputs.read(name, in: benchDirectory)
            let bytes = Double(text.utf8.count)
            let source = GraphQLLanguage.Source(text)
            let ours = try Stopwatch.secondsPerOp {
                _ = try GraphQLLanguage.Document(parsing: source)
            }
            let peerSource = GraphQL.Source(body: text)
            let peer = try Stopwatch.secondsPerOp(passes: name == "large_query.graphql" ? 3 : 5) {
                _ = try GraphQL.parse(source: peerSource)
            }
            print(
                "| \(name) | \(grouped(bytes)) | \(grouped(1 / ours)) | \(grouped(bytes / ours / 1e6, decimals: 1)) "
                    + "| \(grouped(1 / peer)) | \(grouped(bytes / peer / 1e6, decimals: 1)) | \(grouped(peer / ours, decimals: 1))x |")
        }
    }

    /// Child-process mode: parse one file once and report the growth of peak memory.
    static func measureMemory(engine: String, file: URL) throws {
        let text = try String(contentsOf: file, encoding: .utf8)
        let before = peakResidentBytes()
        if engine == "ours" {
            let document = try GraphQLLanguage.Document(parsing: text)
            withExtendedLifetime(document) { print(peakResidentBytes() - before) }
        } else {
            let document = try GraphQL.parse(source: GraphQL.Source(body: text))
            withExtendedLifetime(document) { print(peakResidentBytes() - before) }
        }
    }

    /// Runs the memory measurement for both engines in fresh processes.
    static func reportMemory(benchDirectory: URL) throws {
        let file = benchDirectory.appendingPathComponent("large_query.graphql")
        let size = (try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? 0
        print("\n## Peak memory while parsing large_query (\(grouped(Double(size))) bytes), fresh process each")
        print("| engine | peak growth | x input size |")
        print("|---|---:|---:|")
        for engine in ["ours", "GraphQLSwift"] {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
            process.arguments = ["--memory", engine == "ours" ? "ours" : "peer", file.path]
            let pipe = Pipe()
            process.standardOutput = pipe
            try process.run()
            let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            let growth = Double(output.trimmingCharacters(in: .whitespacesAndNewlines)) ?? .nan
            print("| \(engine) | \(grouped(growth / 1_048_576, decimals: 1)) MiB | \(grouped(growth / Double(size), decimals: 2)) |")
        }
    }
}
