// subscription-load: holds N graphql-transport-ws subscribers to feedPosts on 127.0.0.1:PORT
// and measures, against a running gateway:
//   - the server's resident memory per idle subscriber (VmRSS of --server-pid before connecting
//     and once all are subscribed, divided by N);
//   - fan-out latency: posts written one at a time (createPost over HTTP by --writer-token, whom
//     every subscriber follows), from the moment the request is sent to the moment each
//     subscriber's `next` is read, all on one monotonic clock in this process;
//   - sustained delivery: --rate posts per second for --seconds, events/s delivered and latency.
// Everything is bounded: each wait has a timeout, and the process exits when done.
//
//   subscription-load --port 8080 --server-pid 1234 --tokens tokens.txt --writer-token JWT \
//     --subscribers 1000 --posts 20 [--rate 5 --seconds 20] [--connect-concurrency 100]
// tokens.txt: one JWT per line, used round-robin (one per subscriber when there are enough).
// Prints a human summary on stderr and one JSON object on stdout.
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

struct Options {
    var host = "127.0.0.1"
    var port = 8080
    var serverPID: Int32?
    var tokensFile = ""
    var writerToken = ""
    var subscribers = 100
    var connectConcurrency = 100
    var posts = 10
    var rate = 0.0
    var seconds = 0.0
    var settleSeconds = 2.0
    var deliveryTimeout = 20.0
    var threads = 1
    var label = "run"
    /// Only connection_init, no subscribe: the memory of an acknowledged connection alone.
    var connectOnly = false

    static func parse(_ args: [String]) -> Options {
        var o = Options()
        var i = 0
        func value() -> String {
            i += 1
            guard i < args.count else { fail("missing value for \(args[i - 1])") }
            return args[i]
        }
        while i < args.count {
            switch args[i] {
            case "--port": o.port = Int(value())!
            case "--server-pid": o.serverPID = Int32(value())!
            case "--tokens": o.tokensFile = value()
            case "--writer-token": o.writerToken = value()
            case "--subscribers": o.subscribers = Int(value())!
            case "--connect-concurrency": o.connectConcurrency = Int(value())!
            case "--posts": o.posts = Int(value())!
            case "--rate": o.rate = Double(value())!
            case "--seconds": o.seconds = Double(value())!
            case "--settle": o.settleSeconds = Double(value())!
            case "--delivery-timeout": o.deliveryTimeout = Double(value())!
            case "--threads": o.threads = Int(value())!
            case "--label": o.label = value()
            case "--connect-only": o.connectOnly = true
            case "-h", "--help":
                print("usage: subscription-load --port P --server-pid PID --tokens FILE --writer-token JWT --subscribers N [--posts K] [--rate R --seconds S] [--connect-concurrency C] [--threads T] [--settle S] [--delivery-timeout S] [--label L] [--connect-only]")
                exit(0)
            default: fail("unknown argument \(args[i])")
            }
            i += 1
        }
        if o.tokensFile.isEmpty || o.writerToken.isEmpty { fail("--tokens and --writer-token are required") }
        return o
    }
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("subscription-load: \(message)\n".utf8))
    exit(2)
}

func log(_ message: String) {
    FileHandle.standardError.write(Data("[subscription-load] \(message)\n".utf8))
}

/// VmRSS and VmHWM of a process, in KiB, from /proc/PID/status.
func memory(of pid: Int32?) -> (rss: Int, hwm: Int)? {
    guard let pid, let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
    var rss = 0, hwm = 0
    for line in text.split(separator: "\n") {
        let parts = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
        if parts.first == "VmRSS:" { rss = Int(parts[1]) ?? 0 }
        if parts.first == "VmHWM:" { hwm = Int(parts[1]) ?? 0 }
    }
    return (rss, hwm)
}

/// Percentile by nearest rank, of sorted values.
func percentile(_ sorted: [Double], _ p: Double) -> Double {
    guard !sorted.isEmpty else { return .nan }
    let rank = Int((p / 100 * Double(sorted.count)).rounded(.up))
    return sorted[min(max(rank - 1, 0), sorted.count - 1)]
}

