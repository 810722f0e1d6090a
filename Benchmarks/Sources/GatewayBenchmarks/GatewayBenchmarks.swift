import Foundation
import GraphQLLanguage

/// `gateway-benchmarks [--bench-dir DIR] [parse]`: prints Markdown tables of our
/// engine beside GraphQLSwift 4.3.0, measured in the same run.
@main
enum GatewayBenchmarks {
    static func main() throws {
        let arguments = CommandLine.arguments
        if let i = arguments.firstIndex(of: "--memory"), i + 2 < arguments.count {
            try ParseBenchmark.measureMemory(engine: arguments[i + 1], file: URL(fileURLWithPath: arguments[i + 2]))
            return
        }
        if let i = arguments.firstIndex(of: "--profile-parse"), i + 1 < arguments.count {
            // For `perf record`: our parser alone, over and over.
            let text = try String(contentsOf: URL(fileURLWithPath: arguments[i + 1]), encoding: .utf8)
            for _ in 0..<200 { _ = try GraphQLLanguage.Document(parsing: text) }
            return
        }
        if arguments.contains("--layouts") {
            print("Selection", MemoryLayout<Selection>.stride, "Field", MemoryLayout<Field>.stride,
                  "Name", MemoryLayout<Name>.stride, "Name?", MemoryLayout<Name?>.stride,
                  "Value", MemoryLayout<GraphQLLanguage.Value>.stride, "Argument", MemoryLayout<GraphQLLanguage.Argument>.stride,
                  "ObjectField", MemoryLayout<ObjectField>.stride, "SelectionSet?", MemoryLayout<SelectionSet?>.stride,
                  "Directive", MemoryLayout<GraphQLLanguage.Directive>.stride, "InlineFragment", MemoryLayout<InlineFragment>.stride)
            return
        }
        let directory = BenchInputs.directory(arguments: arguments)
        let selected = Set(arguments.dropFirst().filter { !$0.hasPrefix("-") && !$0.contains("/") })
        func wants(_ name: String) -> Bool { selected.isEmpty || selected.contains(name) }
        print("# social-gateway benchmarks (\(ProcessInfo.processInfo.processorCount) cores)\n")
        if wants("parse") {
            try ParseBenchmark.run(benchDirectory: directory)
            try ParseBenchmark.reportMemory(benchDirectory: directory)
        }
    }
}
