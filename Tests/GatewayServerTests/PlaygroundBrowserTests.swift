import ChildProcessTestSupport
import Foundation
import GatewayServer
import HummingbirdTesting
import Testing

/// The playground in a real headless browser (Debian's chromium): load the page, let it run a
/// query from the URL, and read the result out of the rendered DOM.
@Suite("Playground in a browser")
struct PlaygroundBrowserTests {
    static let chromium = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }

    @Test(
        "Playground: /?query=...&autorun=1 runs the query in Chromium and shows the result; 'as' acts as a demo user",
        .enabled(if: chromium != nil, "no chromium binary (scripts/setup installs Debian's chromium)"),
        .timeLimit(.minutes(2)))
    func autorunInChromium() async throws {
        let gateway = try await TestGateway.make()
        try await gateway.test(.live) { client in
            let port = try #require(client.port)
            var components = URLComponents(string: "http://127.0.0.1:\(port)/")!
            components.queryItems = [
                URLQueryItem(name: "query", value: "query Card($h: String!) { profile(handle: $h) { handle displayName } }"),
                URLQueryItem(name: "variables", value: #"{"h":"alice_wonder"}"#),
                URLQueryItem(name: "autorun", value: "1"),
            ]
            let dom = try await Self.dumpDOM(components.url!)
            #expect(dom.contains(#"data-state="done""#))
            #expect(dom.contains(#""handle": "alice_wonder""#))
            #expect(dom.contains(#""displayName": "Alice Wonderland""#))
            // The schema explorer was filled from introspection, with the types as links.
            #expect(dom.contains("<a>ProfileConnection</a>"))

            components.queryItems = [
                URLQueryItem(name: "query", value: "{ viewer { handle } }"), URLQueryItem(name: "autorun", value: "1"),
                URLQueryItem(name: "as", value: "bob_builder"),
            ]
            let actingDOM = try await Self.dumpDOM(components.url!)
            #expect(actingDOM.contains(#""handle": "bob_builder""#))

            // The welcome tab as a new visitor finds it: its query reads followers, which need a
            // signed-in viewer, so it acts as the first demo user and answers without errors.
            components.queryItems = [URLQueryItem(name: "autorun", value: "1")]
            let welcomeDOM = try await Self.dumpDOM(components.url!)
            #expect(welcomeDOM.contains(#"data-state="done""#))
            #expect(welcomeDOM.contains(#""followers": {"#))
            #expect(!welcomeDOM.contains("UNAUTHENTICATED"))
        }
    }

    /// Runs headless Chromium with a virtual-time budget (the page's fetches complete inside it)
    /// and returns the serialized DOM; killed after 60 s of real time.
    static func dumpDOM(_ url: URL) async throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("chromium-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("dom.html")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        let handle = try FileHandle(forWritingTo: output)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: chromium!)
        process.arguments = [
            "--headless", "--disable-gpu", "--no-sandbox", "--disable-dev-shm-usage", "--no-first-run",
            "--disable-extensions", "--disable-background-networking", "--user-data-dir=\(folder.path)/profile",
            "--virtual-time-budget=20000", "--dump-dom", url.absoluteString,
        ]
        process.standardOutput = handle
        process.standardError = FileHandle.nullDevice
        let (exited, continuation) = AsyncStream<Void>.makeStream()
        process.terminationHandler = { _ in
            continuation.yield()
            continuation.finish()
        }
        try ChildProcess.checkSafeToSpawn()
        try process.run()
        let pid = process.processIdentifier
        let watchdog = Task {
            try await Task.sleep(for: .seconds(60))
            kill(pid, SIGTERM)  // only the browser this test started, by its pid
        }
        for await _ in exited { break }
        watchdog.cancel()
        try handle.close()
        return String(decoding: try Data(contentsOf: output), as: UTF8.self)
    }
}
