import Foundation
import GatewayTestSupport
import SocialDomain
import SocialGateway
import Testing

/// Rule 1 on every store: each viewer reads each profile whole, as its card, or not at all, as
/// ``SocialRules/access(_:)`` says; and the relation the shared cards are keyed by agrees.
@Suite("Store conformance: profiles")
struct ProfileReadTests {
    @Test("issue 52 rule 1: profiles by id are whole, a card or absent for every viewer, as SocialRules.access says",
          arguments: StoreKind.allCases)
    func profilesById(_ kind: StoreKind) async throws {
        try await Conformance.run(kind) { store, oracle in
            for viewer in oracle.graph.viewers(store) {
                let read = try await store.stores.profiles.profiles(ids: oracle.ids, viewer: viewer)
                let expected = oracle.profiles(viewer)
                for id in oracle.ids {
                    #expect(read[id] == expected[id], "\(Conformance.name(id, for: viewer)): \(Describe.profile(read[id])), expected \(Describe.profile(expected[id]))")
                }
            }
        }
    }

    @Test("issue 52 rule 1: profiles by handle (any case) agree with profiles by id", arguments: StoreKind.allCases)
    func profilesByHandle(_ kind: StoreKind) async throws {
        try await Conformance.run(kind) { store, oracle in
            let handles = oracle.graph.fixture.profiles.enumerated().map { $0.offset % 2 == 0 ? $0.element.handle.uppercased() : $0.element.handle }
            for viewer in oracle.graph.viewers(store) {
                let read = try await store.stores.profiles.profiles(handles: handles, viewer: viewer)
                let expected = oracle.profiles(viewer)
                for id in oracle.ids {
                    let handle = try #require(oracle.graph.profilesById[id]).handle.lowercased()
                    #expect(read[handle] == expected[id], "\(Conformance.name(id, for: viewer)): \(Describe.profile(read[handle]))")
                }
                #expect(read.count == expected.count)
            }
        }
    }

    @Test("issue 52 rule 2: a viewer's relation to a profile (the shared cards' key) shows follows by the edge rule",
          arguments: StoreKind.allCases)
    func viewerRelation(_ kind: StoreKind) async throws {
        try await Conformance.run(kind) { store, oracle in
            guard let relations = store.stores.relations else { return }  // the Supabase store has none
            for viewer in oracle.graph.viewers(store) {
                for id in oracle.ids {
                    let byId = try await relations.viewerRelation(to: .id(id), viewer: viewer)
                    let handle = try #require(oracle.graph.profilesById[id]).handle
                    let byHandle = try await relations.viewerRelation(to: .handle(handle), viewer: viewer)
                    let expected = oracle.viewerRelation(viewer, id)
                    #expect(byId == expected, "\(Conformance.name(id, for: viewer))")
                    #expect(byHandle == expected, "\(Conformance.name(id, for: viewer)) by handle")
                }
            }
        }
    }
}
