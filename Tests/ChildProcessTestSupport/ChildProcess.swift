import Foundation
import Synchronization

/// Runs a program to its end from async test code, within a time limit.
///
/// Why not `Process.waitUntilExit()`: on Linux it spins the calling thread's run loop until
/// Foundation's manager thread marks the process finished, and called from a task (a
/// cooperative thread, not the main thread) it has been seen to park that thread for good after
/// a few hundred runs. A test that waits forever stalls the whole serial suite; CI then ends it
/// at its outer timeout with no name (it did, once, at ea300cd). Here the termination handler,
/// set before the launch, resumes the waiting task; the pipes are drained on dispatch threads
/// while the program runs (so a chatty program cannot fill a pipe and wait on us); and a program
/// still running at the limit is killed and reported as ``TimedOut``, naming the command.
///
/// ```swift
/// let result = try await ChildProcess.run(executable, ["graphql", "parse", path])
/// #expect(result.status == 0)
/// ```
public enum ChildProcess {
    public struct Result: Sendable {
        public var status: Int32
        public var reason: Process.TerminationReason
        public var stdout: Data
        public var stderr: Data

        public var stdoutText: String { String(decoding: stdout, as: UTF8.self) }
        public var stderrText: String { String(decoding: stderr, as: UTF8.self) }
    }

    /// The program did not end within the limit; it was killed.
    public struct TimedOut: Error, CustomStringConvertible {
        public var command: String
        public var limit: Duration
        public var stderr: String
        public var description: String { "\(command) still running after \(limit); killed. Its stderr: \(stderr)" }
    }

    /// Too many files are open in this process to start a program with Foundation's `Process`.
    public struct TooManyOpenFiles: Error, CustomStringConvertible {
        public var count: Int
        public var description: String {
            "\(count) files are open in the test process (at most \(ChildProcess.maxOpenFilesToSpawn) before a launch): "
                + "something the tests made keeps its files open (a store or cache never freed), and Foundation's "
                + "Process.run() would read past its buffer of /proc/self/fd and crash the run"
        }
    }

    /// The most files this process may have open when it starts a program.
    ///
    /// Why: on Linux, Foundation's `Process.run()` lists `/proc/self/fd` to close every inherited
    /// descriptor, and copies each entry's name as the whole 256-byte field. Once the listing fills
    /// its 32 KiB directory buffer (about 1,300 entries), the last entry's copy reads past the
    /// buffer, and when that is the end of mapped memory the process crashes in `memcpy` (exit
    /// 139; CI did, at an entry named "1355", when released gateways kept ~4,000 files open).
    /// Below this bound the listing cannot fill the buffer.
    public static let maxOpenFilesToSpawn = 1_000

    /// Throws ``TooManyOpenFiles`` when a `Process` launch could crash the test process.
    public static func checkSafeToSpawn() throws {
        let count = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? 0
        if count > maxOpenFilesToSpawn { throw TooManyOpenFiles(count: count) }
    }

    /// Runs `executable` with `arguments` and waits for it to end.
    /// - Parameters:
    ///   - environment: variables added to (or replacing those of) this process's environment.
    ///   - stdin: written to the program's standard input, which is then closed (empty if nil).
    ///   - limit: how long it may run before it is killed (SIGTERM, then SIGKILL 2 s later).
    public static func run(
        _ executable: URL, _ arguments: [String], environment: [String: String] = [:], stdin: Data? = nil,
        limit: Duration = .seconds(60)
    ) async throws -> Result {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        }
        let input = Pipe(), output = Pipe(), errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors

        let ended = Exit()
        process.terminationHandler = { _ in ended.signal() }
        try checkSafeToSpawn()
        try process.run()
        let stdoutData = drain(output.fileHandleForReading)
        let stderrData = drain(errors.fileHandleForReading)
        DispatchQueue.global().async {
            if let stdin { try? input.fileHandleForWriting.write(contentsOf: stdin) }
            try? input.fileHandleForWriting.close()
        }

        let inTime = await ended.wait(limit: limit)
        if !inTime {
            process.terminate()
            if !(await ended.wait(limit: .seconds(2))) {
                kill(process.processIdentifier, SIGKILL)
                _ = await ended.wait(limit: .seconds(5))
            }
            let stderr = String(decoding: await stderrData.value(limit: .seconds(2)) ?? Data(), as: UTF8.self)
            throw TimedOut(command: ([executable.path] + arguments).joined(separator: " "), limit: limit, stderr: stderr)
        }
        // The pipes end when the program (and anything it left behind holding them) has closed them.
        let stdout = await stdoutData.value(limit: .seconds(10)) ?? Data()
        let stderr = await stderrData.value(limit: .seconds(10)) ?? Data()
        return Result(status: process.terminationStatus, reason: process.terminationReason, stdout: stdout, stderr: stderr)
    }

    /// Reads `handle` to its end on a dispatch thread.
    private static func drain(_ handle: FileHandle) -> Exit.Value<Data> {
        let value = Exit.Value<Data>()
        DispatchQueue.global().async { value.set(handle.readDataToEndOfFile()) }
        return value
    }
}

/// A one-time event a task can wait for with a limit: set from any thread, exactly once.
final class Exit: Sendable {
    private struct State {
        var done = false
        var waiters: [UInt64: CheckedContinuation<Bool, Never>] = [:]
        /// Waits whose limit passed before their continuation was registered.
        var expired: Set<UInt64> = []
        var nextWaiter: UInt64 = 0
    }
    private let state = Mutex(State())

    func signal() {
        let waiters = state.withLock { state -> [CheckedContinuation<Bool, Never>] in
            state.done = true
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume(returning: true) }
    }

    /// Whether the event came within `limit`.
    func wait(limit: Duration) async -> Bool {
        let id = state.withLock { state -> UInt64? in
            if state.done { return nil }
            state.nextWaiter += 1
            return state.nextWaiter
        }
        guard let id else { return true }
        let timer = Task {
            try? await Task.sleep(for: limit)
            let waiter = state.withLock { state -> CheckedContinuation<Bool, Never>? in
                if let waiter = state.waiters.removeValue(forKey: id) { return waiter }
                if !state.done { state.expired.insert(id) }
                return nil
            }
            waiter?.resume(returning: false)
        }
        defer { timer.cancel() }
        return await withCheckedContinuation { continuation in
            let answer = state.withLock { state -> Bool? in
                if state.done { return true }
                if state.expired.remove(id) != nil { return false }
                state.waiters[id] = continuation
                return nil
            }
            if let answer { continuation.resume(returning: answer) }
        }
    }

    /// A value that arrives once, from another thread.
    final class Value<T: Sendable>: Sendable {
        private let exit = Exit()
        private let stored = Mutex<T?>(nil)

        func set(_ value: T) {
            stored.withLock { $0 = value }
            exit.signal()
        }

        /// The value, or nil if it has not come within `limit`.
        func value(limit: Duration) async -> T? {
            await exit.wait(limit: limit) ? stored.withLock { $0 } : nil
        }
    }
}
