import EmbeddedStore
import Foundation
import GatewayServer
import HummingbirdTesting
import Testing

/// A gateway that is let go lets go of its store and cache: their SQLite files are closed.
///
/// Why it matters: the change stream held the subscription hub, which holds the service, which
/// holds the stream, so no gateway an application was built over was ever freed. A test run
/// built hundreds and ended with about 4,000 open files of deleted databases, and Foundation's
/// `Process.run()` on Linux, which lists `/proc/self/fd` and copies each entry's whole 256-byte
/// name buffer, then read past the end of its directory buffer: the test process crashed
/// (exit 139) in the playground's browser test.
@Suite("Released gateways close their files")
struct GatewayReleaseTests {
    /// The process's open files whose path lies inside `folder` (deleted files included).
    static func openFiles(inside folder: URL) -> [String] {
        let fds = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        let prefix = folder.resolvingSymlinksInPath().path + "/"
        return fds.compactMap { try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\($0)") }
            .filter { $0.hasPrefix(prefix) }
    }

    @Test("a gateway whose application served requests is freed with its store, and closes its files", arguments: [TestingSetup.router, .live])
    func releasedAfterServing(_ setup: TestingSetup) async throws {
        weak var store: EmbeddedStore?
        let folder: URL
        do {
            let gateway = try await TestGateway.make()
            store = gateway.embedded
            folder = gateway.configuration.dataDirectory
            let status = try await gateway.test(setup) { client in
                try await client.execute(
                    uri: "/graphql", method: .post, headers: .graphQL(),
                    body: GraphQLBody.json(#"{ profile(handle: "alice_wonder") { handle } }"#)
                ).status
            }
            #expect(status == .ok)
            #expect(!Self.openFiles(inside: folder).isEmpty, "while it runs, the gateway has its database open")
        }
        // The server's last tasks end just after `test` returns, and GRDB closes a freed pool's
        // connections on their own queues, just after the pool goes.
        for _ in 0..<150 where store != nil || !Self.openFiles(inside: folder).isEmpty {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(store == nil, "the embedded store was freed")
        #expect(Self.openFiles(inside: folder) == [], "no file of the gateway's data folder is open")
    }
}
