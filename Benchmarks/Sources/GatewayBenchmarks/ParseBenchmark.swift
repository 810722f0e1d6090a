import Foundation
import GraphQL
import GraphQLLanguage

/// Parse throughput of our parser beside GraphQLSwift 4.3.0 on the shared inputs.
///
/// Our parser builds the ``GraphQLLanguage/Document`` every layer of the engine
/// reads: what a request whose text the gateway has not seen pays before validation.
enum ParseBenchmark {
    static let inputs = ["kitchen_sink.graphql", "schema_kitchen_sink.graphql", "social_query.graphql", "large_query.graphql"]

    static func run(benchDirectory: URL) throws {
        print("## Parse (median of 5 passes, release build)")
        print("| input | bytes | Document ops/s | MB/s | GraphQLSwift ops/s | MB/s | ratio |")
        print("|---|---:|---:|---:|---:|---:|---:|")
        for name in inputs {
            let text = BenchInputs.read(name, in: benchDirectory)
            let bytes = Double(text.utf8.count)
            let source = GraphQLLanguage.Source(text)
            let document = try Stopwatch.secondsPerOp {
                _ = try GraphQLLanguage.Document(parsing: source)
            }
            let peerSource = GraphQL.Source(body: text)
            let peer = try Stopwatch.secondsPerOp(passes: name == "large_query.graphql" ? 3 : 5) {
                _ = try GraphQL.parse(source: peerSource)
            }
            print(
                "| \(name) | \(grouped(bytes)) | \(grouped(1 / document)) | \(grouped(bytes / document / 1e6, decimals: 1)) "
                    + "| \(grouped(1 / peer)) | \(grouped(bytes / peer / 1e6, decimals: 1)) "
                    + "| \(grouped(peer / document, decimals: 1))x |")
        }
    }

    /// Child-process mode: parse one file once and report, as three numbers, the
    /// growth of peak memory (`VmHWM`), of resident anonymous memory (`RssAnon`:
    /// the heap, without code pages) and of resident file pages (`RssFile`: code
    /// read during the parse).
    ///
    /// With `warm`, the engine first parses both kitchen sinks (from the file's
    /// folder) and the first whole definitions of the file itself (about 5% of it,
    /// see ``warmUpPrefix(of:)``), so that the parser's code is already resident: a
    /// one-time cost of the process, not of this document, which a cold measurement
    /// counts (about 1.4 MB of code pages for ours, read in 64 KB fault-around
    /// blocks). The kitchen sinks alone left up to 0.45 MB of code that only the
    /// file's own forms reach (escapes, exponents, comments) to the measured parse.
    /// The prefix's document is kept alive to the end, so that the measured parse
    /// cannot reuse its memory unseen.
    ///
    /// The `/proc` figures are read once before the baseline is taken: the first
    /// read pages in code of its own (up to 0.3 MB), which the peak would otherwise
    /// count as the parse's.
    static func measureMemory(engine: String, file: URL, warm: Bool) throws {
        let text = try String(contentsOf: file, encoding: .utf8)
        var keptAlive: [Any] = []
        if warm {
            var warmUps = try ["kitchen_sink.graphql", "schema_kitchen_sink.graphql"].map {
                try String(contentsOf: file.deletingLastPathComponent().appendingPathComponent($0), encoding: .utf8)
            }
            warmUps.append(warmUpPrefix(of: text))
            for warmUp in warmUps {
                if engine == "ours" {
                    keptAlive.append(try GraphQLLanguage.Document(parsing: warmUp))
                } else {
                    keptAlive.append(try GraphQL.parse(source: GraphQL.Source(body: warmUp)))
                }
            }
        }
        func figures() -> [Int] { [peakResidentBytes(), residentAnonymousBytes(), residentFileBytes()] }
        _ = figures()
        let before = figures()
        func report() { print(zip(figures(), before).map { String($0 - $1) }.joined(separator: " ")) }
        // The text is kept alive to the end: released right after the parse (its last
        // use), its 1 MB would leave the resident set and hide as much of the AST.
        try withExtendedLifetime((text, keptAlive)) {
            if engine == "ours" {
                let document = try GraphQLLanguage.Document(parsing: text)
                withExtendedLifetime(document) { report() }
            } else {
                let document = try GraphQL.parse(source: GraphQL.Source(body: text))
                withExtendedLifetime(document) { report() }
            }
        }
    }

    /// The first whole definitions of `text`, about 5% of it: up to the first
    /// line that closes a top-level definition (`}` alone at its start) after
    /// 50,000 bytes, or all of `text` if it is shorter.
    static func warmUpPrefix(of text: String) -> String {
        // Searched in place: a copy of the text would be a 1 MB peak of its own.
        var text = text
        return text.withUTF8 { bytes in
            var i = 50_000
            while i + 3 <= bytes.count {
                if bytes[i] == 0x0A, bytes[i + 1] == 0x7D, bytes[i + 2] == 0x0A {  // "\n}\n"
                    return String(decoding: UnsafeBufferPointer(rebasing: bytes[..<(i + 2)]), as: UTF8.self)
                }
                i += 1
            }
            return String(decoding: bytes, as: UTF8.self)
        }
    }

    /// Runs the memory measurement for both engines in fresh processes, cold and warm.
    static func reportMemory(benchDirectory: URL) throws {
        let file = benchDirectory.appendingPathComponent("large_query.graphql")
        let size = (try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? 0
        print("\n## Peak memory while parsing large_query (\(grouped(Double(size))) bytes), fresh process each")
        print("Warm: the parser already ran (on the kitchen sinks and the first 5% of this file), so its")
        print("code is resident; the target (< 4x the input) is read on this row. Cold: the first parse of")
        print("the process, code pages included.")
        print("| engine | process | peak growth (VmHWM) | x input size | heap growth (RssAnon) | code paged in (RssFile) |")
        print("|---|---|---:|---:|---:|---:|")
        for warm in [true, false] {
            for engine in ["ours", "GraphQLSwift"] {
                let process = Process()
                process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
                let mode = engine == "ours" ? "ours" : "peer"
                process.arguments = ["--memory", mode, file.path] + (warm ? ["--warm"] : [])
                let pipe = Pipe()
                process.standardOutput = pipe
                try process.run()
                let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                process.waitUntilExit()
                let figures = output.split(whereSeparator: \.isWhitespace).compactMap { Double($0) }
                let growth = figures.first ?? .nan
                let anonymous = figures.count > 1 ? figures[1] : .nan
                let code = figures.count > 2 ? figures[2] : .nan
                print(
                    "| \(engine) | \(warm ? "warm" : "cold") | \(grouped(growth / 1_048_576, decimals: 2)) MiB "
                        + "| \(grouped(growth / Double(size), decimals: 2)) | \(grouped(anonymous / 1_048_576, decimals: 2)) MiB "
                        + "| \(grouped(code / 1_048_576, decimals: 2)) MiB |")
            }
        }
    }
}
