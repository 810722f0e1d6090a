import EmbeddedStore
import Foundation
import SocialDomain
import Testing

/// A failed sign-in must not tell whether the email has an account: the same answer (other
/// suites) and the same work. Compared over repeated tries, medians within a generous factor:
/// both cost one scrypt, an answer without it would be ~1000x faster.
@Suite("Embedded accounts: failed sign-ins take the same time for a known and an unknown email")
struct SignInTimingTests {
    struct Signer: AccessTokenSigner {
        func accessToken(userId: UUID, sessionId: UUID, email: String) async throws -> (token: String, expiresAt: Date) {
            ("t.e.st", Date(timeIntervalSinceNow: 3600))
        }
    }

    @Test("median time of 7 failures each: known email with a wrong password vs. unknown email, within a factor of 2")
    func equalTime() async throws {
        var options = EmbeddedStore.Options()
        options.accessTokens = Signer()
        let store = try await EmbeddedStore.temporary(seedDemoData: true, options: options)
        func median(_ email: String) async throws -> Duration {
            var times: [Duration] = []
            for _ in 0..<7 {
                let start = ContinuousClock.now
                await #expect(throws: DomainError.invalidCredentials) { _ = try await store.signIn(email: email, password: "wrong-password") }
                times.append(ContinuousClock.now - start)
            }
            return times.sorted()[3]
        }
        let known = try await median("alice@example.com")
        let unknown = try await median("nobody@example.com")
        let ratio = Double(known.components.attoseconds + known.components.seconds * 1_000_000_000_000_000_000)
            / Double(unknown.components.attoseconds + unknown.components.seconds * 1_000_000_000_000_000_000)
        #expect(ratio > 0.5 && ratio < 2, "known \(known), unknown \(unknown)")
    }
}
