import EmbeddedStore
import Foundation
import GatewayTestSupport
import GraphQLEngine
import SocialDomain
import SocialGateway
import Testing

/// Seed 000's owner-only profile fields (homeZIP, the grade scales, premium status): issue #26.
@Suite("Owner-only profile fields")
struct OwnerDetailsTests {
    let details = """
        query D($h: String!) { profile(handle: $h) {
          handle homeZIP preferredGradeScaleBoulder preferredGradeScaleRoute
          premium { expiresAt productId originalTransactionId }
        } }
        """
    static let none: JSONValue = [
        "handle": "alice_wonder", "homeZIP": .null, "preferredGradeScaleBoulder": .null,
        "preferredGradeScaleRoute": .null, "premium": .null,
    ]

    @Test("the owner reads her ZIP, grade scales and premium status; another viewer and an anonymous one get null",
          arguments: StoreKind.allCases)
    func onlyTheOwnerReads(_ kind: StoreKind) async throws {
        try await GatewayFixture.run(kind) { gateway in
            let own = try await gateway.run(details, ["h": "alice_wonder"], viewer: gateway.alice)
            #expect(own.json["data"]?["profile"] == [
                "handle": "alice_wonder", "homeZIP": "80302", "preferredGradeScaleBoulder": "V",
                "preferredGradeScaleRoute": "YDS",
                "premium": [
                    "expiresAt": "2027-01-01T00:00:00.000000Z", "productId": "socialclimb.premium.yearly",
                    "originalTransactionId": "2000000812345678",
                ],
            ])
            for viewer in [gateway.bob, .anonymous] {
                let other = try await gateway.run(details, ["h": "alice_wonder"], viewer: viewer)
                #expect(other.json["data"]?["profile"] == Self.none)
                #expect(other.json["errors"] == nil)
            }
            // Bob's own: a ZIP and scales, no premium.
            let bob = try await gateway.run(details, ["h": "bob_builder"], viewer: gateway.bob)
            #expect(bob.json["data"]?["profile"]?["homeZIP"] == "SW1A 1AA")
            #expect(bob.json["data"]?["profile"]?["premium"] == .null)
        }
    }

    @Test("another viewer's null costs no store call for the owner-only fields", arguments: StoreKind.allCases)
    func noStoreCallForOthers(_ kind: StoreKind) async throws {
        try await GatewayFixture.run(kind) { gateway in
            gateway.store.resetRoundTrips()
            _ = try await gateway.run(details, ["h": "alice_wonder"], viewer: gateway.bob)
            switch kind {
            case .embedded, .postgres: #expect(gateway.store.callCounts?["ownerDetails"] == nil)
            case .supabase: #expect(gateway.store.fake?.requests.contains { $0.path == "/rest/v1/profile_private" } == false)
            }
            _ = try await gateway.run(details, ["h": "alice_wonder"], viewer: gateway.alice)
            switch kind {
            case .embedded, .postgres: #expect(gateway.store.callCounts?["ownerDetails"] == 1)
            case .supabase: #expect(gateway.store.fake?.requests.filter { $0.path == "/rest/v1/profile_private" }.count == 1)
            }
        }
    }

    @Test("updateProfile sets ZIP and scales trimmed, clears them with null or empty text, and leaves updatedAt alone",
          arguments: StoreKind.allCases)
    func ownerUpdates(_ kind: StoreKind) async throws {
        try await GatewayFixture.run(kind) { gateway in
            let update = """
                mutation U($input: UpdateProfileInput!) { updateProfile(input: $input) {
                  profile { updatedAt homeZIP preferredGradeScaleBoulder preferredGradeScaleRoute }
                } }
                """
            let before = try await gateway.run("{ viewer { updatedAt } }", viewer: gateway.carol)
            let set = try await gateway.run(update, ["input": [
                "homeZIP": " 80302-1234 ", "preferredGradeScaleBoulder": "  Font ", "preferredGradeScaleRoute": "UIAA",
            ]], viewer: gateway.carol)
            let profile = set.json["data"]?["updateProfile"]?["profile"]
            #expect(profile?["homeZIP"] == "80302-1234")
            #expect(profile?["preferredGradeScaleBoulder"] == "Font")
            #expect(profile?["preferredGradeScaleRoute"] == "UIAA")
            #expect(profile?["updatedAt"] == before.json["data"]?["viewer"]?["updatedAt"])
            let cleared = try await gateway.run(update, ["input": [
                "homeZIP": .null, "preferredGradeScaleBoulder": "   ",
            ]], viewer: gateway.carol)
            let after = cleared.json["data"]?["updateProfile"]?["profile"]
            #expect(after?["homeZIP"] == .null)
            #expect(after?["preferredGradeScaleBoulder"] == .null)
            #expect(after?["preferredGradeScaleRoute"] == "UIAA")
            // Read back in a new request: stored, not only echoed.
            let read = try await gateway.run("{ viewer { homeZIP preferredGradeScaleRoute } }", viewer: gateway.carol)
            #expect(read.json["data"]?["viewer"] == ["homeZIP": .null, "preferredGradeScaleRoute": "UIAA"])
        }
    }

    @Test("a malformed ZIP or an overlong scale is BAD_USER_INPUT naming the field, and nothing changes",
          arguments: StoreKind.allCases)
    func ownerUpdateRules(_ kind: StoreKind) async throws {
        try await GatewayFixture.run(kind) { gateway in
            let update = "mutation U($input: UpdateProfileInput!) { updateProfile(input: $input) { profile { homeZIP } } }"
            let cases: [(JSONObject, String, String)] = [
                (["homeZIP": "<b>80302</b>"], "homeZIP", "Invalid home ZIP: \(HomeZIPRule.requirement)"),
                (["homeZIP": "1"], "homeZIP", "Invalid home ZIP: \(HomeZIPRule.requirement)"),
                (["homeZIP": "-80302"], "homeZIP", "Invalid home ZIP: \(HomeZIPRule.requirement)"),
                (["preferredGradeScaleRoute": .string(String(repeating: "Y", count: 21))], "preferredGradeScaleRoute",
                 "Route grade scale exceeds 20 characters"),
                (["homeZIP": "10115", "preferredGradeScaleBoulder": .string(String(repeating: "🧗🏽", count: 21))],
                 "preferredGradeScaleBoulder", "Boulder grade scale exceeds 20 characters"),
            ]
            for (input, field, message) in cases {
                let result = try await gateway.run(update, ["input": .object(input)], viewer: gateway.alice)
                #expect(GatewayFixture.codes(result.json) == ["BAD_USER_INPUT"], "\(input)")
                #expect(GatewayFixture.messages(result.json) == [message])
                #expect(result.json["errors"]?.arrayValue?.first?["extensions"]?["field"] == .string(field))
            }
            let read = try await gateway.run("{ viewer { homeZIP } }", viewer: gateway.alice)
            #expect(read.json["data"]?["viewer"]?["homeZIP"] == "80302")
            // Twenty emoji with a skin tone are twenty characters: allowed.
            let emoji = String(repeating: "🧗🏽", count: 20)
            let ok = try await gateway.run(
                "mutation U($s: String) { updateProfile(input: { preferredGradeScaleBoulder: $s }) { profile { preferredGradeScaleBoulder } } }",
                ["s": .string(emoji)], viewer: gateway.alice)
            #expect(ok.json["data"]?["updateProfile"]?["profile"]?["preferredGradeScaleBoulder"] == .string(emoji))
        }
    }

    @Test("premium status cannot be written through the gateway: the input has no such field", arguments: StoreKind.allCases)
    func premiumNotWritable(_ kind: StoreKind) async throws {
        try await GatewayFixture.run(kind) { gateway in
            let result = try await gateway.run(
                #"mutation { updateProfile(input: { premium: { productId: "free" } }) { profile { handle } } }"#,
                viewer: gateway.bob)
            #expect(result.response.outcome == .requestError)
            #expect(GatewayFixture.messages(result.json).first?.contains(#"Field "premium" is not defined by type "UpdateProfileInput""#) == true)
        }
    }

    @Test("anonymous updates of owner-only fields are UNAUTHENTICATED", arguments: StoreKind.allCases)
    func anonymousUpdate(_ kind: StoreKind) async throws {
        try await GatewayFixture.run(kind) { gateway in
            let result = try await gateway.run(#"mutation { updateProfile(input: { homeZIP: "80302" }) { profile { handle } } }"#)
            #expect(GatewayFixture.codes(result.json) == ["UNAUTHENTICATED"])
        }
    }

    @Test("cached per viewer: the owner's answer never reaches another viewer, and her update shows at once",
          arguments: StoreKind.allCases)
    func cacheKeepsViewersApart(_ kind: StoreKind) async throws {
        try await withCachedGateway(kind) { gateway, _ in
            let own = try await gateway.run(details, ["h": "alice_wonder"], viewer: gateway.alice)
            #expect(own.json["data"]?["profile"]?["homeZIP"] == "80302")
            #expect(own.response.cacheControl == "private, max-age=30")
            // Anonymous requests share one cache scope: the hints must make this answer private too.
            let anonymous = try await gateway.run(details, ["h": "alice_wonder"])
            #expect(anonymous.response.cacheControl == "private, max-age=30")
            try await Task.sleep(nanoseconds: 50_000_000)
            for viewer in [gateway.bob, .anonymous] {
                let other = try await gateway.run(details, ["h": "alice_wonder"], viewer: viewer)
                #expect(other.json["data"]?["profile"] == Self.none)
            }
            _ = try await gateway.run(#"mutation { updateProfile(input: { homeZIP: "10115" }) { profile { handle } } }"#, viewer: gateway.alice)
            let again = try await gateway.run(details, ["h": "alice_wonder"], viewer: gateway.alice)
            #expect(again.json["data"]?["profile"]?["homeZIP"] == "10115")
        }
    }
}
