import ChildProcessTestSupport
import Foundation

/// Runs the built `social-gateway` binary, as a user's CI would.
struct CLIRunner {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// The executable next to the test bundle (both live in the build folder).
    static var executable: URL {
        let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("social-gateway")
        if FileManager.default.isExecutableFile(atPath: beside.path) { return beside }
        return URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent(".build/debug/social-gateway")
    }

    static func run(_ arguments: [String], stdin: Data? = nil) async throws -> Result {
        let result = try await ChildProcess.run(executable, arguments, stdin: stdin)
        return Result(status: result.status, stdout: result.stdoutText, stderr: result.stderrText)
    }

    /// Writes `contents` to a new temporary file and returns its path.
    static func temporaryFile(_ contents: some DataProtocol, name: String = "doc.graphql") throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let url = directory.appendingPathComponent(name)
        try Data(contents).write(to: url)
        return url.path
    }
}
