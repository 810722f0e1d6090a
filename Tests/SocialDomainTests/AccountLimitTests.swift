import Foundation
import SocialDomain
import Testing

/// The limiter and the ended-session registry behind issue 37's account rules.
@Suite("Attempt limits and ended sessions (issue 37)")
struct AccountLimitTests {
    @Test("reserve checks and counts in one step: of 12 concurrent reservations exactly 5 pass")
    func concurrentReservations() async {
        let limiter = AttemptLimiter(limit: 5, window: .seconds(60))
        let passed = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<12 { group.addTask { (try? limiter.reserve("k")) != nil } }
            return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(passed == 5)
        // A refused reservation counted nothing; a released one gives its place back.
        limiter.release("k")
        #expect((try? limiter.reserve("k")) != nil)
        #expect(throws: DomainError.self) { try limiter.reserve("k") }
    }

    @Test("a signed-out session is refused until its token's expiry; other sessions are not")
    func sessionEnded() async {
        let clock = TestClock()
        let ended = EndedSessions(now: { clock.now })
        let (me, session, other) = (UUID(), UUID(), UUID())
        await ended.record(.session(session, user: me, until: clock.now.addingTimeInterval(3600)))
        #expect(ended.isEnded(user: me, session: session, issuedAt: clock.now))
        #expect(!ended.isEnded(user: me, session: other, issuedAt: clock.now))
        clock.now = clock.now.addingTimeInterval(3601)
        #expect(!ended.isEnded(user: me, session: session, issuedAt: clock.now))
    }

    @Test("a password change ends every token issued up to it but the new session's; later sign-ins live")
    func allSessionsEnded() async {
        let clock = TestClock()
        let ended = EndedSessions(now: { clock.now })
        let (me, kept, old) = (UUID(), UUID(), UUID())
        let change = clock.now
        await ended.record(.allSessions(user: me, issuedUpTo: change, except: kept))
        #expect(ended.isEnded(user: me, session: old, issuedAt: change.addingTimeInterval(-10)))
        #expect(ended.isEnded(user: me, session: nil, issuedAt: change))
        #expect(!ended.isEnded(user: me, session: kept, issuedAt: change))
        #expect(!ended.isEnded(user: me, session: UUID(), issuedAt: change.addingTimeInterval(1)))
        #expect(!ended.isEnded(user: UUID(), session: old, issuedAt: change))
        // A later change ends the session the earlier one kept.
        await ended.record(.allSessions(user: me, issuedUpTo: change.addingTimeInterval(5), except: nil))
        #expect(ended.isEnded(user: me, session: kept, issuedAt: change))
    }

    @Test("a change ends the tokens of the seconds before it: a token of its own second (a sign-in right after) lives")
    func secondGranularity() async {
        let ended = EndedSessions()
        let me = UUID()
        await ended.record(.allSessions(of: me, changedAt: Date(timeIntervalSince1970: 1_800_000_000.7), except: nil))
        #expect(ended.isEnded(user: me, session: UUID(), issuedAt: Date(timeIntervalSince1970: 1_799_999_999)))
        #expect(!ended.isEnded(user: me, session: UUID(), issuedAt: Date(timeIntervalSince1970: 1_800_000_000)))
    }

    @Test("what is recorded is announced, once, to the other replicas")
    func announced() async {
        let heard = Heard()
        let ended = EndedSessions()
        ended.setAnnouncer { await heard.add($0) }
        let end = SessionEnd.session(UUID(), user: UUID(), until: Date().addingTimeInterval(60))
        await ended.record(end)
        ended.apply([end])   // another replica's copy coming back: not announced again
        #expect(await heard.ends == [end])
    }

    @Test("the claims of a verified token: session, issued-at and expiry")
    func tokenClaims() throws {
        let session = UUID()
        let payload = #"{"sub":"x","session_id":"\#(session.uuidString.lowercased())","iat":1700000000,"exp":1700003600}"#
        let token = "e30." + Base64URL.encode(Array(payload.utf8)) + ".sig"
        let claims = try #require(VerifiedTokenClaims(token: token))
        #expect(claims.sessionId == session)
        #expect(claims.issuedAt == Date(timeIntervalSince1970: 1_700_000_000))
        #expect(claims.expiresAt == Date(timeIntervalSince1970: 1_700_003_600))
        #expect(VerifiedTokenClaims(token: "not-a-jwt") == nil)
    }
}

final class TestClock: @unchecked Sendable {
    var now = Date(timeIntervalSince1970: 1_800_000_000)
}

actor Heard {
    var ends: [SessionEnd] = []
    func add(_ end: SessionEnd) { ends.append(end) }
}
