import Foundation
import GatewayServer
import Hummingbird
import HummingbirdTesting
import JWTKit
import SocialFixtures
import Testing

/// Bearer JWT authentication: every bad token is a 401 UNAUTHENTICATED, never an anonymous request.
@Suite("Authentication")
struct AuthenticationTests {
    static let viewerQuery = GraphQLBody.json("{ viewer { handle } }")

    /// POSTs `{ viewer { handle } }` with the header and checks a 401 with exactly this message.
    static func expectRejected(_ gateway: TestGateway, authorization: String, message: String) async throws {
        try await gateway.test { client in
            try await client.execute(
                uri: "/graphql", method: .post, headers: .graphQL(authorization: authorization), body: viewerQuery
            ) { response in
                #expect(response.status == .unauthorized)
                #expect(response.headers[.wwwAuthenticate]?.hasPrefix("Bearer realm=\"social-gateway\", error=\"invalid_token\"") == true)
                #expect(response.text == #"{"errors":[{"message":"\#(message)","extensions":{"code":"UNAUTHENTICATED"}}]}"#)
            }
        }
    }

    static func base64URL(_ text: String) -> String {
        Data(text.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    @Test("Auth: a valid HS256 dev token makes the request the demo user's; no header is anonymous")
    func validToken() async throws {
        let gateway = try await TestGateway.make()
        let bearer = try await gateway.bearer("alice_wonder")
        try await gateway.test { client in
            try await client.execute(uri: "/graphql", method: .post, headers: .graphQL(authorization: bearer), body: Self.viewerQuery) { response in
                #expect(response.status == .ok)
                #expect(response.text == #"{"data":{"viewer":{"handle":"alice_wonder"}}}"#)
            }
            try await client.execute(uri: "/graphql", method: .post, headers: .graphQL(), body: Self.viewerQuery) { response in
                #expect(response.text == #"{"data":{"viewer":null}}"#)
            }
        }
    }

    @Test("Auth: an expired token is 401 UNAUTHENTICATED")
    func expired() async throws {
        let gateway = try await TestGateway.make()
        let token = try await gateway.issuer.token(for: DemoData.aliceId, ttl: 60, now: Date() - 3600)
        try await Self.expectRejected(gateway, authorization: "Bearer " + token, message: "The token has expired.")
    }

    @Test("Auth: a token signed with another secret is 401 (wrong signature)")
    func wrongSignature() async throws {
        let gateway = try await TestGateway.make()
        let other = await DevTokenIssuer(secret: String(repeating: "ab", count: 32))
        let token = try await other.token(for: DemoData.aliceId)
        try await Self.expectRejected(gateway, authorization: "Bearer " + token, message: "The token's signature is invalid.")
    }

    @Test("Auth: alg none is refused before any key is looked up")
    func algNone() async throws {
        let gateway = try await TestGateway.make()
        let payload = #"{"sub":"\#(DemoData.aliceId.uuidString.lowercased())","aud":"authenticated","exp":\#(Int(Date().timeIntervalSince1970) + 600)}"#
        let token = Self.base64URL(#"{"alg":"none","typ":"JWT"}"#) + "." + Self.base64URL(payload) + "."
        try await Self.expectRejected(
            gateway, authorization: "Bearer " + token, message: #"Tokens signed with \"none\" are not accepted; this server accepts HS256."#)
    }

    @Test("Auth: an RS256 header on an HS256 server is refused (no algorithm confusion)")
    func algorithmConfusion() async throws {
        let gateway = try await TestGateway.make()
        let token = Self.base64URL(#"{"alg":"RS256","typ":"JWT"}"#) + "." + Self.base64URL("{}") + ".c2ln"
        try await Self.expectRejected(
            gateway, authorization: "Bearer " + token, message: #"Tokens signed with \"RS256\" are not accepted; this server accepts HS256."#)
    }

    @Test("Auth: a token not valid yet (nbf) is 401")
    func notBefore() async throws {
        let gateway = try await TestGateway.make()
        let token = try await gateway.issuer.token(for: DemoData.aliceId, ttl: 7200, now: Date() + 3600)
        try await Self.expectRejected(gateway, authorization: "Bearer " + token, message: "The token is not valid yet (nbf).")
    }

    @Test("Auth: a token for another audience is 401")
    func wrongAudience() async throws {
        let gateway = try await TestGateway.make()
        let other = await DevTokenIssuer(secret: gateway.backend.jwtSecret!, audience: "someone-else")
        let token = try await other.token(for: DemoData.aliceId)
        try await Self.expectRejected(
            gateway, authorization: "Bearer " + token, message: #"The token's audience (aud) is not \"authenticated\"."#)
    }

    @Test("Auth: a subject that is not a UUID is 401")
    func subjectNotUUID() async throws {
        let gateway = try await TestGateway.make()
        let keys = JWTKeyCollection()
        await keys.add(hmac: HMACKey(from: gateway.backend.jwtSecret!), digestAlgorithm: .sha256)
        let claims = GatewayClaims(sub: "alice", exp: ExpirationClaim(value: Date() + 600), aud: "authenticated")
        let token = try await keys.sign(claims)
        try await Self.expectRejected(gateway, authorization: "Bearer " + token, message: "The token's subject (sub) is not a user id.")
    }

    @Test("Auth: a non-Bearer scheme and a token that is not a JWT are 401")
    func malformedHeaders() async throws {
        let gateway = try await TestGateway.make()
        try await Self.expectRejected(gateway, authorization: "Basic YWxpY2U6cHc=", message: #"The Authorization header must be \"Bearer <token>\"."#)
        try await Self.expectRejected(gateway, authorization: "Bearer not-a-jwt", message: "The bearer token is not a JSON Web Token.")
    }

    @Test("Auth: ES256 tokens verify through a JWKS; an unknown kid is refused")
    func es256ThroughJWKS() async throws {
        let privateKey = ES256PrivateKey()
        let parameters = try #require(privateKey.publicKey.parameters)
        let jwks = #"{"keys":[{"kty":"EC","crv":"P-256","x":"\#(parameters.x)","y":"\#(parameters.y)","kid":"key-1","alg":"ES256","use":"sig"}]}"#
        let cache = JWKSCache(url: URL(string: "https://issuer.test/jwks.json")!) { _ in Data(jwks.utf8) }
        try await cache.refresh()
        let authenticator = await JWTAuthenticator(hmacSecret: nil, jwks: cache, audience: "authenticated")
        let signer = JWTKeyCollection()
        await signer.add(ecdsa: privateKey, kid: "key-1")
        let claims = GatewayClaims(
            sub: SubjectClaim(value: DemoData.bobId.uuidString.uppercased()), exp: ExpirationClaim(value: Date() + 600), aud: "authenticated")
        let token = try await signer.sign(claims, kid: "key-1")
        let viewer = try await authenticator.viewer(authorization: "Bearer " + token)
        #expect(viewer == .user(id: DemoData.bobId, token: token))

        let stranger = JWTKeyCollection()
        await stranger.add(ecdsa: ES256PrivateKey(), kid: "key-2")
        let forged = try await stranger.sign(claims, kid: "key-2")
        await #expect(throws: GatewayHTTPError.unauthenticated("The token was signed with an unknown key (kid).")) {
            try await authenticator.viewer(authorization: "Bearer " + forged)
        }
        let wrongKey = JWTKeyCollection()
        await wrongKey.add(ecdsa: ES256PrivateKey(), kid: "key-1")
        let impostor = try await wrongKey.sign(claims, kid: "key-1")
        await #expect(throws: GatewayHTTPError.unauthenticated("The token's signature is invalid.")) {
            try await authenticator.viewer(authorization: "Bearer " + impostor)
        }
    }

    @Test("Embedded mode: the dev secret is generated once into the data folder with mode 0600")
    func devSecret() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("dev-secret-\(UUID().uuidString)")
        let first = try DevSecret.loadOrCreate(in: folder)
        let second = try DevSecret.loadOrCreate(in: folder)
        #expect(first == second)
        #expect(first.count == 64)
        let attributes = try FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent("dev-jwt-secret").path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
    }
}