func summary(_ values: [Double]) -> [String: Double] {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return [:] }
    return ["count": Double(sorted.count), "p50": percentile(sorted, 50), "p90": percentile(sorted, 90),
            "p99": percentile(sorted, 99), "max": sorted.last ?? .nan, "min": sorted.first ?? .nan]
}

func ms(_ v: Double?) -> String { v.map { String(format: "%.1f", $0) } ?? "-" }

/// Writes posts as the writer over HTTP, recording when each request was sent and answered.
final class Writer: @unchecked Sendable {
    let url: URL
    let token: String
    let session: URLSession
    private let lock = NSLock()
    private(set) var sent: [Int: UInt64] = [:]
    private(set) var answered: [Int: UInt64] = [:]
    private(set) var failures: [String] = []

    init(port: Int, token: String) {
        url = URL(string: "http://127.0.0.1:\(port)/graphql")!
        self.token = token
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = 16
        configuration.timeoutIntervalForRequest = 30
        session = URLSession(configuration: configuration)
    }

    func post(seq: Int, label: String) async {
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        let body: [String: Any] = [
            "query": "mutation P($c: String!) { createPost(input: { content: $c }) { post { id } } }",
            "variables": ["c": "bench-\(seq)- \(label)"],
        ]
        request.httpBody = try! JSONSerialization.data(withJSONObject: body)
        let start = nowNanos()
        lock.withLock { sent[seq] = start }
        do {
            let (data, response) = try await session.data(for: request)
            let end = nowNanos()
            let text = String(decoding: data, as: UTF8.self)
            if (response as? HTTPURLResponse)?.statusCode != 200 || text.contains("\"errors\"") {
                lock.withLock { failures.append("post \(seq): \(text.prefix(300))") }
            }
            lock.withLock { answered[seq] = end }
        } catch {
            lock.withLock { failures.append("post \(seq): \(error)") }
        }
    }

    func times() -> (sent: [Int: UInt64], answered: [Int: UInt64], failures: [String]) {
        lock.withLock { (sent, answered, failures) }
    }
}

func sleep(seconds: Double) async { try? await Task.sleep(nanoseconds: UInt64(seconds * 1e9)) }

/// Waits until `seq` reached `count` subscribers or the timeout passed; returns whether it did.
func waitFor(_ receipts: Receipts, seqs: [Int], count: Int, timeout: Double) async -> Bool {
    let deadline = nowNanos() + UInt64(timeout * 1e9)
    while nowNanos() < deadline {
        if seqs.allSatisfy({ receipts.count(seq: $0) >= count }) { return true }
        await sleep(seconds: 0.005)
    }
    return false
}

