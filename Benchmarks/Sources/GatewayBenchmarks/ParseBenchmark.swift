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

    /// Child-process mode: parse one file once and report the growth of peak memory
    /// (`VmHWM`), and of resident anonymous memory (`RssAnon`: the heap, without
    /// code pages), as two numbers.
    ///
    /// With `warm`, the engine first parses both kitchen sinks (from the file's
    /// folder), so that the parser's code is already resident: a one-time cost of
    /// the process, not of this document, which a cold measurement counts (about
    /// 1.4 MB of code pages for ours, read in 64 KB fault-around blocks).
    static func measureMemory(engine: String, file: URL, warm: Bool) throws {
        let text = try String(contentsOf: file, encoding: .utf8)
        if warm {
            for name in ["kitchen_sink.graphql", "schema_kitchen_sink.graphql"] {
                let warmUp = try String(contentsOf: file.deletingLastPathComponent().appendingPathComponent(name), encoding: .utf8)
                if engine == "ours" {
                    _ = try GraphQLLanguage.Document(parsing: warmUp)
                } else {
                    _ = try GraphQL.parse(source: GraphQL.Source(body: warmUp))
                }
            }
        }
        let before = peakResidentBytes()
        let anonymousBefore = residentAnonymousBytes()
        // The text is kept alive to the end: released right after the parse (its last
        // use), its 1 MB would leave the resident set and hide as much of the AST.
        try withExtendedLifetime(text) {
            if engine == "ours" {
                let document = try GraphQLLanguage.Document(parsing: text)
                withExtendedLifetime(document) { print(peakResidentBytes() - before, residentAnonymousBytes() - anonymousBefore) }
            } else {
                let document = try GraphQL.parse(source: GraphQL.Source(body: text))
                withExtendedLifetime(document) { print(peakResidentBytes() - before, residentAnonymousBytes() - anonymousBefore) }
            }
        }
    }

    /// Runs the memory measurement for both engines in fresh processes, cold and warm.
    static func reportMemory(benchDirectory: URL) throws {
        let file = benchDirectory.appendingPathComponent("large_query.graphql")
        let size = (try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? 0
        print("\n## Peak memory while parsing large_query (\(grouped(Double(size))) bytes), fresh process each")
        print("Warm: the parser already ran once (on the kitchen sinks), so its code is resident; the")
        print("target (< 4x the input) is read on this row. Cold: the first parse of the process.")
        print("| engine | process | peak growth (VmHWM) | x input size | heap growth (RssAnon) |")
        print("|---|---|---:|---:|---:|")
        for warm in [true, false] {
            for engine in ["ours", "GraphQLSwift"] {
                let process = Process()
                process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
                process.arguments = ["--memory", engine == "ours" ? "ours" : "peer", file.path] + (warm ? ["--warm"] : [])
                let pipe = Pipe()
                process.standardOutput = pipe
                try process.run()
                let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                process.waitUntilExit()
                let figures = output.split(whereSeparator: \.isWhitespace).compactMap { Double($0) }
                let growth = figures.first ?? .nan
                let anonymous = figures.count > 1 ? figures[1] : .nan
                print(
                    "| \(engine) | \(warm ? "warm" : "cold") | \(grouped(growth / 1_048_576, decimals: 1)) MiB "
                        + "| \(grouped(growth / Double(size), decimals: 2)) | \(grouped(anonymous / 1_048_576, decimals: 1)) MiB |")
            }
        }
    }
}
