import ChildProcessTestSupport
import EmbeddedStore
import Foundation
import GatewayServer
import SocialFixtures
import Testing

/// `social-gateway token HANDLE`, run as a user would, verified by the server's authenticator.
@Suite("token command")
struct TokenCommandTests {
    static var executable: URL? {
        let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("social-gateway")
        if FileManager.default.isExecutableFile(atPath: beside.path) { return beside }
        let built = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent(".build/debug/social-gateway")
        return FileManager.default.isExecutableFile(atPath: built.path) ? built : nil
    }

    static func run(
        _ arguments: [String], environment: [String: String] = [:]
    ) async throws -> (status: Int32, stdout: String, stderr: String) {
        let result = try await ChildProcess.run(executable!, arguments, environment: environment)
        return (result.status, result.stdoutText, result.stderrText)
    }

    @Test("token HANDLE prints a dev token for the demo user, signed with the data folder's secret", .enabled(if: executable != nil))
    func printsVerifiableToken() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("token-cmd-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try await Self.run(["token", "carol_creator", "--data-dir", folder.path, "--ttl", "600"])
        #expect(result.status == 0)
        let token = result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let authenticator = await JWTAuthenticator(hmacSecret: try DevSecret.loadOrCreate(in: folder), jwks: nil, audience: "authenticated")
        #expect(try await authenticator.viewer(authorization: "Bearer " + token) == .user(id: DemoData.carolId, token: token))
    }

    @Test("token HANDLE for a profile of the folder's store that is not a demo user (user1 is private) signs its id", .enabled(if: executable != nil))
    func anyProfileOfTheStore() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("token-cmd-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try await EmbeddedStore.open(dataDirectory: folder, seedDemoData: true)
        _ = try await store.seed(profiles: 3, followsPerProfile: 1)
        let user1 = try #require(try await store.operatorProfileID(forHandle: "user1"))
        let result = try await Self.run(["token", "User1", "--data-dir", folder.path])
        #expect(result.status == 0)
        let token = result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let authenticator = await JWTAuthenticator(hmacSecret: try DevSecret.loadOrCreate(in: folder), jwks: nil, audience: "authenticated")
        #expect(try await authenticator.viewer(authorization: "Bearer " + token) == .user(id: user1, token: token))
    }

    @Test("token with a handle that is in no store is an error naming the database and the demo users", .enabled(if: executable != nil))
    func unknownHandle() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("token-cmd-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try await Self.run(["token", "mallory", "--data-dir", folder.path])
        #expect(result.status == 1)
        #expect(result.stderr.contains(#"error: no profile "mallory" in \#(folder.path)/social.sqlite; demo users: alice_wonder, bob_builder, carol_creator"#))
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("social.sqlite").path), "no store is created")
    }

    @Test("token for a handle that is no demo user, on a store without an operator lookup, says so and names the demo users",
          .enabled(if: executable != nil))
    func storeWithoutLookup() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("token-cmd-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try await Self.run(["token", "user1", "--data-dir", folder.path], environment: [
            "SUPABASE_URL": "http://127.0.0.1:9", "SUPABASE_ANON_KEY": "sb_publishable_test",
            "SUPABASE_JWT_SECRET": String(repeating: "5ec7e7", count: 8),
        ])
        #expect(result.status == 1)
        #expect(result.stderr.contains(
            #"error: no profile "user1" among the demo users (the supabase store has no operator lookup); demo users: alice_wonder, bob_builder, carol_creator"#))
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("social.sqlite").path), "no embedded store is opened")
    }

    @Test("token resolves the secret, audience and issuer as serve does: a Supabase project's secret, not the dev secret",
          .enabled(if: executable != nil))
    func sameSettingsAsServe() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("token-cmd-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let secret = String(repeating: "5ec7e7", count: 8)
        let result = try await Self.run(["token", "alice_wonder", "--data-dir", folder.path], environment: [
            "SUPABASE_URL": "http://127.0.0.1:9", "SUPABASE_ANON_KEY": "sb_publishable_test", "SUPABASE_JWT_SECRET": secret,
            "JWT_AUDIENCE": "mobile", "JWT_ISSUER": "https://project.example/auth/v1",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let token = result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let authenticator = await JWTAuthenticator(
            hmacSecret: secret, jwks: nil, audience: "mobile", issuer: "https://project.example/auth/v1")
        #expect(try await authenticator.viewer(authorization: "Bearer " + token) == .user(id: DemoData.aliceId, token: token))
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent(DevSecret.fileName).path),
                "no dev secret is made for a Supabase project")
    }
}
