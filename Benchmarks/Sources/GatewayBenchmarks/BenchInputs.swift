import Foundation

/// The team's shared benchmark workloads (`shared/bench/`), used as given.
enum BenchInputs {
    /// `--bench-dir`, else `$BENCH_DIR`, else `../shared/bench` beside the repository.
    static func directory(arguments: [String]) -> URL {
        if let i = arguments.firstIndex(of: "--bench-dir"), i + 1 < arguments.count {
            return URL(fileURLWithPath: arguments[i + 1])
        }
        if let env = ProcessInfo.processInfo.environment["BENCH_DIR"] { return URL(fileURLWithPath: env) }
        return repository.deletingLastPathComponent().appendingPathComponent("shared/bench")
    }

    /// The repository these benchmarks belong to (for `examples/`).
    static var repository: URL {
        URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
    }

    static func read(_ name: String, in directory: URL) -> String {
        let url = directory.appendingPathComponent(name)
        guard let text = try? String(contentsOf: url, encoding: .utf8) else {
            FileHandle.standardError.write(Data("cannot read \(url.path); pass --bench-dir\n".utf8))
            exit(2)
        }
        return text
    }
}
