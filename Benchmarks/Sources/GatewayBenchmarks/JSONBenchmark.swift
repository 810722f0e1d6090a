import Foundation
import GraphQLEngine

/// `gateway-benchmarks --json-keys`: the request-body shape of issue #24, a 1 MiB POST whose
/// `variables` hold 80,000 distinct keys, parsed without a value limit (the worst the parser
/// itself can be made to do), then the same body under the server's default limit (10,000
/// values), which stops early. Before the keys were indexed, one such body took 26 s.
enum JSONBenchmark {
    static func body(keys: Int) -> [UInt8] {
        var text = #"{"query":"{ viewer { id } }","variables":{"#
        for i in 0..<keys {
            if i > 0 { text += "," }
            text += "\"key\(i)\":\(i)"
        }
        return Array((text + "}}").utf8)
    }

    static func run() {
        let bytes = body(keys: 80_000)
        print("\n## JSON request body with 80,000 distinct keys (\(grouped(Double(bytes.count) / 1_048_576, decimals: 2)) MiB)")
        print("| parse | best of 20 | median |")
        print("|---|---:|---:|")
        for (label, limit) in [("no limit", Int.max), ("default limit (10,000 values)", 10_000)] {
            var times: [Double] = []
            for _ in 0..<20 {
                let start = ContinuousClock.now
                _ = try? JSONParser.parse(bytes, maxValues: limit)
                let elapsed = ContinuousClock.now - start
                times.append(Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000)
            }
            times.sort()
            print("| \(label) | \(grouped(times[0], decimals: 2)) ms | \(grouped(times[times.count / 2], decimals: 2)) ms |")
        }
    }
}