func run() async -> Int32 {
    let o = Options.parse(Array(CommandLine.arguments.dropFirst()))
    let tokens = ((try? String(contentsOfFile: o.tokensFile, encoding: .utf8)) ?? "")
        .split(separator: "\n").map(String.init).filter { !$0.isEmpty }
    guard !tokens.isEmpty else { fail("no tokens in \(o.tokensFile)") }
    let group = MultiThreadedEventLoopGroup(numberOfThreads: o.threads)
    let receipts = Receipts()
    let writer = Writer(port: o.port, token: o.writerToken)
    let query = o.connectOnly ? "" : "subscription { feedPosts { id content } }"
    var result: [String: Any] = [
        "label": o.label, "subscribers": o.subscribers, "distinctViewers": min(tokens.count, o.subscribers),
    ]

    // Idle baseline.
    let before = memory(of: o.serverPID)
    result["rssBeforeKiB"] = before?.rss

    // Connect, bounded: `connectConcurrency` workers, each connecting one subscriber at a time
    // and waiting for its connection_ack.
    let connectStart = nowNanos()
    let channels = NIOLockedValueBox<[Channel]>([])
    let refused = NIOLockedValueBox<Int>(0)
    let next = NIOLockedValueBox<Int>(0)
    await withTaskGroup(of: Void.self) { tasks in
        for _ in 0..<max(1, min(o.connectConcurrency, o.subscribers)) {
            tasks.addTask {
                while true {
                    let index = next.withLockedValue { n -> Int in defer { n += 1 }; return n }
                    guard index < o.subscribers else { return }
                    do {
                        let channel = try await connectSubscriber(
                            group: group, host: o.host, port: o.port, token: tokens[index % tokens.count],
                            query: query, receipts: receipts).get()
                        channels.withLockedValue { $0.append(channel) }
                    } catch {
                        refused.withLockedValue { $0 += 1 }
                        receipts.error("connect \(index): \(error)")
                    }
                }
            }
        }
    }
    let connected = channels.withLockedValue { $0.count }
    let connectSeconds = Double(nowNanos() - connectStart) / 1e9
    log("\(connected)/\(o.subscribers) acknowledged in \(String(format: "%.1f", connectSeconds)) s (\(refused.withLockedValue { $0 }) failed)")
    result["connected"] = connected
    result["connectFailures"] = refused.withLockedValue { $0 }
    result["connectSeconds"] = connectSeconds

    // Settle, then the idle memory with every subscription registered.
    await sleep(seconds: o.settleSeconds)
    let idle = memory(of: o.serverPID)
    result["rssIdleKiB"] = idle?.rss
    if let before, let idle, connected > 0 {
        let perSubscriber = Double(idle.rss - before.rss) * 1024 / Double(connected)
        result["idleBytesPerSubscriber"] = perSubscriber
        log("server RSS \(before.rss) KiB -> \(idle.rss) KiB idle: \(Int(perSubscriber)) bytes per subscriber")
    }

    if o.connectOnly {
        print(String(decoding: try! JSONSerialization.data(withJSONObject: result, options: [.sortedKeys]), as: UTF8.self))
        fflush(stdout)
        exit(0)
    }

    // A warm-up post: every subscriber must hear it before timing starts (a subscribe sent after
    // the ack is registered asynchronously; this also confirms each one is live).
    var seq = 0
    await writer.post(seq: seq, label: o.label + " warm-up")
    let warmed = await waitFor(receipts, seqs: [seq], count: connected, timeout: o.deliveryTimeout)
    result["warmupDelivered"] = receipts.count(seq: seq)
    log("warm-up post reached \(receipts.count(seq: seq))/\(connected)\(warmed ? "" : " (timed out)")")
    let afterWarmup = memory(of: o.serverPID)
    result["rssAfterWarmupKiB"] = afterWarmup?.rss
    let live = receipts.count(seq: seq)

    // Fan-out: posts one at a time, each waited for at every live subscriber.
    var fanoutSeqs: [Int] = []
    for _ in 0..<o.posts {
        seq += 1
        fanoutSeqs.append(seq)
        await writer.post(seq: seq, label: o.label + " fan-out")
        _ = await waitFor(receipts, seqs: [seq], count: live, timeout: o.deliveryTimeout)
        await sleep(seconds: 0.2)
    }

    // Sustained: `rate` posts a second for `seconds`, not waiting for deliveries.
    var sustainedSeqs: [Int] = []
    var sustainedWindow = 0.0
    if o.rate > 0, o.seconds > 0 {
        let total = Int(o.rate * o.seconds)
        let start = nowNanos()
        await withTaskGroup(of: Void.self) { tasks in
            for k in 0..<total {
                seq += 1
                let s = seq
                sustainedSeqs.append(s)
                let due = start + UInt64(Double(k) / o.rate * 1e9)
                let now = nowNanos()
                if due > now { try? await Task.sleep(nanoseconds: due - now) }
                tasks.addTask { await writer.post(seq: s, label: o.label + " sustained") }
            }
        }
        _ = await waitFor(receipts, seqs: sustainedSeqs, count: live, timeout: o.deliveryTimeout)
        sustainedWindow = Double(nowNanos() - start) / 1e9
    }
    let end = memory(of: o.serverPID)
    result["rssEndKiB"] = end?.rss
    result["hwmEndKiB"] = end?.hwm

    // Latencies: receipt minus the request's send time (an upper bound on commit-to-client),
    // and receipt minus its answer (a lower bound: the answer leaves after the commit).
    let times = writer.times()
    let all = receipts.snapshot()
    func latencies(_ seqs: [Int]) -> (fromSend: [Double], fromAnswer: [Double], perPostLast: [Double], delivered: Int, lastReceipt: UInt64) {
        var fromSend: [Double] = [], fromAnswer: [Double] = [], last: [Double] = []
        var delivered = 0
        var lastReceipt: UInt64 = 0
        for s in seqs {
            guard let sent = times.sent[s], let got = all[s] else { continue }
            delivered += got.count
            let answered = times.answered[s]
            var latest = 0.0
            for t in got {
                let l = Double(Int64(t) - Int64(sent)) / 1e6
                fromSend.append(l)
                latest = max(latest, l)
                if let answered { fromAnswer.append(Double(Int64(t) - Int64(answered)) / 1e6) }
                lastReceipt = max(lastReceipt, t)
            }
            last.append(latest)
        }
        return (fromSend, fromAnswer, last, delivered, lastReceipt)
    }
    let writes = times.answered.compactMap { s, a in times.sent[s].map { Double(a - $0) / 1e6 } }
    result["writeMs"] = summary(writes)
    result["writeFailures"] = times.failures.count
    if !fanoutSeqs.isEmpty {
        let l = latencies(fanoutSeqs)
        result["fanout"] = [
            "posts": fanoutSeqs.count, "expected": fanoutSeqs.count * live, "delivered": l.delivered,
            "latencyFromSendMs": summary(l.fromSend), "latencyFromAnswerMs": summary(l.fromAnswer),
            "lastDeliveryPerPostMs": summary(l.perPostLast),
        ] as [String: Any]
        let s = summary(l.fromSend), last = summary(l.perPostLast)
        log("fan-out to \(live): \(l.delivered)/\(fanoutSeqs.count * live) delivered; latency p50 \(ms(s["p50"])) p90 \(ms(s["p90"])) p99 \(ms(s["p99"])) max \(ms(s["max"])) ms; last delivery per post p50 \(ms(last["p50"])) max \(ms(last["max"])) ms")
    }
    if !sustainedSeqs.isEmpty, let first = sustainedSeqs.first.flatMap({ times.sent[$0] }) {
        let l = latencies(sustainedSeqs)
        let span = Double(l.lastReceipt > first ? l.lastReceipt - first : 1) / 1e9
        let perSecond = Double(l.delivered) / span
        result["sustained"] = [
            "rate": o.rate, "seconds": o.seconds, "posts": sustainedSeqs.count,
            "expected": sustainedSeqs.count * live, "delivered": l.delivered,
            "spanSeconds": span, "eventsPerSecond": perSecond, "windowSeconds": sustainedWindow,
            "latencyFromSendMs": summary(l.fromSend), "latencyFromAnswerMs": summary(l.fromAnswer),
        ] as [String: Any]
        let s = summary(l.fromSend)
        log("sustained \(o.rate)/s x \(o.seconds) s to \(live): \(l.delivered)/\(sustainedSeqs.count * live) delivered, \(Int(perSecond)) events/s; latency p50 \(ms(s["p50"])) p90 \(ms(s["p90"])) p99 \(ms(s["p99"])) max \(ms(s["max"])) ms")
    }
    result["unmarkedEvents"] = receipts.unmarked
    result["closedByServer"] = receipts.closedCount
    result["errors"] = receipts.errorList + Array(times.failures.prefix(5))
    if !receipts.errorList.isEmpty { log("errors: \(receipts.errorList.prefix(3))") }

    let json = try! JSONSerialization.data(withJSONObject: result.mapValues { value -> Any in
        if let d = value as? Double, !d.isFinite { return NSNull() }
        return value
    }, options: [.sortedKeys])
    print(String(decoding: json, as: UTF8.self))
    fflush(stdout)
    // Leave without closing 10,000 sockets one by one: the kernel closes them at exit.
    exit(0)
}

let code = await run()
exit(code)
