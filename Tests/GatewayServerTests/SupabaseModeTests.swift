import Foundation
import GatewayAssembly
import GatewayServer
import Hummingbird
import HummingbirdTesting
import JWTKit
import Testing

/// Supabase mode against a fake project: the store connects, and tokens are verified with the
/// JWKS found at the project's default URL (`<SUPABASE_URL>/auth/v1/.well-known/jwks.json`).
@Suite("Supabase mode")
struct SupabaseModeTests {
    @Test("Supabase mode: start-up fetches the project's JWKS; its ES256 tokens pass, HS256 dev tokens do not")
    func jwksFromProject() async throws {
        let key = ES256PrivateKey()
        let parameters = try #require(key.publicKey.parameters)
        let jwks = #"{"keys":[{"kty":"EC","crv":"P-256","x":"\#(parameters.x)","y":"\#(parameters.y)","kid":"project-key","alg":"ES256"}]}"#
        let fake = Router()
        fake.get("/rest/v1/profiles") { _, _ in
            Response(status: .ok, headers: [.contentType: "application/json"], body: ResponseBody(byteBuffer: ByteBuffer(string: "[]")))
        }
        fake.get("/auth/v1/.well-known/jwks.json") { _, _ in
            Response(status: .ok, headers: [.contentType: "application/json"], body: ResponseBody(byteBuffer: ByteBuffer(string: jwks)))
        }
        let project = Application(router: fake, configuration: ApplicationConfiguration(address: .hostname("127.0.0.1", port: 0)))
        try await project.test(.live) { projectClient in
            let port = try #require(projectClient.port)
            var settings = try GatewaySettings.fromEnvironment([
                "SUPABASE_URL": "http://127.0.0.1:\(port)", "SUPABASE_ANON_KEY": "sb_publishable_test", "PORT": "0",
            ])
            settings.server.logLevel = .warning
            let configuration = settings.server
            #expect(!settings.store.isEmbedded)
            #expect(configuration.jwksURL?.absoluteString == "http://127.0.0.1:\(port)/auth/v1/.well-known/jwks.json")
            let backend = try await BackendAssembly.open(settings, logger: TestGateway.logger(configuration))
            #expect(backend.mediaFiles == nil)
            #expect(backend.demoUsers.isEmpty)
            #expect(backend.jwtSecret == nil)

            let signer = JWTKeyCollection()
            await signer.add(ecdsa: key, kid: "project-key")
            let claims = GatewayClaims(
                sub: "0f0e0d0c-0000-4000-8000-000000000001", exp: ExpirationClaim(value: Date() + 600), aud: "authenticated",
                role: "authenticated")
            let token = try await signer.sign(claims, kid: "project-key")
            let devIssuer = await DevTokenIssuer(secret: String(repeating: "cd", count: 32))
            let devToken = try await devIssuer.token(for: UUID())

            let app = try await buildApplication(configuration: configuration.withSQLiteResponseCache, backend: backend, logger: TestGateway.logger(configuration))
            try await app.test(.router) { client in
                try await client.execute(
                    uri: "/graphql", method: .post, headers: .graphQL(authorization: "Bearer " + token),
                    body: GraphQLBody.json("{ __typename }")
                ) { response in
                    #expect(response.status == .ok)
                    #expect(response.text == #"{"data":{"__typename":"Query"}}"#)
                }
                try await client.execute(
                    uri: "/graphql", method: .post, headers: .graphQL(authorization: "Bearer " + devToken),
                    body: GraphQLBody.json("{ __typename }")
                ) { response in
                    #expect(response.status == .unauthorized)
                    #expect(response.firstErrorMessage == #"Tokens signed with "HS256" are not accepted; this server accepts ES256, RS256."#)
                }
                try await client.execute(uri: "/playground/demo-tokens", method: .get) { response in
                    #expect(response.status == .notFound)
                }
            }
            await backend.shutdown()
        }
    }
}
