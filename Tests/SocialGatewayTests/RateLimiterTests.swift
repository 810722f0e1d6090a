import Foundation
import GraphQLEngine
import ResponseCache
import SocialDomain
import SocialFixtures
import SocialGateway
import Synchronization
import Testing

/// A clock tests move by hand: no sleeps, no timing.
final class ManualClock: Sendable {
    private let seconds = Mutex(1_000.0)
    func advance(_ by: Double) { seconds.withLock { $0 += by } }
    var now: @Sendable () -> Double { { [self] in seconds.withLock { $0 } } }
}

@Suite("Rate limits per viewer: token buckets")
struct RateLimiterTests {
    let clock = ManualClock()

    func limiter(capacity: Int = 100, refill: Int = 10, maxKeys: Int = 100) -> RateLimiter {
        RateLimiter(
            query: .init(name: "query", capacity: capacity, refillPerSecond: refill),
            mutation: .init(name: "mutation", capacity: capacity / 2, refillPerSecond: refill), maxKeys: maxKeys, now: clock.now)
    }

    @Test("a bucket spends each request's cost, refuses what it has not, and refills with time")
    func spendAndRefill() {
        let limiter = limiter()
        let alice = RateLimiter.Caller.viewer("alice")
        #expect(limiter.spend(60, caller: alice, bucket: .query).remaining == 40)
        let refused = limiter.spend(60, caller: alice, bucket: .query)
        #expect(refused == RateLimiter.Decision(allowed: false, policy: limiter.query, remaining: 0, retryAfterSeconds: 2))
        clock.advance(1)
        #expect(limiter.spend(60, caller: alice, bucket: .query).allowed == false)
        clock.advance(1)
        #expect(limiter.spend(60, caller: alice, bucket: .query) == .init(allowed: true, policy: limiter.query, remaining: 0, retryAfterSeconds: 0))
        // Refilling stops at the capacity.
        clock.advance(3_600)
        #expect(limiter.spend(1, caller: alice, bucket: .query).remaining == 99)
    }

    @Test("a request costs at least 1 and at most the whole bucket, so none is refused forever")
    func clamped() {
        let limiter = limiter()
        let caller = RateLimiter.Caller.address("203.0.113.1")
        #expect(limiter.spend(0, caller: caller, bucket: .query).remaining == 99)
        clock.advance(10)
        #expect(limiter.spend(5_000, caller: caller, bucket: .query) == .init(allowed: true, policy: limiter.query, remaining: 0, retryAfterSeconds: 0))
        #expect(limiter.spend(5_000, caller: caller, bucket: .query).retryAfterSeconds == 10)
    }

    @Test("mutations spend from a bucket of their own")
    func separateBuckets() {
        let limiter = limiter()
        let bob = RateLimiter.Caller.viewer("bob")
        #expect(limiter.spend(100, caller: bob, bucket: .query).allowed)
        #expect(!limiter.spend(1, caller: bob, bucket: .query).allowed)
        #expect(limiter.spend(50, caller: bob, bucket: .mutation).allowed)
        #expect(!limiter.spend(1, caller: bob, bucket: .mutation).allowed)
    }

    @Test("each viewer and each anonymous address has its own bucket; a viewer's is not its address's")
    func callersApart() {
        let limiter = limiter()
        #expect(limiter.spend(100, caller: .address("203.0.113.1"), bucket: .query).allowed)
        #expect(!limiter.spend(1, caller: .address("203.0.113.1"), bucket: .query).allowed)
        #expect(limiter.spend(1, caller: .address("203.0.113.2"), bucket: .query).allowed)
        #expect(limiter.spend(1, caller: .viewer("203.0.113.1"), bucket: .query).allowed)
        #expect(limiter.spend(1, caller: .address(nil), bucket: .query).allowed)
    }

    @Test("the table is bounded: idle (full) buckets go first, then the least recently used")
    func bounded() {
        let limiter = limiter(maxKeys: 4)
        for index in 0..<3 { _ = limiter.spend(1, caller: .viewer("v\(index)"), bucket: .query) }
        clock.advance(1)
        #expect(limiter.spend(100, caller: .viewer("drained"), bucket: .query).allowed)
        // The fifth bucket: v0...v2 have refilled (full: as good as absent) and go; the drained one stays.
        _ = limiter.spend(1, caller: .viewer("new"), bucket: .query)
        #expect(limiter.count == 2)
        #expect(!limiter.spend(100, caller: .viewer("drained"), bucket: .query).allowed)
        // Many addresses at once: the least recently used go, the table stays within its bound.
        for index in 0..<1_000 { _ = limiter.spend(100, caller: .address("10.0.\(index / 256).\(index % 256)"), bucket: .query) }
        #expect(limiter.count <= 4)
    }

