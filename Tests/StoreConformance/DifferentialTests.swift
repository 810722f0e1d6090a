import Foundation
import GatewayTestSupport
import SocialDomain
import SocialGateway
import Testing

/// The embedded store and PostgreSQL, given the same random graph and the same viewers, answer
/// every read port identically: every field of every profile, its lists page by page, its posts,
/// comments and stories, the feed, search, suggestions, requests and blocks.
///
/// Unlike the conformance cases, no expectation is computed here: the two stores are each
/// other's oracle, so whatever the rules leave implicit (orders, counts, cursors, flags) must
/// agree too. Times the stores write themselves (a request's, a block's, a story's) differ by
/// construction and are left out; everything the graph fixed is compared exactly.
@Suite("Store conformance: embedded and PostgreSQL agree", .enabled(if: PostgresTestDatabase.serverURL != nil))
struct DifferentialTests {
    /// A bigger graph than the conformance one, drawn at random from a fixed seed.
    static let graph = ConformanceGraph(seed: 0xD1FF_0052, profiles: 30, followChance: 18)

    @Test("issue 52: every read port answers every viewer of a random graph alike on the embedded store and PostgreSQL")
    func embeddedAgreesWithPostgres() async throws {
        let embedded = try await Self.snapshot(.embedded)
        let postgres = try await Self.snapshot(.postgres)
        #expect(embedded.count == postgres.count)
        #expect(embedded.count > 5_000, "the answers compared: \(embedded.count)")
        var differences: [String] = []
        for key in Set(embedded.keys).union(postgres.keys).sorted() where embedded[key] != postgres[key] {
            differences.append(key)
        }
        #expect(differences.isEmpty, "\(differences.count) answers differ, e.g. \(differences.prefix(20))")
    }

