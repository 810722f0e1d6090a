import Foundation

/// Times a closure the way the shared bench figures were taken: repeated passes,
/// median reported, ours and the peer interleaved so machine noise hits both.
struct Stopwatch {
    /// Seconds per operation: runs `body` in batches for about `seconds`, `passes` times; the median batch.
    static func secondsPerOp(passes: Int = 5, seconds: Double = 0.4, _ body: () throws -> Void) rethrows -> Double {
        // Calibrate: how many operations fit into the target time?
        var iterations = 1
        while true {
            let t = try time(iterations, body)
            if t > seconds / 4 || iterations > 1 << 24 {
                iterations = max(1, Int(Double(iterations) * seconds / max(t, 1e-9)))
                break
            }
            iterations *= 4
        }
        var samples: [Double] = []
        for _ in 0..<passes { samples.append(try time(iterations, body) / Double(iterations)) }
        samples.sort()
        return samples[samples.count / 2]
    }

    private static func time(_ iterations: Int, _ body: () throws -> Void) rethrows -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        for _ in 0..<iterations { try body() }
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }
}

/// Peak resident memory of this process, in bytes: `VmHWM` from `/proc/self/status`.
///
/// Not getrusage's `ru_maxrss`: that survives `exec`, so a child started by a
/// benchmark that already used a lot of memory would report the parent's peak.
func peakResidentBytes() -> Int { processStatusBytes("VmHWM:") }

/// Resident anonymous memory of this process (`RssAnon`: heap and stacks, not
/// the pages of code and mapped files), in bytes.
func residentAnonymousBytes() -> Int { processStatusBytes("RssAnon:") }

/// Resident file-backed memory (`RssFile`): mostly code pages, read on first use.
func residentFileBytes() -> Int { processStatusBytes("RssFile:") }

/// A kilobyte figure of `/proc/self/status`, such as `VmHWM:`, in bytes (0 if absent).
private func processStatusBytes(_ field: String) -> Int {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
    for line in status.split(separator: "\n") where line.hasPrefix(field) {
        let kilobytes = line.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
        return kilobytes * 1024
    }
    return 0
}

/// A number with thousands separators and a fixed number of decimals: 12,345.6.
func grouped(_ value: Double, decimals: Int = 0) -> String {
    guard value.isFinite else { return "n/a" }
    let scale = pow(10.0, Double(decimals))
    let rounded = (value * scale).rounded() / scale
    let whole = Int(rounded.magnitude)
    var digits = String(whole)
    var groups: [String] = []
    while digits.count > 3 {
        groups.insert(String(digits.suffix(3)), at: 0)
        digits.removeLast(3)
    }
    groups.insert(digits, at: 0)
    var text = (rounded < 0 ? "-" : "") + groups.joined(separator: ",")
    if decimals > 0 {
        let fraction = Int(((rounded.magnitude - Double(whole)) * scale).rounded())
        let f = String(fraction)
        text += "." + String(repeating: "0", count: max(0, decimals - f.count)) + f
    }
    return text
}
