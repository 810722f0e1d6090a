import Foundation
import SocialDomain
import SupabaseFake
import Testing
@testable import SupabaseStore

@Suite("SupabaseStore profiles on the wire",
      .enabled(if: StoreHarness.available, "needs SOCIAL_GATEWAY_TEST_POSTGRES (scripts/test starts a server)"))
struct ProfileStoreRequestTests {
    @Test("profiles(ids:) is one GET with id=in.(...) of lower-case ids and the viewer's token, then profile_cards for the private ones it hid")
    func profilesByIdsIsOneRequest() async throws {
        try await StoreHarness.run { h in
            // One viewer, one token: a token minted again a second later has another `exp`.
            let alice = h.asAlice
            let found = try await h.store.profiles(ids: [StoreHarness.alice, StoreHarness.carol, StoreHarness.bob], viewer: alice)
            #expect(Set(found.keys) == [StoreHarness.alice, StoreHarness.bob, StoreHarness.carol])
            #expect(found[StoreHarness.carol]?.access == .card)   // carol is private: her card only
            #expect(found[StoreHarness.carol]?.bio == nil)
            #expect(found[StoreHarness.alice]?.createdAt == StoreHarness.created)
            let requests = h.fake.requests
            #expect(requests.count == 2)
            #expect(requests[1].path == "/rest/v1/rpc/profile_cards")
            #expect(requests[1].bodyText == #"{"handles":[],"ids":["ca201000-0000-4000-8000-000000000003"]}"#)
            #expect(requests[0].method == "GET")
            #expect(requests[0].path == "/rest/v1/profiles")
            #expect(requests[0].query == StoreHarness.select
                + "&id=in.(a11ce000-0000-4000-8000-000000000001,ca201000-0000-4000-8000-000000000003,b0b00000-0000-4000-8000-000000000002)")
            #expect(requests[0].headers["apikey"] == SupabaseFake.apiKey)
            #expect(requests[0].headers["authorization"] == "Bearer \(alice.token ?? "")")
        }
    }

    @Test("the owner sees her private profile; anonymous requests send the publishable key and no bearer")
    func privateProfilesOnlyToOwner() async throws {
        try await StoreHarness.run { h in
            let own = try await h.store.profiles(ids: [StoreHarness.carol], viewer: h.asCarol)
            #expect(own[StoreHarness.carol]?.handle == "carol_creator")
            let anonymous = try await h.store.profiles(ids: [StoreHarness.carol], viewer: .anonymous)
            #expect(anonymous.isEmpty)
            #expect(h.fake.requests[1].headers["authorization"] == nil)
            #expect(h.fake.requests[1].headers["apikey"] == SupabaseFake.apiKey)
        }
    }

    @Test("profiles(handles:) asks handle_lower=in.(...) and keys the answer lower-cased")
    func profilesByHandles() async throws {
        try await StoreHarness.run { h in
            let found = try await h.store.profiles(handles: ["BOB_builder", "alice_wonder", "nobody_here"], viewer: .anonymous)
            #expect(found["bob_builder"]?.id == StoreHarness.bob)
            #expect(found["alice_wonder"]?.id == StoreHarness.alice)
            #expect(found.count == 2)
            #expect(h.fake.requests.map(\.query) == [StoreHarness.select + "&handle_lower=in.(bob_builder,alice_wonder,nobody_here)"])
        }
    }

    @Test("search posts the escaped pattern, the lower-case query and the keyset to rpc/search_profiles_ranked")
    func searchRequestAndPages() async throws {
        try await StoreHarness.run { h in
            let first = try await h.store.searchProfiles(SearchQuery(text: "_", limit: 1), viewer: h.asStranger)
            #expect(first.edges.map(\.profile.handle) == ["alice_wonder"])
            #expect(first.hasNextPage && !first.hasPreviousPage)
            let request = h.fake.requests[0]
            #expect(request.method == "POST" && request.path == "/rest/v1/rpc/search_profiles_ranked")
            #expect(request.query == StoreHarness.select)
            #expect(request.headers["content-type"] == "application/json")
            #expect(request.bodyText == #"{"after_handle":null,"after_id":null,"after_rank":null,"page_size":2,"pattern":"%\\_%","query_key":"_"}"#)

            guard case .search(let keyset)? = first.endCursor.flatMap(PageCursor.decode) else {
                Issue.record("no search cursor")
                return
            }
            let second = try await h.store.searchProfiles(SearchQuery(text: "_", limit: 1, after: keyset), viewer: h.asStranger)
            #expect(second.edges.map(\.profile.handle) == ["Bob_Builder"])   // carol is private
            #expect(!second.hasNextPage && second.hasPreviousPage)
            #expect(h.fake.requests[1].bodyText
                == #"{"after_handle":"alice_wonder","after_id":"a11ce000-0000-4000-8000-000000000001","after_rank":2,"page_size":2,"pattern":"%\\_%","query_key":"_"}"#)
            // "%" in the query matches a literal percent sign only
            let percent = try await h.store.searchProfiles(SearchQuery(text: "100%"), viewer: h.asStranger)
            #expect(percent.edges.map(\.profile.handle) == ["Bob_Builder"])
        }
    }

    @Test("updateProfile PATCHes only the changed columns, null for a cleared one, and returns the row")
    func updateProfileRequest() async throws {
        try await StoreHarness.run { h in
            var changes = ProfileChanges(updatedAt: Date())
            changes.bio = .set("Crimps & coffee +1")
            changes.displayName = .clear
            changes.climbingSince = .set(CalendarDay("2019-04-01")!)
            let profile = try await h.store.updateProfile(id: StoreHarness.alice, changes: changes, viewer: h.asAlice)
            #expect(profile.bio == "Crimps & coffee +1")
            #expect(profile.displayName == nil)
            #expect(profile.climbingSince == CalendarDay("2019-04-01"))
            let request = h.fake.requests[0]
            #expect(request.method == "PATCH" && request.path == "/rest/v1/profiles")
            #expect(request.query == "id=eq.a11ce000-0000-4000-8000-000000000001&" + StoreHarness.select)
            #expect(request.headers["prefer"] == "return=representation")
            #expect(request.bodyText == #"{"bio":"Crimps & coffee +1","climbing_since":"2019-04-01","display_name":null}"#)
        }
    }

    @Test("a handle taken in another case is HANDLE_TAKEN (23505)")
    func handleTaken() async throws {
        try await StoreHarness.run { h in
            var changes = ProfileChanges(updatedAt: Date())
            changes.handle = "BOB_BUILDER"
            let error = await StoreHarness.domainError {
                _ = try await h.store.updateProfile(id: StoreHarness.alice, changes: changes, viewer: h.asAlice)
            }
            #expect(error == DomainError.handleTaken)
            #expect(error?.message == "This handle is already taken")
        }
    }

    @Test("updating another's profile is FORBIDDEN without a request; an empty answer is NOT_FOUND")
    func updateOwnership() async throws {
        try await StoreHarness.run { h in
            var changes = ProfileChanges(updatedAt: Date())
            changes.bio = .set("x")
            let forbidden = await StoreHarness.domainError {
                _ = try await h.store.updateProfile(id: StoreHarness.bob, changes: changes, viewer: h.asAlice)
            }
            #expect(forbidden == DomainError.notProfileOwner)
            #expect(h.fake.requests.isEmpty)
            let ghost = UUID(uuidString: "99999999-0000-4000-8000-000000000009")!
            let missing = await StoreHarness.domainError {
                _ = try await h.store.updateProfile(
                    id: ghost, changes: changes, viewer: .user(id: ghost, token: SupabaseFake.token(for: ghost)))
            }
            #expect(missing == DomainError.profileNotFound)
        }
    }

    @Test("ownerDetails reads the caller's own profile_private row; the anon key alone reads none and asks nothing")
    func ownerDetailsRequest() async throws {
        try await StoreHarness.run { h in
            let premium = PremiumStatus(expiresAt: Date(timeIntervalSince1970: 1_798_761_600), productId: "premium.yearly",
                                        originalTransactionId: "2000000812345678")
            try await h.fake.setOwnerDetails(ProfileOwnerDetails(homeZIP: "80302", preferredGradeScaleRoute: "YDS", premium: premium), for: StoreHarness.alice)
            let mine = try await h.store.ownerDetails(viewer: h.asAlice)
            #expect(mine == ProfileOwnerDetails(homeZIP: "80302", preferredGradeScaleRoute: "YDS", premium: premium))
            let request = h.fake.requests[0]
            #expect(request.endpoint == "GET /rest/v1/profile_private")
            #expect(request.query == "select=home_zip,preferred_grade_scale_boulder,preferred_grade_scale_route,"
                + "premium_expires_at,premium_product_id,premium_original_transaction_id&id=eq.a11ce000-0000-4000-8000-000000000001")
            #expect(try await h.store.ownerDetails(viewer: h.asBob) == ProfileOwnerDetails())
            h.fake.clearRequests()
            #expect(try await h.store.ownerDetails(viewer: .anonymous) == ProfileOwnerDetails())
            #expect(h.fake.requests.isEmpty)
        }
    }

    @Test("owner-only changes PATCH profile_private after the profile: alone, the profile is read instead of patched")
    func ownerDetailsUpdateRequests() async throws {
        try await StoreHarness.run { h in
            var changes = ProfileChanges(updatedAt: Date())
            changes.ownerDetails.homeZIP = .set("SW1A 1AA")
            changes.ownerDetails.preferredGradeScaleBoulder = .clear
            let profile = try await h.store.updateProfile(id: StoreHarness.alice, changes: changes, viewer: h.asAlice)
            #expect(profile.handle == "alice_wonder")
            #expect(h.fake.requests.map(\.endpoint) == ["GET /rest/v1/profiles", "PATCH /rest/v1/profile_private"])
            #expect(h.fake.requests[1].query == "id=eq.a11ce000-0000-4000-8000-000000000001&select=id")
            #expect(h.fake.requests[1].bodyText == #"{"home_zip":"SW1A 1AA","preferred_grade_scale_boulder":null}"#)
            #expect(try await h.fake.ownerDetails(StoreHarness.alice).homeZIP == "SW1A 1AA")

            h.fake.clearRequests()
            changes.bio = .set("Both at once")
            _ = try await h.store.updateProfile(id: StoreHarness.alice, changes: changes, viewer: h.asAlice)
            #expect(h.fake.requests.map(\.endpoint) == ["PATCH /rest/v1/profiles", "PATCH /rest/v1/profile_private"])
        }
    }
}
