import Foundation
import GatewayServer
import Testing

/// `--bench-seed-profiles`, as load scripts use it: seeded on the first start, kept on the next.
@Suite("Load-test seeding")
struct BenchSeedTests {
    @Test("a server seeded with load-test profiles starts again on the same data folder, without seeding twice")
    func restartKeepsTheSeed() async throws {
        var configuration = ServerConfiguration()
        configuration.dataDirectory = FileManager.default.temporaryDirectory
            .appendingPathComponent("bench-seed-\(UUID().uuidString)", isDirectory: true)
        configuration.benchSeedProfiles = 20
        configuration.benchSeedFollowsPerProfile = 3
        configuration.logLevel = .warning
        let logger = TestGateway.logger(configuration)
        let first = try await GatewayBackend.open(configuration, logger: logger)
        let user1 = try #require(try await first.embedded?.operatorProfileID(forHandle: "user1"))
        await first.shutdown()
        let second = try await GatewayBackend.open(configuration, logger: logger)
        #expect(try await second.embedded?.operatorProfileID(forHandle: "user1") == user1)
        #expect(try await second.embedded?.operatorProfileID(forHandle: "user20") != nil)
        await second.shutdown()
    }
}
