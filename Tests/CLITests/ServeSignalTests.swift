import ChildProcessTestSupport
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// `social-gateway serve` as an orchestrator runs it: started, probed, then sent SIGTERM.
@Suite("serve and signals")
struct ServeSignalTests {
    @Test("SIGTERM: serve drains and exits with status 0")
    func sigtermExitsZero() async throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("serve-signal-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        let port = Int.random(in: 20_000..<40_000)
        let process = Process()
        process.executableURL = CLIRunner.executable
        process.arguments = ["serve", "--port", "\(port)", "--data-dir", data.path, "--log-level", "notice"]
        let log = Pipe()
        process.standardOutput = log
        process.standardError = log
        try ChildProcess.checkSafeToSpawn()
        try process.run()
        defer { if process.isRunning { process.terminate() } }

        var healthy = false
        for _ in 0..<300 where !healthy {
            try await Task.sleep(for: .milliseconds(100))
            healthy = (try? await Self.get(port: port, path: "/healthz")) == 200
            if !process.isRunning { break }
        }
        #expect(healthy, "the server answered /healthz")
        kill(process.processIdentifier, SIGTERM)
        let exited = await Self.waitForExit(process, timeout: .seconds(20))
        #expect(exited)
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 0)
        let output = String(decoding: log.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(output.contains("shutting down"))
        #expect(output.contains("social-gateway stopped"))
    }

    static func get(port: Int, path: String) async throws -> Int {
        let url = URL(string: "http://127.0.0.1:\(port)\(path)")!
        let (_, response) = try await URLSession.shared.data(from: url)
        return (response as? HTTPURLResponse)?.statusCode ?? 0
    }

    static func waitForExit(_ process: Process, timeout: Duration) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while process.isRunning, ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(50)) }
        return !process.isRunning
    }
}
