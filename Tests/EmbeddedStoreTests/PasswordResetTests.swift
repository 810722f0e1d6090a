@testable import EmbeddedStore
import Foundation
import SocialDomain
import SocialFixtures
import Synchronization
import Testing

/// Issue 37: the embedded store's reset links and hashes, where an attacker without an account
/// can make the server work: a made-up token must cost no scrypt, a used link must end every
/// other link of the account, and the hashing queue must refuse rather than grow without end.
@Suite("Embedded accounts: reset links and the password-hashing queue (issue 37)", .serialized)
struct PasswordResetTests {
    struct Signer: AccessTokenSigner {
        func accessToken(userId: UUID, sessionId: UUID, email: String) async throws -> (token: String, expiresAt: Date) {
            ("t.e.st", Date(timeIntervalSinceNow: 3600))
        }
    }

    /// A store with the demo accounts whose reset links are kept for the test.
    static func store() async throws -> (EmbeddedStore, LinkBox) {
        var options = EmbeddedStore.Options()
        options.accessTokens = Signer()
        let box = LinkBox()
        options.passwordResetLog = { _, link in box.append(link) }
        return (try await EmbeddedStore.temporary(seedDemoData: true, options: options), box)
    }

    /// The reset links the store "mailed", oldest first.
    final class LinkBox: Sendable {
        private let links = Mutex<[String]>([])
        func append(_ link: String) { links.withLock { $0.append(link) } }
        var tokens: [String] { links.withLock { $0.map(PasswordResetTests.token) } }
    }

    static func token(_ link: String) -> String {
        String(link[link.range(of: "token=")!.upperBound...])
    }

    @Test("an unknown reset token is refused without hashing the new password")
    func unknownTokenHashesNothing() async throws {
        let (store, _) = try await Self.store()
        let before = EmbeddedStore.passwordHashesComputed
        await #expect(throws: DomainError.sessionExpired) {
            _ = try await store.resetPassword(token: "bogus-token", newPassword: "new-password-1")
        }
        #expect(EmbeddedStore.passwordHashesComputed == before)
    }

    @Test("a used reset link ends every other outstanding link of the account, older ones too")
    func resetEndsOtherLinks() async throws {
        let (store, links) = try await Self.store()
        try await store.requestPasswordReset(email: "alice@example.com")
        try await store.requestPasswordReset(email: "alice@example.com")
        let tokens = links.tokens
        #expect(tokens.count == 2)
        // The newer link works...
        _ = try await store.resetPassword(token: tokens[1], newPassword: "new-password-1")
        // ...and then the older one no longer does (before: it set the password again).
        await #expect(throws: DomainError.sessionExpired) {
            _ = try await store.resetPassword(token: tokens[0], newPassword: "attacker-password")
        }
        _ = try await store.signIn(email: "alice@example.com", password: "new-password-1")
    }

    @Test("a password change ends the account's outstanding reset links")
    func changeEndsLinks() async throws {
        let (store, links) = try await Self.store()
        try await store.requestPasswordReset(email: "alice@example.com")
        let viewer = Viewer.user(id: DemoData.aliceId, token: "t.e.st")
        _ = try await store.changePassword(current: DemoData.password, new: "changed-password", viewer: viewer)
        let token = try #require(links.tokens.first)
        await #expect(throws: DomainError.sessionExpired) {
            _ = try await store.resetPassword(token: token, newPassword: "attacker-password")
        }
    }

    @Test("with the hashing queue full, a sign-in is refused at once with SERVER_BUSY and a retry time, hashing nothing")
    func hashingQueueBounded() async throws {
        let (store, _) = try await Self.store()
        let gate = DispatchSemaphore(value: 0)
        // Occupy the queue: one job runs (blocked), the rest wait behind it.
        let blockers = (0..<PasswordHasher.maxQueued).map { _ in
            Task { try await PasswordHasher.run { gate.wait() } }
        }
        while PasswordHasher.depth < PasswordHasher.maxQueued { try await Task.sleep(for: .milliseconds(5)) }
        let before = EmbeddedStore.passwordHashesComputed
        await #expect(throws: DomainError.passwordHashingBusy) {
            _ = try await store.signIn(email: "alice@example.com", password: DemoData.password)
        }
        #expect(DomainError.passwordHashingBusy.retryAfterSeconds == 1)
        #expect(EmbeddedStore.passwordHashesComputed == before)
        for _ in blockers { gate.signal() }
        for blocker in blockers { try await blocker.value }
        #expect(PasswordHasher.depth == 0)
        _ = try await store.signIn(email: "alice@example.com", password: DemoData.password)
    }

    @Test("lockDemoAccounts disables the published demo password and leaves other accounts alone")
    func demoAccountsLocked() async throws {
        let (store, _) = try await Self.store()
        _ = try await store.signUp(email: "dana@example.com", password: DemoData.password, handle: "dana_dyno")
        #expect(try await store.lockDemoAccounts() == DemoData.users.count)
        await #expect(throws: DomainError.invalidCredentials) {
            _ = try await store.signIn(email: "alice@example.com", password: DemoData.password)
        }
        // Not a demo account, although its password is the same words.
        _ = try await store.signIn(email: "dana@example.com", password: DemoData.password)
        #expect(try await store.lockDemoAccounts() == 0)
    }
}
