import Foundation
import SocialDomain
import SupabaseFake
import Testing
@testable import SupabaseStore

@Suite("SupabaseStore under upstream faults",
      .enabled(if: StoreHarness.available, "needs SOCIAL_GATEWAY_TEST_POSTGRES (scripts/test starts a server)"))
struct FaultInjectionTests {
    static let ids = [StoreHarness.alice]

    @Test("a read retried after a 500 succeeds on the second attempt")
    func readRetriedAfter500() async throws {
        try await StoreHarness.run { h in
            h.fake.inject(.status(500, #"{"code":"XX000","details":null,"hint":null,"message":"boom"}"#))
            let found = try await h.store.profiles(ids: Self.ids, viewer: .anonymous)
            #expect(found[StoreHarness.alice] != nil)
            #expect(h.fake.requests.count == 2)
        }
    }

    @Test("reads give up after maxReadRetries with BACKEND_UNAVAILABLE and the safe message")
    func readsGiveUp() async throws {
        try await StoreHarness.run { h in
            h.fake.inject(.status(503, #"{"code":"PGRST001","details":null,"hint":null,"message":"Database client error. Retrying the connection."}"#), times: 10)
            let error = await StoreHarness.domainError { _ = try await h.store.profiles(ids: Self.ids, viewer: .anonymous) }
            #expect(error == DomainError.backendUnavailable)
            #expect(error?.message == "The service is temporarily unavailable. Please try again later.")
            #expect(h.fake.requests.count == 3)   // 1 + maxReadRetries (2)
        }
    }

    @Test("writes are sent once: a 500 on toggle is not retried")
    func writesNotRetried() async throws {
        try await StoreHarness.run { h in
            h.fake.inject(.status(500, #"{"code":"XX000","details":null,"hint":null,"message":"boom"}"#), times: 10)
            let error = await StoreHarness.domainError {
                _ = try await h.store.changeFollow(
                    FollowChange(pair: FollowPair(follower: StoreHarness.alice, followee: StoreHarness.bob), action: .toggle), viewer: h.asAlice)
            }
            #expect(error == DomainError.backendUnavailable)
            #expect(h.fake.requests.count == 1)
        }
    }

    @Test("a write PostgreSQL rolled back as a deadlock victim (PostgREST: 500, code 40P01) is sent again and succeeds; one that keeps failing stops after maxReadRetries")
    func rolledBackWriteRetried() async throws {
        try await StoreHarness.run { h in
            let toggle = FollowChange(pair: FollowPair(follower: StoreHarness.alice, followee: StoreHarness.bob), action: .toggle)
            let before = try await h.store.changeFollow(toggle, viewer: h.asAlice)
            h.fake.clearRequests()
            h.fake.inject(.status(500, #"{"code":"40P01","details":"Process 1 waits for ShareLock on transaction 2","hint":"See server log for query details.","message":"deadlock detected"}"#),
                          pathPrefix: "/rest/v1/rpc/")
            let after = try await h.store.changeFollow(toggle, viewer: h.asAlice)
            #expect(after.isFollowing != before.isFollowing)   // toggled once: the rolled-back attempt left nothing
            #expect(h.fake.requests.count == 2)

            h.fake.clearRequests()
            h.fake.inject(.status(500, #"{"code":"40001","details":null,"hint":null,"message":"could not serialize access"}"#),
                          pathPrefix: "/rest/v1/rpc/", times: 10)
            let error = await StoreHarness.domainError { _ = try await h.store.changeFollow(toggle, viewer: h.asAlice) }
            #expect(error == DomainError.backendUnavailable)
            #expect(h.fake.requests.count == 3)   // 1 + maxReadRetries (2)
        }
    }

    @Test("an upstream slower than requestTimeout is BACKEND_UNAVAILABLE")
    func timeout() async throws {
        try await StoreHarness.run(configure: { $0.requestTimeout = .milliseconds(300); $0.maxReadRetries = 0 }) { h in
            h.fake.inject(.delay(.seconds(2)))
            let error = await StoreHarness.domainError { _ = try await h.store.profiles(ids: Self.ids, viewer: .anonymous) }
            #expect(error == DomainError.backendUnavailable)
        }
    }

    @Test("a body trickled a byte at a time, each byte within the read timeout, is BACKEND_UNAVAILABLE at the request timeout")
    func slowBody() async throws {
        try await StoreHarness.run(configure: { $0.requestTimeout = .milliseconds(600); $0.maxReadRetries = 0 }) { h in
            h.fake.inject(.slowBody(.milliseconds(50)))
            let start = ContinuousClock.now
            let error = await StoreHarness.domainError { _ = try await h.store.profiles(ids: Self.ids, viewer: .anonymous) }
            #expect(error == DomainError.backendUnavailable)
            // The whole answer would take 50 ms x several hundred bytes; the client stops at its timeout.
            #expect(ContinuousClock.now - start < .seconds(3))
        }
    }

    @Test("a connection cut in the middle of a body is BACKEND_UNAVAILABLE for a write; a read retries and succeeds")
    func resetMidBody() async throws {
        try await StoreHarness.run(configure: { $0.maxReadRetries = 1 }) { h in
            h.fake.inject(.resetMidBody, times: 1)
            let profiles = try await h.store.profiles(ids: Self.ids, viewer: .anonymous)
            #expect(Array(profiles.keys) == Self.ids)
            #expect(h.fake.requests.count == 2)

            h.fake.clearRequests()
            h.fake.inject(.resetMidBody, pathPrefix: "/rest/v1/rpc/", times: 1)
            let error = await StoreHarness.domainError {
                _ = try await h.store.changeFollow(
                    FollowChange(pair: FollowPair(follower: StoreHarness.alice, followee: StoreHarness.bob), action: .toggle), viewer: h.asAlice)
            }
            #expect(error == DomainError.backendUnavailable)
            #expect(h.fake.requests.filter { $0.path.hasPrefix("/rest/v1/rpc/") }.count == 1, "a write is sent once")
        }
    }

    @Test("connection refused is BACKEND_UNAVAILABLE after the bounded retries")
    func connectionRefused() async throws {
        try await StoreHarness.run { h in
            await h.fake.stop()
            let error = await StoreHarness.domainError { _ = try await h.store.profiles(ids: Self.ids, viewer: .anonymous) }
            #expect(error == DomainError.backendUnavailable)
        }
    }

    @Test("malformed JSON and an HTML 502 page are BACKEND_UNAVAILABLE, never a crash or a leak")
    func malformedBodies() async throws {
        try await StoreHarness.run(configure: { $0.maxReadRetries = 0 }) { h in
            h.fake.inject(.malformedJSON)
            let malformed = await StoreHarness.domainError { _ = try await h.store.profiles(ids: Self.ids, viewer: .anonymous) }
            #expect(malformed == DomainError.backendUnavailable)
            h.fake.inject(.htmlGateway)
            let html = await StoreHarness.domainError { _ = try await h.store.searchProfiles(SearchQuery(text: "al"), viewer: .anonymous) }
            #expect(html == DomainError.backendUnavailable)
        }
    }

    @Test("an expired token is UNAUTHENTICATED from PostgREST (401 PGRST303) and from Storage (400 InvalidJWT)")
    func expiredToken() async throws {
        try await StoreHarness.run { h in
            let expired = Viewer.user(id: StoreHarness.alice, token: SupabaseFake.token(for: StoreHarness.alice, expired: true))
            let rest = await StoreHarness.domainError { _ = try await h.store.profiles(ids: Self.ids, viewer: expired) }
            #expect(rest?.code == .unauthenticated)
            #expect(rest?.message == "Your session expired. Please log in again.")  // seed 002's wording
            #expect(h.fake.requests.count == 1)   // a 401 is not retried
            let storage = await StoreHarness.domainError {
                _ = try await h.store.putMedia(
                    Data([0xFF, 0xD8, 0xFF]), at: MediaPath(kind: .avatar, owner: StoreHarness.alice, unixTime: 1, suffix: "0123abcd", format: .jpeg),
                    viewer: expired)
            }
            #expect(storage == rest)
        }
    }

    @Test("error mapping: 403/42501 FORBIDDEN, 23503 NOT_FOUND, PGRST301 UNAUTHENTICATED, 504 BACKEND_UNAVAILABLE")
    func postgrestMapping() {
        func map(_ status: Int, _ code: String) -> DomainError {
            SupabaseErrorMapper.postgrest(SupabaseResponse(
                status: status, headers: [:], body: Data(#"{"code":"\#(code)","details":null,"hint":null,"message":"m"}"#.utf8)))
        }
        #expect(map(403, "42501") == DomainError.notAuthorized)
        #expect(map(401, "42501").code == .unauthenticated)
        #expect(map(409, "23503") == DomainError.profileNotFound)
        #expect(map(401, "PGRST301").code == .unauthenticated)
        #expect(map(409, "23505") == DomainError.handleTaken)
        #expect(map(504, "PGRST003") == DomainError.backendUnavailable)
        #expect(map(400, "22P02") == DomainError.backendUnavailable)
    }
}
