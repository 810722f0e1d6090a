import Foundation
import GatewayTestSupport
import SocialDomain
import SocialGateway
import Testing

/// The lists that are not a profile's edges, on every store: suggestions, search, the viewer's
/// follow requests and blocked profiles.
@Suite("Store conformance: suggestions, search, requests, blocks")
struct ListReadTests {
    @Test("issue 52, 54: suggestions are public friends of friends (the most followed public profiles for one who follows nobody), never the viewer, a followed, asked or blocked profile",
          arguments: StoreKind.allCases)
    func suggestions(_ kind: StoreKind) async throws {
        // The shared graph, where every profile follows someone, and a sparse one (issue 54) where
        // several follow nobody yet and are suggested the most followed public profiles.
        var newcomers = 0
        var following = 0
        for graph in [Conformance.graph, Self.sparseGraph] {
            try await Conformance.run(kind, graph: graph) { store, oracle in
                for me in oracle.ids {
                    if oracle.ids.contains(where: { oracle.graph.follows(me, $0) }) { following += 1 } else { newcomers += 1 }
                }
                for viewer in oracle.graph.viewers(store) where viewer.userId != nil {
                    for limit in [1, 50] {
                        let page = try await store.stores.socialGraph.suggestedProfiles(limit: limit, viewer: viewer)
                        let expected = oracle.suggestions(limit: limit, viewer)
                        #expect(page == expected, """
                            suggestions for \(Conformance.name(viewer, graph)), first \(limit): \(Describe.list(page)), \
                            expected \(Describe.list(expected))
                            """)
                    }
                }
            }
        }
        #expect(newcomers > 1 && following > 1, "viewers of both kinds: \(newcomers) follow nobody, \(following) follow someone")
    }

    /// 16 profiles that seldom follow each other: several follow nobody.
    static let sparseGraph = ConformanceGraph(seed: 0x54_2026, profiles: 16, followChance: 4)

    @Test("issue 52: search finds public profiles only, never across a block, ranked exact handle, prefix, then the rest",
          arguments: StoreKind.allCases)
    func search(_ kind: StoreKind) async throws {
        try await Conformance.run(kind) { store, oracle in
            let texts = ["climber", "CLIMBER_1", "climber_12", "rock", "ada", "r_1", "nobody here"]
            for viewer in oracle.graph.viewers(store) where viewer.userId != nil {
                for text in texts {
                    // Page by page, three at a time.
                    var found: [Profile] = []
                    var after: SearchKeyset?
                    for _ in 0..<20 {
                        let query = SearchQuery(text: text, limit: 3, after: after)
                        let page = try await store.stores.profiles.searchProfiles(query, viewer: viewer)
                        found += page.edges.map(\.profile)
                        let expected = oracle.search(text, viewer)
                        #expect(page.edges.map(\.cursor) == page.edges.map { SearchEdge(profile: $0.profile, query: query).cursor })
                        #expect(page.hasPreviousPage == (after != nil))
                        #expect(page.hasNextPage == (found.count < expected.count), "search \"\(text)\" for \(Conformance.name(viewer))")
                        guard page.hasNextPage, let last = page.edges.last?.profile else { break }
                        after = SearchKeyset(rank: query.rank(of: last.handle), handleKey: last.handle.lowercased(), profileId: last.id)
                    }
                    let expected = oracle.search(text, viewer)
                    #expect(found == expected, """
                        search "\(text)" for \(Conformance.name(viewer)): \(found.map(\.handle)), expected \(expected.map(\.handle))
                        """)
                }
            }
        }
    }

    @Test("issue 52: a viewer's follow requests list who asked, newest first, each as the viewer sees them; only one's own pairs are pending",
          arguments: StoreKind.allCases)
    func followRequests(_ kind: StoreKind) async throws {
        try await Conformance.run(kind) { store, oracle in
            let pairs = oracle.ids.flatMap { a in oracle.ids.filter { $0 != a }.map { FollowPair(follower: a, followee: $0) } }
            for viewer in oracle.graph.viewers(store) where viewer.userId != nil {
                let page = try await store.stores.follows.followRequestPage(TimePageRequest(limit: 50), viewer: viewer)
                let expected = oracle.followRequests(viewer)
                let pending = try await store.stores.follows.pendingFollowRequests(among: pairs, viewer: viewer)
                #expect(page.requests.map(\.requester) == expected, """
                    requests to \(Conformance.name(viewer)): \(page.requests.map(\.requester.handle)), expected \(expected.map(\.handle))
                    """)
                #expect(page.totalCount == expected.count)
                #expect(page.requests.allSatisfy { $0.targetId == viewer.userId })
                let times = page.requests.map(\.createdAtMicroseconds)
                #expect(times == times.sorted(by: >), "newest first")
                #expect(pending == oracle.pendingRequests(among: pairs, viewer), "pending pairs of \(Conformance.name(viewer))")
            }
        }
    }

    @Test("issue 54: a viewer's own pending requests list the profiles asked, newest first, as cards, page by page",
          arguments: StoreKind.allCases)
    func sentFollowRequests(_ kind: StoreKind) async throws {
        try await Conformance.run(kind) { store, oracle in
            for viewer in oracle.graph.viewers(store) {
                guard let me = viewer.userId else {
                    await #expect(throws: DomainError.self) {
                        try await store.stores.follows.sentFollowRequestPage(TimePageRequest(limit: 50), viewer: viewer)
                    }
                    continue
                }
                let expected = oracle.sentFollowRequests(viewer)
                let page = try await store.stores.follows.sentFollowRequestPage(TimePageRequest(limit: 50), viewer: viewer)
                #expect(page.requests.map(\.target) == expected, """
                    requests by \(Conformance.name(viewer)): \(page.requests.map { Describe.profile($0.target) }), \
                    expected \(expected.map(Describe.profile))
                    """)
                #expect(page.totalCount == expected.count)
                #expect(page.requests.allSatisfy { $0.requesterId == me && $0.target.access == .card })
                let times = page.requests.map(\.createdAtMicroseconds)
                #expect(times == times.sorted(by: >), "newest first")
                // Two at a time, by the keyset: the same list, nothing repeated or skipped.
                var paged: [Profile] = []
                var after: TimeKeyset?
                for _ in 0..<20 {
                    let part = try await store.stores.follows.sentFollowRequestPage(TimePageRequest(limit: 2, after: after), viewer: viewer)
                    paged += part.requests.map(\.target)
                    #expect(part.hasPreviousPage == (after != nil))
                    #expect(part.totalCount == expected.count)
                    guard part.hasNextPage, let last = part.requests.last else { break }
                    after = last.keyset
                }
                #expect(paged == expected, "paged requests by \(Conformance.name(viewer))")
            }
            #expect(oracle.graph.pending.count > 1, "the graph has requests to list")
        }
    }

    @Test("issue 52: a viewer's blocked profiles are cards, newest block first", arguments: StoreKind.allCases)
    func blockedProfiles(_ kind: StoreKind) async throws {
        try await Conformance.run(kind) { store, oracle in
            for viewer in oracle.graph.viewers(store) where viewer.userId != nil {
                let page = try await store.stores.follows.blockedProfilePage(TimePageRequest(limit: 50), viewer: viewer)
                let expected = oracle.blockedProfiles(viewer)
                #expect(page.blocked.map(\.profile) == expected, "blocked by \(Conformance.name(viewer))")
                #expect(page.totalCount == expected.count)
                let times = page.blocked.map(\.blockedAtMicroseconds)
                #expect(times == times.sorted(by: >), "newest first")
            }
        }
    }
}
