import Foundation
import GatewayTestSupport
import SocialDomain
import SocialGateway
import Testing

/// What an author owns, on every store: posts (by id, by author page after page, the feed),
/// comments (by id, by post page after page), likes (`viewerHasLiked`, the counters) and stories.
@Suite("Store conformance: posts, comments, likes, stories")
struct PostReadTests {
    static let pageSize = 2

    @Test("issue 52: an author's posts reach exactly the viewers who see the author; counts are the stored counters",
          arguments: StoreKind.allCases)
    func postPages(_ kind: StoreKind) async throws {
        try await Conformance.run(kind) { store, oracle in
            for viewer in oracle.graph.viewers(store) {
                var open = oracle.ids.map { (author: $0, cursor: TimeKeyset?.none, offset: 0) }
                while !open.isEmpty {
                    let requests = open.map { PostPageRequest(list: .author($0.author), page: PageRequest(limit: Self.pageSize, cursor: $0.cursor)) }
                    let pages = try await store.stores.posts.postPages(requests, viewer: viewer)
                    try #require(pages.count == requests.count)
                    var next: [(author: UUID, cursor: TimeKeyset?, offset: Int)] = []
                    for ((request, page), state) in zip(zip(requests, pages), open) {
                        let (all, total) = oracle.posts(by: state.author, viewer)
                        let expected = PostPage.assemble(
                            request: request, fetched: Array(all.dropFirst(state.offset).prefix(Self.pageSize + 1)), totalCount: total)
                        #expect(page == expected, """
                            posts of \(Conformance.name(state.author, for: viewer)) from \(state.offset): \
                            \(Describe.page(page)), expected \(Describe.page(expected))
                            """)
                        if page.hasNextPage, let last = page.edges.last, state.offset + Self.pageSize < all.count {
                            next.append((state.author, last.post.keyset, state.offset + Self.pageSize))
                        }
                    }
                    open = next
                }
                let byId = try await store.stores.posts.posts(ids: oracle.graph.fixture.posts.map(\.id), viewer: viewer)
                let expected = oracle.postsById(viewer)
                for post in oracle.graph.fixture.posts {
                    #expect(byId[post.id] == expected[post.id], "post by \(Conformance.name(post.authorId, for: viewer))")
                }
            }
        }
    }

    @Test("issue 52: the feed is the viewer's own posts and those of the profiles they follow, newest first, page after page",
          arguments: StoreKind.allCases)
    func feed(_ kind: StoreKind) async throws {
        try await Conformance.run(kind) { store, oracle in
            for viewer in oracle.graph.viewers(store) {
                guard let me = viewer.userId else { continue }
                let (all, sources) = oracle.feed(viewer)
                var found: [Post] = []
                var cursor: TimeKeyset?
                for _ in 0..<50 {
                    let request = PostPageRequest(list: .feed(viewer: me), page: PageRequest(limit: Self.pageSize, cursor: cursor))
                    let page = try #require(try await store.stores.posts.postPages([request], viewer: viewer).first)
                    let expected = PostPage.assemble(
                        request: request, fetched: Array(all.dropFirst(found.count).prefix(Self.pageSize + 1)), totalCount: nil)
                    #expect(page.edges == expected.edges, "feed of \(Conformance.name(viewer)) from \(found.count)")
                    #expect(page.hasNextPage == expected.hasNextPage && page.hasPreviousPage == expected.hasPreviousPage)
                    #expect(page.totalCount == nil)
                    if let read = page.sources { #expect(Set(read) == sources, "the feed's sources") }
                    found += page.edges.map(\.post)
                    guard page.hasNextPage, let last = page.edges.last, found.count < all.count else { break }
                    cursor = last.post.keyset
                }
            }
        }
    }

    @Test("issue 52 rule 2: a comment shows to a viewer who sees both the post's author and the comment's writer",
          arguments: StoreKind.allCases)
    func comments(_ kind: StoreKind) async throws {
        try await Conformance.run(kind) { store, oracle in
            let posts = oracle.graph.fixture.posts
            for viewer in oracle.graph.viewers(store) {
                var open = posts.map { (post: $0.id, cursor: TimeKeyset?.none, offset: 0) }
                while !open.isEmpty {
                    let requests = open.map { CommentPageRequest(post: $0.post, page: PageRequest(limit: Self.pageSize, cursor: $0.cursor)) }
                    let pages = try await store.stores.posts.commentPages(requests, viewer: viewer)
                    try #require(pages.count == requests.count)
                    var next: [(post: UUID, cursor: TimeKeyset?, offset: Int)] = []
                    for ((request, page), state) in zip(zip(requests, pages), open) {
                        let (all, total) = oracle.comments(on: state.post, viewer)
                        let expected = CommentPage.assemble(
                            request: request, fetched: Array(all.dropFirst(state.offset).prefix(Self.pageSize + 1)), totalCount: total)
                        #expect(page == expected, """
                            comments on a post from \(state.offset) for \(Conformance.name(viewer)): \
                            \(Describe.page(page)), expected \(Describe.page(expected))
                            """)
                        if page.hasNextPage, let last = page.edges.last, state.offset + Self.pageSize < all.count {
                            next.append((state.post, last.comment.keyset, state.offset + Self.pageSize))
                        }
                    }
                    open = next
                }
                let byId = try await store.stores.posts.comments(ids: oracle.graph.fixture.comments.map(\.id), viewer: viewer)
                let expected = oracle.commentsById(viewer)
                for comment in oracle.graph.fixture.comments {
                    #expect(byId[comment.id] == expected[comment.id], "comment by \(Conformance.name(comment.authorId, for: viewer))")
                }
            }
        }
    }

    @Test("issue 54: a post's likers, newest first, show to a viewer who sees both the post's author and the liker; totalCount is likeCount",
          arguments: StoreKind.allCases)
    func likers(_ kind: StoreKind) async throws {
        try await Conformance.run(kind) { store, oracle in
            let posts = oracle.graph.fixture.posts
            #expect(oracle.graph.fixture.likes.count > posts.count, "the graph has likes to list")
            for viewer in oracle.graph.viewers(store) {
                // Every post of the graph at once, as one query level asks, then page by page.
                var open = posts.map { (post: $0.id, after: TimeKeyset?.none, offset: 0) }
                while !open.isEmpty {
                    let requests = open.map { LikerPageRequest(post: $0.post, limit: Self.pageSize, after: $0.after) }
                    let pages = try await store.stores.posts.likerPages(requests, viewer: viewer)
                    try #require(pages.count == requests.count)
                    var next: [(post: UUID, after: TimeKeyset?, offset: Int)] = []
                    for ((request, stored), state) in zip(zip(requests, pages), open) {
                        // The PostgreSQL seed writes every like at load time rather than at the
                        // fixture's one time: each store has one time for all likes, so the order
                        // (time, then liker id, descending) is the same; compare at the fixture's.
                        var page = stored
                        page.edges = stored.edges.map { LikerEdge(profile: $0.profile, postId: $0.postId, likedAtMicroseconds: oracle.graph.fixture.likedAtMicroseconds) }
                        let (all, total) = oracle.likers(of: state.post, viewer)
                        let expected = LikerPage.assemble(
                            request: request, fetched: Array(all.dropFirst(state.offset).prefix(Self.pageSize + 1)), totalCount: total)
                        #expect(page == expected, """
                            likers of a post from \(state.offset) for \(Conformance.name(viewer)): \
                            \(page.edges.map { Describe.profile($0.profile) }) of \(page.totalCount), \
                            expected \(expected.edges.map { Describe.profile($0.profile) }) of \(expected.totalCount)
                            """)
                        if stored.hasNextPage, let last = stored.edges.last, state.offset + Self.pageSize < all.count {
                            next.append((state.post, last.keyset, state.offset + Self.pageSize))
                        }
                    }
                    open = next
                }
            }
        }
    }

    @Test("issue 52: stories reach signed-in viewers who see their author; the tray is one's own and one's follows'",
          arguments: StoreKind.allCases)
    func stories(_ kind: StoreKind) async throws {
        try await Conformance.run(kind) { store, oracle in
            let ids = oracle.stories.values.map(\.id)
            for viewer in oracle.graph.viewers(store) {
                let byId = try await store.stores.stories.stories(ids: ids, viewer: viewer)
                #expect(Set(byId.keys) == oracle.storiesById(viewer), "stories by id for \(Conformance.name(viewer))")
                guard viewer.userId != nil else {
                    await #expect(throws: DomainError.unauthenticated(to: .viewStories)) {
                        try await store.stores.stories.activeStories(viewer: viewer)
                    }
                    continue
                }
                let tray = try await store.stores.stories.activeStories(viewer: viewer)
                #expect(tray.map(\.id) == oracle.activeStories(viewer), "the tray of \(Conformance.name(viewer))")
            }
        }
    }
}
