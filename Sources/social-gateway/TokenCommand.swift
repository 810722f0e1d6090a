import ArgumentParser
import EmbeddedStore
import Foundation
import GatewayServer

/// `social-gateway token HANDLE`: prints a bearer token for a demo user of the embedded store.
struct TokenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "token",
        abstract: "Print a bearer token for a demo user (embedded mode).",
        discussion: """
            Signs an HS256 token with the dev secret in the data folder (created on first use, \
            the same one `serve` verifies with), for one of the demo users: \
            \(DemoData.users.map(\.handle).joined(separator: ", ")).

              curl -H "Authorization: Bearer $(social-gateway token alice_wonder)" ...
            """
    )

    @Argument(help: "The demo user's handle.")
    var handle: String

    @Option(name: .customLong("data-dir"), help: ArgumentHelp("Folder of the embedded store (env DATA_DIR; default ./data).", valueName: "path"))
    var dataDirectory: String?

    @Option(help: ArgumentHelp("Seconds the token stays valid (default 86400, 24 hours).", valueName: "seconds"))
    var ttl: Int = 24 * 3600

    @Option(help: ArgumentHelp("The token's audience (env JWT_AUDIENCE; default authenticated).", valueName: "aud"))
    var audience: String?

    func validate() throws {
        guard DemoData.id(forHandle: handle) != nil else {
            throw ValidationError(
                "\"\(handle)\" is not a demo user; use one of \(DemoData.users.map(\.handle).joined(separator: ", ")).")
        }
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
        let token = try await issuer.token(for: DemoData.id(forHandle: handle)!, ttl: TimeInterval(ttl))
        print(token)
    }
}
