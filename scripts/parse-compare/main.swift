// Times `Document(parsing:)` of two versions of GraphQLLanguage (run by ../parse-compare) on the
// shared bench documents, alternating the two in every round, and prints operations per second
// (the median of the rounds) for each. With `--once NAME old|new` it parses one document once
// per iteration (`PARSE_ITERATIONS`, default 1,000) for callgrind, which counts instructions.
import Foundation
import New
import Old

let arguments = CommandLine.arguments
let bench = arguments.count > 1 ? arguments[1] : "../shared/bench"
func read(_ name: String) -> String { try! String(contentsOfFile: "\(bench)/\(name).graphql", encoding: .utf8) }
let names = ["kitchen_sink", "schema_kitchen_sink", "social_query", "large_query"]

if arguments.count > 4, arguments[2] == "--once" {
    let text = read(arguments[3])
    let iterations = Int(ProcessInfo.processInfo.environment["PARSE_ITERATIONS"] ?? "") ?? 1_000
    var count = 0
    for _ in 0..<iterations {
        if arguments[4] == "old" { count &+= (try! Old.Document(parsing: text)).definitions.count }
        else { count &+= (try! New.Document(parsing: text)).definitions.count }
    }
    print(count)
    exit(0)
}

/// Seconds for `body` run `n` times.
func time(_ n: Int, _ body: () -> Int) -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    var sink = 0
    for _ in 0..<n { sink &+= body() }
    if sink == -1 { print(sink) }
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

print("document               old ops/s     new ops/s   new/old")
for name in names {
    let text = read(name)
    // Calibrate to ~0.3 s a pass.
    var n = 1
    while time(n, { (try! Old.Document(parsing: text)).definitions.count }) < 0.05 { n *= 2 }
    n = max(1, n * 6)
    var old: [Double] = [], new: [Double] = []
    for _ in 0..<7 {
        old.append(Double(n) / time(n) { (try! Old.Document(parsing: text)).definitions.count })
        new.append(Double(n) / time(n) { (try! New.Document(parsing: text)).definitions.count })
    }
    let o = old.sorted()[3], w = new.sorted()[3]
    print(name.padding(toLength: 20, withPad: " ", startingAt: 0), String(format: "%12.0f  %12.0f   %5.2fx", o, w, w / o))
}
