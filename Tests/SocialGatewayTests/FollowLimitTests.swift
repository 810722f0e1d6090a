import Foundation
import GatewayTestSupport
import GraphQLEngine
import SocialDomain
import SocialFixtures
import SocialGateway
import Testing

/// Follows and follow requests per viewer (issue 40, ``FollowLimits``), on every store.
@Suite("Follow limits")
struct FollowLimitTests {
    @Test("past the hourly limit a follow is TOO_MANY_REQUESTS with retryAfter; unfollows stay free and other viewers unaffected",
          arguments: StoreKind.allCases)
    func hourlyLimit(_ kind: StoreKind) async throws {
        var options = GatewayOptions()
        options.followLimits = FollowLimits(hourly: AttemptLimiter(limit: 2, window: .seconds(3600)))
        try await GatewayFixture.run(kind, options: options) { gateway in
            let bob = DemoData.bobId.lowercased, carol = DemoData.carolId.lowercased
            let follow = "mutation F($id: ID!) { follow(profileId: $id) { following } }"
            let unfollow = "mutation U($id: ID!) { unfollow(profileId: $id) { following } }"
            for id in [bob, carol] { _ = try await gateway.run(unfollow, ["id": .string(id)], viewer: gateway.alice) }
            for id in [bob, carol] {
                let made = try await gateway.run(follow, ["id": .string(id)], viewer: gateway.alice)
                #expect(made.json["data"]?["follow"] == ["following": true])
            }
            let unfollowed = try await gateway.run(unfollow, ["id": .string(bob)], viewer: gateway.alice)
            #expect(unfollowed.json["errors"] == nil)
            let third = try await gateway.run(follow, ["id": .string(bob)], viewer: gateway.alice)
            #expect(GatewayFixture.codes(third.json) == ["TOO_MANY_REQUESTS"])
            let retryAfter = third.json["errors"]?.arrayValue?.first?["extensions"]?["retryAfter"]?.intValue ?? 0
            #expect(retryAfter > 3500 && retryAfter <= 3600)
            // nothing was made: alice still does not follow bob
            let state = try await gateway.run(
                "query P($id: ID) { profile(id: $id) { viewerIsFollowing } }", ["id": .string(bob)], viewer: gateway.alice)
            #expect(state.json["data"]?["profile"]?["viewerIsFollowing"] == false)
            // carol's own limit is untouched
            _ = try await gateway.run(unfollow, ["id": .string(bob)], viewer: gateway.carol)
            let carols = try await gateway.run(follow, ["id": .string(bob)], viewer: gateway.carol)
            #expect(carols.json["data"]?["follow"] == ["following": true])
        }
    }

    @Test("issue 51: the database's own follow limit (the fake Supabase project's, as migration 003000) answers as the gateway's: TOO_MANY_REQUESTS with retryAfter")
    func databaseLimit() async throws {
        var options = GatewayOptions()
        // The gateway's own count lifted: what refuses is the project.
        options.followLimits = FollowLimits(
            hourly: AttemptLimiter(limit: Int.max, window: .seconds(3600)), daily: AttemptLimiter(limit: Int.max, window: .seconds(86_400)))
        try await GatewayFixture.run(.supabase, options: options) { gateway in
            let fake = try #require(gateway.store.fake)
            fake.setDatabaseFollowLimits(perHour: 2, perDay: 500)
            let bob = DemoData.bobId.lowercased, carol = DemoData.carolId.lowercased
            let follow = "mutation F($id: ID!) { follow(profileId: $id) { following } }"
            let unfollow = "mutation U($id: ID!) { unfollow(profileId: $id) { following } }"
            for id in [bob, carol] { _ = try await gateway.run(unfollow, ["id": .string(id)], viewer: gateway.alice) }
            for id in [bob, carol] {
                #expect(try await gateway.run(follow, ["id": .string(id)], viewer: gateway.alice).json["data"]?["follow"] == ["following": true])
            }
            _ = try await gateway.run(unfollow, ["id": .string(bob)], viewer: gateway.alice)
            let third = try await gateway.run(follow, ["id": .string(bob)], viewer: gateway.alice)
            #expect(GatewayFixture.codes(third.json) == ["TOO_MANY_REQUESTS"])
            let retryAfter = third.json["errors"]?.arrayValue?.first?["extensions"]?["retryAfter"]?.intValue ?? 0
            #expect(retryAfter > 3500 && retryAfter <= 3600)
            #expect(GatewayFixture.messages(third.json) == ["Too many attempts. Try again in \(retryAfter) seconds."])
        }
    }
}