    /// Every answer of every read port, for every viewer, keyed by what was asked.
    static func snapshot(_ kind: StoreKind) async throws -> [String: AnyHashable] {
        let graph = Self.graph
        return try await TestStore.run(kind, seed: .fixture(graph.fixture)) { store in
            let made = try await graph.seedThroughPorts(store)
            let storyIds = made.values.map(\.id)
            var answers: [String: AnyHashable] = [:]
            let ids = graph.ids
            let posts = graph.fixture.posts.map(\.id)
            let comments = graph.fixture.comments.map(\.id)
            let pairs = ids.flatMap { a in ids.filter { $0 != a }.map { FollowPair(follower: a, followee: $0) } }
            let handles = graph.fixture.profiles.map(\.handle)
            for viewer in graph.viewers(store) {
                let who = viewer.userId?.lowercased ?? "anonymous"
                let stores = store.stores
                for (id, profile) in try await stores.profiles.profiles(ids: ids, viewer: viewer) { answers["profile \(who) \(id)"] = profile }
                for (handle, profile) in try await stores.profiles.profiles(handles: handles, viewer: viewer) {
                    answers["handle \(who) \(handle)"] = profile
                }
                // Follow lists and states are signed-in reads (the use cases refuse anonymous
                // viewers, and PostgreSQL's functions are not anon's to call).
                let signedIn = viewer.userId != nil
                if signedIn { answers["active \(who)"] = try await stores.follows.activeFollows(among: pairs, viewer: viewer) }
                // Follow lists: every list walked forward in pages of 3, and the last 3 of each.
                let lists = signedIn ? ids.flatMap { [FollowList(.followers, of: $0), FollowList(.following, of: $0)] } : []
                var open = lists.map { (list: $0, cursor: FollowKeyset?.none, page: 0) }
                while !open.isEmpty {
                    let requests = open.map { FollowPageRequest(list: $0.list, page: PageRequest(limit: 3, cursor: $0.cursor)) }
                    let pages = try await stores.follows.followPages(requests, viewer: viewer)
                    var next: [(list: FollowList, cursor: FollowKeyset?, page: Int)] = []
                    for ((request, page), state) in zip(zip(requests, pages), open) {
                        answers["follows \(who) \(request.list.kind) \(request.list.owner) \(state.page)"] = page
                        if page.hasNextPage, let last = page.edges.last, state.page < 50 {
                            next.append((request.list, last.follow.keyset, state.page + 1))
                        }
                    }
                    open = next
                }
                let backward = lists.map { FollowPageRequest(list: $0, page: PageRequest(direction: .backward, limit: 3)) }
                for (request, page) in zip(backward, signedIn ? try await stores.follows.followPages(backward, viewer: viewer) : []) {
                    answers["follows \(who) \(request.list.kind) \(request.list.owner) last"] = page
                }
                let others = ids.filter { $0 != viewer.userId }
                let followedBy = try await GetFollowedByViewerFollowing(graph: stores.socialGraph)
                    .execute(others.map { FollowedByRequest(profileId: $0, limit: 5) }, viewer: viewer)
                for (id, page) in zip(others, followedBy) { answers["followedBy \(who) \(id)"] = page }
                // Posts: every author's page after page, by id, comments, the feed.
                var postCursors = ids.map { (author: $0, cursor: TimeKeyset?.none, page: 0) }
                while !postCursors.isEmpty {
                    let requests = postCursors.map { PostPageRequest(list: .author($0.author), page: PageRequest(limit: 1, cursor: $0.cursor)) }
                    let pages = try await stores.posts.postPages(requests, viewer: viewer)
                    var next: [(author: UUID, cursor: TimeKeyset?, page: Int)] = []
                    for ((_, page), state) in zip(zip(requests, pages), postCursors) {
                        answers["posts \(who) \(state.author) \(state.page)"] = page
                        if page.hasNextPage, let last = page.edges.last, state.page < 20 { next.append((state.author, last.post.keyset, state.page + 1)) }
                    }
                    postCursors = next
                }
                for (id, post) in try await stores.posts.posts(ids: posts, viewer: viewer) { answers["post \(who) \(id)"] = post }
                let commentRequests = posts.map { CommentPageRequest(post: $0, page: PageRequest(limit: 50)) }
                for (request, page) in zip(commentRequests, try await stores.posts.commentPages(commentRequests, viewer: viewer)) {
                    answers["comments \(who) \(request.post)"] = page
                }
                for (id, comment) in try await stores.posts.comments(ids: comments, viewer: viewer) { answers["comment \(who) \(id)"] = comment }
                // A story's id is the store's own: compared by its author.
                answers["stories by id \(who)"] = Set(try await stores.stories.stories(ids: storyIds, viewer: viewer).values.map(\.authorId))
                guard let me = viewer.userId else { continue }
                var feedCursor: TimeKeyset?
                for n in 0..<50 {
                    let request = PostPageRequest(list: .feed(viewer: me), page: PageRequest(limit: 4, cursor: feedCursor))
                    guard var page = try await stores.posts.postPages([request], viewer: viewer).first else { break }
                    answers["feed sources \(who)"] = page.sources.map(Set.init)
                    page.sources = nil
                    answers["feed \(who) \(n)"] = page
                    guard page.hasNextPage, let last = page.edges.last else { break }
                    feedCursor = last.post.keyset
                }
                answers["tray \(who)"] = try await stores.stories.activeStories(viewer: viewer).map { [$0.authorId.lowercased, $0.mediaPath.description] }
                answers["suggestions \(who)"] = try await stores.socialGraph.suggestedProfiles(limit: 50, viewer: viewer)
                for text in ["climber", "climber_2", "rock", "bea", "r_3"] {
                    answers["search \(who) \(text)"] = try await stores.profiles.searchProfiles(SearchQuery(text: text, limit: 50), viewer: viewer)
                }
                let requests = try await stores.follows.followRequestPage(TimePageRequest(limit: 50), viewer: viewer)
                answers["requests \(who)"] = [requests.totalCount as AnyHashable, requests.requests.map(\.requester) as AnyHashable]
                answers["pending \(who)"] = try await stores.follows.pendingFollowRequests(among: pairs, viewer: viewer)
                let blocked = try await stores.follows.blockedProfilePage(TimePageRequest(limit: 50), viewer: viewer)
                answers["blocked \(who)"] = [blocked.totalCount as AnyHashable, blocked.blocked.map(\.profile) as AnyHashable]
                if let relations = stores.relations {
                    for id in ids { answers["relation \(who) \(id)"] = try await relations.viewerRelation(to: .id(id), viewer: viewer) }
                }
            }
            return answers
        }
    }
}
