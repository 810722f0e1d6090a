import ArgumentParser
import EmbeddedStore
import Foundation
import GatewayServer

/// `social-gateway token HANDLE`: prints a bearer token for a user of the embedded store.
struct TokenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "token",
        abstract: "Print a bearer token for a user of the embedded store.",
        discussion: """
            Signs an HS256 token with the dev secret in the data folder (created on first use, \
            the same one `serve` verifies with), for a demo user (\
            \(DemoData.users.map(\.handle).joined(separator: ", "))) or any other profile in the \
            data folder's store (load tests seed user1, user2...).

              curl -H "Authorization: Bearer $(social-gateway token alice_wonder)" ...
            """
    )

    @Argument(help: "The user's handle.")
    var handle: String

    @Option(name: .customLong("data-dir"), help: ArgumentHelp("Folder of the embedded store (env DATA_DIR; default ./data).", valueName: "path"))
    var dataDirectory: String?

    @Option(help: ArgumentHelp("Seconds the token stays valid (default 86400, 24 hours).", valueName: "seconds"))
    var ttl: Int = 24 * 3600

    @Option(help: ArgumentHelp("The token's audience (env JWT_AUDIENCE; default authenticated).", valueName: "aud"))
    var audience: String?

    func validate() throws {
        guard ttl > 0 else { throw ValidationError("--ttl must be a positive number of seconds.") }
    }

    func run() async throws {
        let environment = ProcessInfo.processInfo.environment
        let folder = dataDirectory ?? environment["DATA_DIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "data"
        let secret: String
        do {
            secret = try environment["JWT_SECRET"].flatMap { $0.isEmpty ? nil : $0 }
                ?? DevSecret.loadOrCreate(in: URL(fileURLWithPath: folder, isDirectory: true))
            try JWTAuthenticator.checkSecret(secret, variable: "JWT_SECRET")
        } catch {
            FileHandle.standardError.write(Data("error: \(error)\n".utf8))
            throw ExitCode(1)
        }
        let audience = audience ?? environment["JWT_AUDIENCE"].flatMap { $0.isEmpty ? nil : $0 } ?? "authenticated"
        let issuer = await DevTokenIssuer(
            secret: secret, audience: audience, issuer: environment["JWT_ISSUER"].flatMap { $0.isEmpty ? nil : $0 })
        let token = try await issuer.token(for: try await userID(in: URL(fileURLWithPath: folder, isDirectory: true)), ttl: TimeInterval(ttl))
        print(token)
    }

    /// A demo user's fixed id, or the id of the profile with the handle in the folder's store.
    func userID(in folder: URL) async throws -> UUID {
        if let id = DemoData.id(forHandle: handle) { return id }
        let database = folder.appendingPathComponent(EmbeddedStore.databaseFileName)
        let found: UUID?
        if FileManager.default.fileExists(atPath: database.path) {
            let store = try await EmbeddedStore.open(dataDirectory: folder, seedDemoData: false)
            found = try await store.operatorProfileID(forHandle: handle)
        } else {
            found = nil
        }
        guard let found else {
            FileHandle.standardError.write(Data(
                "error: no profile \"\(handle)\" in \(database.path); demo users: \(DemoData.users.map(\.handle).joined(separator: ", "))\n".utf8))
            throw ExitCode(1)
        }
        return found
    }
}