    @Test("issue 51: the default read bucket refuses one viewer's flood of uncached follower graphs (200 a second, 1,153 units each)")
    func defaultRefusesFlood() {
        let limiter = RateLimiter(query: GatewayOptions.queryRateLimit, mutation: GatewayOptions.mutationRateLimit, now: clock.now)
        let flooder = RateLimiter.Caller.viewer("flooder")
        var allowed = 0, refused = 0
        // Ten seconds of 200 graphs a second, 5 ms apart.
        for _ in 0..<2_000 {
            if limiter.spend(1_153, caller: flooder, bucket: .query).allowed { allowed += 1 } else { refused += 1 }
            clock.advance(0.005)
        }
        let policy = limiter.query
        // The flood gets the burst and the refill, no more: a quarter of what a replica serves.
        #expect(refused > 0)
        #expect(allowed * 1_153 <= policy.capacity + 10 * policy.refillPerSecond + 1_153)
        #expect(allowed < 2_000 / 2)
        // Someone else's bucket is untouched.
        #expect(limiter.spend(1_153, caller: .viewer("someone else"), bucket: .query).allowed)
    }

    @Test("RateLimit-Policy and RateLimit follow draft-ietf-httpapi-ratelimit-headers")
    func headers() {
        let limiter = limiter(capacity: 100, refill: 10)
        let caller = RateLimiter.Caller.viewer("carol")
        _ = limiter.spend(95, caller: caller, bucket: .query)
        let refused = limiter.spend(20, caller: caller, bucket: .query)
        #expect(refused.policyHeader == #""query";q=100;w=10"#)
        #expect(refused.stateHeader == #""query";r=0;t=2"#)
    }
}

@Suite("Rate limits per viewer in the gateway")
struct GatewayRateLimitTests {
    let clock = ManualClock()

    func options(capacity: Int, refill: Int = 1, mutation: Int = 100) -> GatewayOptions {
        var options = GatewayOptions()
        options.rateLimiter = RateLimiter(
            query: .init(name: "query", capacity: capacity, refillPerSecond: refill),
            mutation: .init(name: "mutation", capacity: mutation, refillPerSecond: refill), now: clock.now)
        return options
    }

    static let followers = #"{ profile(handle: "alice_wonder") { followers(first: 50) { nodes { handle } } } }"#

