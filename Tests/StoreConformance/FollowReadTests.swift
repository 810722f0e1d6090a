import Foundation
import GatewayTestSupport
import SocialDomain
import SocialGateway
import Testing

/// Rule 2 on every store: follow lists (both lists, both directions, page by page), follow
/// states, and "followed by people you follow", for every viewer and every profile.
@Suite("Store conformance: follows")
struct FollowReadTests {
    /// Small pages, so that every list of the graph takes several.
    static let pageSize = 2

    @Test("issue 52 rule 2: followers and following, page after page forward, list only profiles the viewer sees, counted as the decision says",
          arguments: StoreKind.allCases)
    func followPagesForward(_ kind: StoreKind) async throws {
        try await Conformance.run(kind) { store, oracle in
            let lists = oracle.ids.flatMap { [FollowList(.followers, of: $0), FollowList(.following, of: $0)] }
            // Signed-in viewers only: the use case refuses an anonymous one before any store call.
            #expect(throws: DomainError.unauthenticated(to: .viewFollowers)) {
                try GetFollowPages.request(.followers, of: oracle.ids[0], first: 2, after: nil, last: nil, before: nil, viewer: .anonymous)
            }
            // The fake lists the follows of a profile the viewer sees only as a card, or not at all.
            let checks = Checks()
            for viewer in oracle.graph.viewers(store) where viewer.userId != nil {
                // One call per wave: every list's next page at once, as the gateway's loader asks.
                var open = lists.map { (list: $0, cursor: FollowKeyset?.none, offset: 0) }
                while !open.isEmpty {
                    let requests = open.map { FollowPageRequest(list: $0.list, page: PageRequest(limit: Self.pageSize, cursor: $0.cursor)) }
                    let pages = try await store.stores.follows.followPages(requests, viewer: viewer)
                    try #require(pages.count == requests.count)
                    var next: [(list: FollowList, cursor: FollowKeyset?, offset: Int)] = []
                    for ((request, page), state) in zip(zip(requests, pages), open) {
                        let (all, total) = oracle.followList(request.list, viewer)
                        let expected = FollowPage.assemble(
                            request: request, fetched: Array(all.dropFirst(state.offset).prefix(Self.pageSize + 1)), totalCount: total)
                        checks.expect(page == expected, """
                            \(request.list.kind) of \(Conformance.name(request.list.owner, for: viewer)) from \(state.offset): \
                            \(Describe.page(page)), expected \(Describe.page(expected))
                            """)
                        if page.hasNextPage, let last = page.edges.last, state.offset + Self.pageSize < all.count {
                            next.append((request.list, last.follow.keyset, state.offset + Self.pageSize))
                        }
                    }
                    open = next
                }
            }
        }
    }

    @Test("issue 52 rule 2: the last follows of each list (last/before) are the oldest ones the viewer may see",
          arguments: StoreKind.allCases)
    func followPagesBackward(_ kind: StoreKind) async throws {
        try await Conformance.run(kind) { store, oracle in
            let lists = oracle.ids.flatMap { [FollowList(.followers, of: $0), FollowList(.following, of: $0)] }
            let checks = Checks()
            for viewer in oracle.graph.viewers(store) where viewer.userId != nil {
                let requests = lists.map { FollowPageRequest(list: $0, page: PageRequest(direction: .backward, limit: Self.pageSize)) }
                let pages = try await store.stores.follows.followPages(requests, viewer: viewer)
                try #require(pages.count == requests.count)
                for (request, page) in zip(requests, pages) {
                    let (all, total) = oracle.followList(request.list, viewer)
                    let expected = FollowPage.assemble(
                        request: request, fetched: Array(all.reversed().prefix(Self.pageSize + 1)), totalCount: total)
                    checks.expect(page == expected, """
                        last \(request.list.kind) of \(Conformance.name(request.list.owner, for: viewer)): \
                        \(Describe.page(page)), expected \(Describe.page(expected))
                        """)
                }
            }
        }
    }

    @Test("issue 52 rule 2: active follows show only between profiles the viewer sees both of; followsViewer of a card is false",
          arguments: StoreKind.allCases)
    func activeFollowsAndStates(_ kind: StoreKind) async throws {
        try await Conformance.run(kind) { store, oracle in
            let pairs = oracle.ids.flatMap { a in oracle.ids.filter { $0 != a }.map { FollowPair(follower: a, followee: $0) } }
            // The fake lists every active follow, whoever its ends are to the viewer.
            let checks = Checks()
            // Signed-in viewers: an anonymous one follows nobody, without a store call (GetFollowStates).
            for viewer in oracle.graph.viewers(store) where viewer.userId != nil {
                let active = try await store.stores.follows.activeFollows(among: pairs, viewer: viewer)
                let expected = oracle.activeFollows(among: pairs, viewer)
                let states = try await GetFollowStates(follows: store.stores.follows).execute(profileIds: oracle.ids, viewer: viewer)
                for pair in pairs {
                    checks.expect(active.contains(pair) == expected.contains(pair), """
                        \(Conformance.name(pair.follower, for: viewer)) → \(Conformance.name(pair.followee, for: viewer)): \
                        \(active.contains(pair)), expected \(expected.contains(pair))
                        """)
                }
                for state in states {
                    let me = viewer.userId
                    let access = oracle.graph.access(viewer, state.profileId)
                    let following = me.map { $0 != state.profileId && oracle.graph.follows($0, state.profileId) } ?? false
                    let followed = me.map { $0 != state.profileId && oracle.graph.follows(state.profileId, $0) } ?? false
                    checks.expect(state.viewerIsFollowing == SocialRules.viewerIsFollowing(viewerFollowsProfile: following, access: access),
                                  "viewerIsFollowing \(Conformance.name(state.profileId, for: viewer))")
                    checks.expect(state.followsViewer == SocialRules.followsViewer(profileFollowsViewer: followed, access: access),
                                  "followsViewer \(Conformance.name(state.profileId, for: viewer))")
                }
            }
        }
    }

    @Test("issue 52 rule 2: followedByViewerFollowing lists the viewer's follows who follow a profile the viewer sees, most followed first",
          arguments: StoreKind.allCases)
    func followedByViewerFollowing(_ kind: StoreKind) async throws {
        try await Conformance.run(kind) { store, oracle in
            // The embedded store lists the followers of a profile the viewer sees only as a card, or not at all.
            let checks = Checks()
            for viewer in oracle.graph.viewers(store) {
                // The use case never asks for the viewer's own profile (its answer is empty without a store call).
                let targets = oracle.ids.filter { $0 != viewer.userId }
                for limit in [1, 50] {
                    let requests = targets.map { FollowedByRequest(profileId: $0, limit: limit) }
                    let pages = try await GetFollowedByViewerFollowing(graph: store.stores.socialGraph).execute(requests, viewer: viewer)
                    try #require(pages.count == requests.count)
                    for (id, page) in zip(targets, pages) {
                        let expected = oracle.followedBy(id, limit: limit, viewer)
                        checks.expect(page == expected, """
                            followed by \(Conformance.name(viewer))'s follows, of \(Conformance.name(id, for: viewer)), first \(limit): \
                            \(Describe.list(page)), expected \(Describe.list(expected))
                            """)
                    }
                }
            }
        }
    }
}
