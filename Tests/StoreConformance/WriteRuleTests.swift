import Foundation
import GatewayTestSupport
import SocialDomain
import SocialGateway
import Testing

/// The rules the decision names for writes between two profiles, on every store: asking again
/// after a decline, and what a block forbids.
@Suite("Store conformance: requests and blocks")
struct WriteRuleTests {
    @Test("issue 52: declined within 7 days, asking again is TOO_MANY_REQUESTS with the seconds left in retryAfter",
          arguments: StoreKind.allCases)
    func askAgainTooSoon(_ kind: StoreKind) async throws {
        try await Conformance.run(kind) { store, oracle in
            let recent = oracle.graph.declined.filter { !oracle.graph.declinedLongAgo.contains($0) }
            let pair = try #require(recent.first)
            do {
                _ = try await store.stores.follows.changeFollow(FollowChange(pair: pair, action: .follow), viewer: store.viewer(pair.follower))
                Issue.record("asking again within 7 days of a decline was accepted")
            } catch let error as DomainError {
                #expect(error.code == .tooManyRequests)
                let wait = try #require(error.retryAfterSeconds)
                #expect(wait <= Int(FollowRequestRules.askAgainAfterDecline) && wait > Int(FollowRequestRules.askAgainAfterDecline) - 600,
                        "retryAfter \(wait)")
            }
            // And the viewer reads the declined request as NONE: no pending pair.
            let pending = try await store.stores.follows.pendingFollowRequests(among: [pair], viewer: store.viewer(pair.follower))
            #expect(pending.isEmpty)
        }
    }

    @Test("issue 52: declined more than 7 days ago, asking again makes a pending request", arguments: StoreKind.allCases)
    func askAgainLater(_ kind: StoreKind) async throws {
        try await Conformance.run(kind) { store, oracle in
            let pair = try #require(oracle.graph.declined.first { oracle.graph.declinedLongAgo.contains($0) })
            // The Supabase fake keeps its requests in Swift: a test cannot move its decisions back.
            guard store.canAgeDeclines else { return }
            let outcome = try await store.stores.follows.changeFollow(
                FollowChange(pair: pair, action: .follow), viewer: store.viewer(pair.follower))
            #expect(outcome.requestStatus == .pending && !outcome.isFollowing && outcome.changed)
            let pending = try await store.stores.follows.pendingFollowRequests(among: [pair], viewer: store.viewer(pair.follower))
            #expect(pending == [pair])
        }
    }

    @Test("issue 52: across a block neither side can follow or ask to follow the other: NOT_FOUND",
          arguments: StoreKind.allCases)
    func blocked(_ kind: StoreKind) async throws {
        try await Conformance.run(kind) { store, oracle in
            for block in oracle.graph.blocks {
                for pair in [block, FollowPair(follower: block.followee, followee: block.follower)] {
                    await #expect(throws: DomainError.profileNotFound, "\(Conformance.name(pair.followee, for: store.viewer(pair.follower)))") {
                        _ = try await store.stores.follows.changeFollow(
                            FollowChange(pair: pair, action: .follow), viewer: store.viewer(pair.follower))
                    }
                }
            }
        }
    }
}