    @Test("a signed-in viewer spends each query's estimate (52 here) and is refused with TOO_MANY_REQUESTS and retryAfter")
    func perViewer() async throws {
        try await GatewayFixture.run(.embedded, options: options(capacity: 110)) { gateway in
            #expect(try await gateway.run(Self.followers, viewer: gateway.alice).json["errors"] == nil)
            #expect(try await gateway.run(Self.followers, viewer: gateway.alice).json["errors"] == nil)
            let (response, json) = try await gateway.run(Self.followers, viewer: gateway.alice)
            #expect(response.outcome == .requestError)
            #expect(response.rateLimit?.policy.name == "query")
            #expect(response.retryAfterSeconds == 46)
            #expect(GatewayFixture.codes(json) == ["TOO_MANY_REQUESTS"])
            #expect(json["errors"]?.arrayValue?.first?["extensions"] == ["code": "TOO_MANY_REQUESTS", "retryAfter": 46, "cost": 52])
            #expect(GatewayFixture.messages(json) == [
                "Too many requests: this caller's budget for reads (110 cost units, refilled at 1 a second) is spent. Retry in 46 seconds."
            ])
            #expect(json["data"] == nil)
            // Another viewer has a bucket of their own.
            #expect(try await gateway.run(Self.followers, viewer: gateway.bob).json["errors"] == nil)
            #expect(gateway.service.demandCounters.count(.rateLimitQuery, mode: .enforce) == 1)
            // Time refills it.
            clock.advance(46)
            #expect(try await gateway.run(Self.followers, viewer: gateway.alice).json["errors"] == nil)
        }
    }

    @Test("anonymous callers spend per address")
    func perAddress() async throws {
        try await GatewayFixture.run(.embedded, options: options(capacity: 3)) { gateway in
            let card = #"{ profile(handle: "alice_wonder") { handle } }"#
            for _ in 0..<3 {
                let answer = try await gateway.run(card, clientAddress: "203.0.113.1")
                #expect(answer.json["errors"] == nil)
            }
            #expect(GatewayFixture.codes(try await gateway.run(card, clientAddress: "203.0.113.1").json) == ["TOO_MANY_REQUESTS"])
            #expect(try await gateway.run(card, clientAddress: "203.0.113.2").json["errors"] == nil)
        }
    }

    @Test("issue 51: anonymous callers in one IPv6 /64 share a bucket; IPv4 addresses, and other /64s, have their own")
    func perSlash64() async throws {
        try await GatewayFixture.run(.embedded, options: options(capacity: 3)) { gateway in
            let card = #"{ profile(handle: "alice_wonder") { handle } }"#
            let addresses = [
                "2001:db8:a:b::1", "2001:db8:a:b::2", "2001:db8:a:b:ffff:1:2:3", "2001:db8:a:b::4", "2001:db8:a:c::1",
                "203.0.113.1", "203.0.113.1", "::ffff:203.0.113.1", "203.0.113.1", "203.0.113.2",
            ]
            var codes: [[String]] = []
            for address in addresses {
                let (_, json) = try await gateway.run(card, clientAddress: address)
                codes.append(GatewayFixture.codes(json))
            }
            // A fourth request from the /64, whatever its low bits, is over the bucket of 3; another
            // /64 has its own. 203.0.113.1 and ::ffff:203.0.113.1 are one caller; .2 another.
            #expect(codes == [[], [], [], ["TOO_MANY_REQUESTS"], [], [], [], [], ["TOO_MANY_REQUESTS"], []])
        }
    }

    @Test("mutations spend from their own bucket: reads spent do not stop writes, nor the reverse")
    func mutationBucket() async throws {
        try await GatewayFixture.run(.embedded, options: options(capacity: 52, mutation: 12)) { gateway in
            let bob = DemoData.bobId.uuidString.lowercased()
            let toggle = "mutation ($id: ID!) { toggleFollow(profileId: $id) { following profile { handle } } }"
            #expect(try await gateway.run(Self.followers, viewer: gateway.alice).json["errors"] == nil)
            #expect(GatewayFixture.codes(try await gateway.run(Self.followers, viewer: gateway.alice).json) == ["TOO_MANY_REQUESTS"])
            // toggleFollow costs 10 + 1 + 1 = 12: the whole write bucket.
            #expect(try await gateway.run(toggle, ["id": .string(bob)], viewer: gateway.alice).json["errors"] == nil)
            let (refused, json) = try await gateway.run(toggle, ["id": .string(bob)], viewer: gateway.alice)
            #expect(GatewayFixture.codes(json) == ["TOO_MANY_REQUESTS"])
            #expect(refused.rateLimit?.policy.name == "mutation")
            #expect(gateway.service.demandCounters.count(.rateLimitMutation, mode: .enforce) == 1)
        }
    }

    @Test("measure: a request over its rate limit runs, and is counted")
    func measure() async throws {
        var options = options(capacity: 1)
        options.demandControl.rateLimitMode = .measure
        try await GatewayFixture.run(.embedded, options: options) { gateway in
            // Each costs the whole bucket (52 clamped to 1): the first fits, the next two would be refused.
            for _ in 0..<3 {
                let answer = try await gateway.run(Self.followers, viewer: gateway.alice)
                #expect(answer.json["errors"] == nil)
            }
            #expect(gateway.service.demandCounters.count(.rateLimitQuery, mode: .measure) == 2)
        }
    }

    @Test("a cache hit spends 1, whatever the operation's estimate")
    func hitsSpendOne() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cache-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let cache = ResponseCacheStore.open(path: directory.appendingPathComponent("cache.sqlite"))
        var options = options(capacity: 60)
        options.cache = cache
        try await GatewayFixture.run(.embedded, options: options) { gateway in
            #expect(try await gateway.run(Self.followers, viewer: gateway.alice).json["errors"] == nil)  // 52 spent
            await settle(cache) { await cache.lookup(anyKeyProbe()) != nil || cache.counters.hits > 0 }
            try await Task.sleep(nanoseconds: 50_000_000)
            for _ in 0..<8 {
                let answer = try await gateway.run(Self.followers, viewer: gateway.alice)
                #expect(answer.json["errors"] == nil)
            }
            #expect(cache.counters.hits == 8)
            #expect(GatewayFixture.codes(try await gateway.run(Self.followers, viewer: gateway.alice).json) == ["TOO_MANY_REQUESTS"])
        }
    }
}
