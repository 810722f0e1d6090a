import Foundation
import GatewayAssembly
import GatewayServer
import Testing

/// `--bench-seed-profiles`, as load scripts use it: seeded on the first start, kept on the next.
@Suite("Load-test seeding")
struct BenchSeedTests {
    @Test("a server seeded with load-test profiles starts again on the same data folder, without seeding twice")
    func restartKeepsTheSeed() async throws {
        var settings = GatewaySettings()
        settings.server.dataDirectory = FileManager.default.temporaryDirectory
            .appendingPathComponent("bench-seed-\(UUID().uuidString)", isDirectory: true)
        settings.loadTest.seedProfiles = 20
        settings.loadTest.seedFollowsPerProfile = 3
        settings.server.logLevel = .warning
        let logger = TestGateway.logger(settings.server)
        let first = try await BackendAssembly.openEmbeddedBackend(settings, logger: logger)
        let user1 = try #require(try await first.store.operatorProfileID(forHandle: "user1"))
        await first.backend.shutdown()
        let second = try await BackendAssembly.openEmbeddedBackend(settings, logger: logger)
        #expect(try await second.store.operatorProfileID(forHandle: "user1") == user1)
        #expect(try await second.store.operatorProfileID(forHandle: "user20") != nil)
        await second.backend.shutdown()
    }
}
