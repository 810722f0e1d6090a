import Foundation
import SocialDomain
import Synchronization
import Testing

@testable import GatewayServer

/// The authenticator remembers verified signatures for a minute; every claim is still checked on
/// every request (issue #17: verifying each request's token cost a third of a cached answer).
@Suite("Verified tokens")
struct VerifiedTokensTests {
    static let secret = String(repeating: "k", count: 40)
    static let alice = UUID(uuidString: "a11ce000-0000-4000-8000-000000000001")!

    /// An authenticator whose clock the test moves.
    final class Clock: Sendable {
        let time = Mutex(Date(timeIntervalSince1970: 1_800_000_000))
        func now() -> Date { time.withLock { $0 } }
        func advance(_ seconds: TimeInterval) { time.withLock { $0 += seconds } }
    }

    func make(_ clock: Clock) async -> JWTAuthenticator {
        await JWTAuthenticator(hmacSecret: Self.secret, jwks: nil, audience: "authenticated", leeway: 0, now: { clock.now() })
    }

    @Test("a remembered token still expires on time: its claims are checked against each request's clock")
    func expiryStillChecked() async throws {
        let clock = Clock()
        let auth = await make(clock)
        let token = try await DevTokenIssuer(secret: Self.secret).token(for: Self.alice, ttl: 30, now: clock.now())
        #expect(try await auth.viewer(authorization: "Bearer " + token).userId == Self.alice)
        #expect(auth.verified.count == 1)
        clock.advance(31)
        await #expect(throws: GatewayHTTPError.unauthenticated("The token has expired.")) {
            try await auth.viewer(authorization: "Bearer " + token)
        }
    }

    @Test("the Authorization header's spellings: scheme in any case, blanks around the token; nothing else")
    func headerSpellings() async throws {
        let clock = Clock()
        let auth = await make(clock)
        let token = try await DevTokenIssuer(secret: Self.secret).token(for: Self.alice, ttl: 600, now: clock.now())
        for header in ["Bearer " + token, "bearer " + token, "BEARER " + token, "Bearer  " + token, "  Bearer " + token,
                       "Bearer " + token + " ", "Bearer " + token + "\t", "Bearer \t" + token] {
            #expect(try await auth.viewer(authorization: header).userId == Self.alice, "\(header.prefix(12))")
        }
        for header in ["Bearer", "Bearer ", "Bearer  ", "Basic " + token, "Bearer" + token, "Bearer\t" + token] {
            await #expect(throws: GatewayHTTPError.self, "\(header.prefix(12))") {
                try await auth.viewer(authorization: header)
            }
        }
    }

    @Test("the same claims with another signature are not the remembered token: refused")
    func tamperedSignature() async throws {
        let clock = Clock()
        let auth = await make(clock)
        let token = try await DevTokenIssuer(secret: Self.secret).token(for: Self.alice, ttl: 600, now: clock.now())
        _ = try await auth.viewer(authorization: "Bearer " + token)
        let parts = token.split(separator: ".")
        let forged = parts[0] + "." + parts[1] + "." + String(parts[2].reversed())
        await #expect(throws: GatewayHTTPError.unauthenticated("The token's signature is invalid.")) {
            try await auth.viewer(authorization: "Bearer " + forged)
        }
        #expect(auth.verified.count == 1)
    }

    @Test("a signature is trusted for a minute, then verified again; refused tokens are never remembered")
    func trustedForAMinute() async throws {
        let clock = Clock()
        let auth = await make(clock)
        let token = try await DevTokenIssuer(secret: Self.secret).token(for: Self.alice, ttl: 3600, now: clock.now())
        _ = try await auth.viewer(authorization: "Bearer " + token)
        #expect(auth.verified.entry(for: token, now: clock.now()) != nil)
        clock.advance(VerifiedTokens.maxAge + 1)
        #expect(auth.verified.entry(for: token, now: clock.now()) == nil)
        _ = try await auth.viewer(authorization: "Bearer " + token)   // verified again, remembered again
        #expect(auth.verified.entry(for: token, now: clock.now()) != nil)
        let other = try await DevTokenIssuer(secret: Self.secret, audience: "elsewhere").token(for: Self.alice, now: clock.now())
        _ = try? await auth.viewer(authorization: "Bearer " + other)
        #expect(auth.verified.count == 1)
    }

    @Test("the memory is bounded: past its capacity it starts again")
    func bounded() async throws {
        let tokens = VerifiedTokens()
        let claims = GatewayClaims(sub: .init(value: Self.alice.uuidString), exp: .init(value: Date() + 60))
        let session = Session(userId: Self.alice, verifiedToken: "t")
        for i in 0..<VerifiedTokens.capacity { tokens.remember("t\(i)", claims: claims, session: session, now: Date()) }
        #expect(tokens.count == VerifiedTokens.capacity)
        tokens.remember("one more", claims: claims, session: session, now: Date())
        #expect(tokens.count == 1)
    }

    @Test("a token is read once: every request with it gets the same session, with the token's session id and times (issue 53)")
    func oneSessionPerToken() async throws {
        let clock = Clock()
        let auth = await make(clock)
        let sessionId = UUID()
        let token = try await DevTokenIssuer(secret: Self.secret).token(for: Self.alice, ttl: 60, now: clock.now(), sessionId: sessionId)
        let first = try #require(try await auth.viewer(authorization: "Bearer " + token).session)
        let second = try #require(try await auth.viewer(authorization: "Bearer " + token).session)
        #expect(first === second, "the token was read again for its second request")
        #expect(first.userId == Self.alice && first.token == token)
        #expect(first.sessionId == sessionId)
        #expect(first.issuedAt == clock.now() && first.expiresAt == clock.now() + 60)
        #expect(first.claimsJSON.contains(#""role":"authenticated""#))
    }
}
