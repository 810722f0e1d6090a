import ArgumentParser
import Foundation
import GatewayAssembly
import GatewayServer
import SocialDomain

/// `social-gateway token HANDLE`: prints a bearer token for a user of the embedded store. The
/// handle is resolved through the composition root (``OperatorLookup``), which opens the store
/// the settings name: this command never opens a store itself.
struct TokenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "token",
        abstract: "Print a bearer token for a user of the embedded store.",
        discussion: """
            Signs an HS256 token with the dev secret in the data folder (created on first use, \
            the same one `serve` verifies with), for a demo user (\
            \(OperatorLookup.demoHandles.joined(separator: ", "))) or any other profile in the \
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
        // The same settings `serve` reads, so both resolve one data folder, secret and audience.
        var settings: GatewaySettings
        let secret: String
        do {
            settings = try GatewaySettings.fromEnvironment()
            if let dataDirectory { settings.server.dataDirectory = URL(fileURLWithPath: dataDirectory, isDirectory: true) }
            guard let found = try settings.signingSecret() else {
                throw ConfigurationError("this store verifies tokens with its JWKS only; there is no secret to sign with")
            }
            secret = found
        } catch {
            FileHandle.standardError.write(Data("error: \(error)\n".utf8))
            throw ExitCode(1)
        }
        let issuer = await DevTokenIssuer(
            secret: secret, audience: audience ?? settings.server.jwtAudience, issuer: settings.server.jwtIssuer)
        let id: UUID
        do {
            id = try await OperatorLookup.profileID(forHandle: handle, settings: settings)
        } catch let notFound as OperatorLookup.ProfileNotFound {
            FileHandle.standardError.write(Data("error: \(notFound)\n".utf8))
            throw ExitCode(1)
        }
        print(try await issuer.token(for: id, ttl: TimeInterval(ttl)))
    }
}
