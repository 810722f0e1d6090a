import Foundation
import GatewayTestSupport
import SocialDomain

/// What every read port must answer on a ``ConformanceGraph``, computed from the graph and the
/// domain's rules (``SocialRules``), never written out per case: the suite's oracle.
///
/// Orders are the ports' documented ones; counts are the stored counters where the ports say so.
/// Answers about rows the stores made through their ports (requests, blocks, stories) leave out
/// the stores' own times, which differ from store to store.
struct Oracle {
    let graph: ConformanceGraph
    /// The stories made through the ports, by author.
    let stories: [UUID: Story]

    var ids: [UUID] { graph.ids }

    // MARK: profiles

    /// Every profile the viewer may read, as the viewer reads it (whole or its card).
    func profiles(_ viewer: Viewer) -> [UUID: Profile] {
        Dictionary(uniqueKeysWithValues: ids.compactMap { id in graph.profile(id, as: viewer).map { (id, $0) } })
    }

    /// The relation ``ViewerRelationStore`` reports: nil for an anonymous viewer or a hidden
    /// profile; the follows as the edge rule shows them, and a private profile the viewer
    /// follows in the profile's lists only when those lists show anything (the viewer sees the
    /// profile whole: an edge shows when the viewer sees both ends).
    func viewerRelation(_ viewer: Viewer, _ id: UUID) -> ViewerRelation? {
        guard let me = viewer.userId, let access = graph.access(viewer, id) else { return nil }
        let followsPrivateListed = SocialRules.showsLists(of: access) && ids.contains { x in
            x != id && graph.profilesById[x]?.isPublic == false && graph.follows(me, x)
                && (graph.follows(x, id) || graph.follows(id, x))
        }
        return ViewerRelation(
            profileId: id, access: access,
            viewerFollows: SocialRules.viewerIsFollowing(viewerFollowsProfile: graph.follows(me, id), access: access),
            followsViewer: SocialRules.followsViewer(profileFollowsViewer: graph.follows(id, me), access: access),
            viewerHasBlocks: graph.blocks.contains { $0.follower == me || $0.followee == me },
            viewerIsPrivate: graph.profilesById[me]?.isPublic == false, viewerFollowsPrivateListed: followsPrivateListed)
    }

    // MARK: follows

    /// The whole list, newest follow first, each edge with the viewer's state toward its profile
    /// (signed-in viewers), and its totalCount: empty and 0 unless the viewer sees the owner.
    func followList(_ list: FollowList, _ viewer: Viewer) -> (edges: [FollowEdge], total: Int) {
        let access = graph.access(viewer, list.owner)
        guard SocialRules.showsLists(of: access), let owner = graph.profilesById[list.owner] else { return ([], 0) }
        let follows = graph.fixture.follows
            .filter { list.kind == .followers ? $0.followeeId == list.owner : $0.followerId == list.owner }
            .sorted { $1.keyset < $0.keyset }
        let edges = follows.compactMap { follow -> FollowEdge? in
            let other = list.kind == .followers ? follow.followerId : follow.followeeId
            guard graph.sees(viewer, other), let profile = graph.profile(other, as: viewer) else { return nil }
            let state = viewer.userId.map { me in
                FollowState(profileId: other, viewerIsFollowing: graph.follows(me, other), followsViewer: graph.follows(other, me))
            }
            return FollowEdge(list: list, follow: follow, profile: profile, viewerState: state)
        }
        let stored = list.kind == .followers ? owner.followerCount : owner.followingCount
        return (edges, SocialRules.listTotal(storedCount: stored, access: access))
    }

    /// Which of `pairs` are active follows the viewer may see (the edge rule).
    func activeFollows(among pairs: [FollowPair], _ viewer: Viewer) -> Set<FollowPair> {
        Set(pairs.filter { pair in
            graph.activeFollows.contains(pair)
                && SocialRules.showsEdge(graph.access(viewer, pair.follower), graph.access(viewer, pair.followee))
        })
    }

    /// `followedByViewerFollowing` for a profile other than the viewer's: the X the viewer
    /// follows who follow it, most followed first, then id.
    func followedBy(_ id: UUID, limit: Int, _ viewer: Viewer) -> ProfileListPage {
        guard let me = viewer.userId, me != id, SocialRules.showsLists(of: graph.access(viewer, id)) else { return .empty }
        let listed = ids.filter { x in x != me && x != id && graph.follows(me, x) && graph.follows(x, id) && graph.sees(viewer, x) }
            .compactMap { graph.profile($0, as: viewer) }
            .sorted { ($1.followerCount, $0.id.lowercased) < ($0.followerCount, $1.id.lowercased) }
        return ProfileListPage(profiles: Array(listed.prefix(limit)), totalCount: listed.count)
    }

    // MARK: lists of profiles

    /// Friends of friends: public profiles followed by profiles the viewer follows, ranked by
    /// how many of those follow them, then follower count, then id.
    /// A viewer who follows nobody yet: the most followed public profiles (issue 54), by the same
    /// rule, most followers first, then id.
    func suggestions(limit: Int, _ viewer: Viewer) -> ProfileListPage {
        guard let me = viewer.userId else { return .empty }
        let middle = ids.filter { graph.follows(me, $0) }
        if middle.isEmpty {
            let popular = ids.compactMap { graph.profilesById[$0] }.filter(\.isPublic)
                .sorted { ($1.followerCount, $0.id.lowercased) < ($0.followerCount, $1.id.lowercased) }
                .prefix(SuggestionBounds.popularProfiles)
                .filter { SocialRules.isSuggestible(graph.facts(viewer, $0.id), requested: graph.asked(me, $0.id)) }
            return ProfileListPage(profiles: Array(popular.prefix(limit)), totalCount: popular.count)
        }
        let ranked = ids.compactMap { candidate -> (profile: Profile, mutuals: Int)? in
            let mutuals = middle.filter { graph.follows($0, candidate) }.count
            guard mutuals > 0, SocialRules.isSuggestible(graph.facts(viewer, candidate), requested: graph.asked(me, candidate)),
                  let profile = graph.profilesById[candidate] else { return nil }
            return (profile, mutuals)
        }.sorted { a, b in
            (b.mutuals, b.profile.followerCount, a.profile.id.lowercased) < (a.mutuals, a.profile.followerCount, b.profile.id.lowercased)
        }
        return ProfileListPage(profiles: ranked.prefix(limit).map(\.profile), totalCount: ranked.count)
    }

    /// Every hit of a search, in its order: public profiles with no block either way whose
    /// handle or display name contains the text, case-insensitively.
    func search(_ text: String, _ viewer: Viewer) -> [Profile] {
        let query = SearchQuery(text: text)
        return ids.compactMap { graph.profilesById[$0] }
            .filter { profile in
                SocialRules.isSearchable(graph.facts(viewer, profile.id))
                    && (profile.handle.lowercased().contains(query.textKey) || (profile.displayName?.lowercased().contains(query.textKey) ?? false))
            }
            .sorted { a, b in
                (query.rank(of: a.handle).rawValue, a.handle.lowercased(), a.id.lowercased)
                    < (query.rank(of: b.handle).rawValue, b.handle.lowercased(), b.id.lowercased)
            }
    }

    /// The viewer's pending requests, newest first (the order they were made, reversed), each
    /// requester as the viewer sees it.
    func followRequests(_ viewer: Viewer) -> [Profile] {
        guard let me = viewer.userId else { return [] }
        return graph.pending.filter { $0.followee == me }.reversed().compactMap { graph.profile($0.follower, as: viewer) }
    }

    /// The viewer's own pending requests, newest first, each profile asked as the viewer sees it
    /// (a card: a request is to a private profile the viewer does not follow).
    func sentFollowRequests(_ viewer: Viewer) -> [Profile] {
        guard let me = viewer.userId else { return [] }
        return graph.pending.filter { $0.follower == me }.reversed().compactMap { graph.profile($0.followee, as: viewer) }
    }

    /// Which of `pairs` are pending requests the viewer is on.
    func pendingRequests(among pairs: [FollowPair], _ viewer: Viewer) -> Set<FollowPair> {
        guard let me = viewer.userId else { return [] }
        return Set(pairs.filter { ($0.follower == me || $0.followee == me) && graph.pendingSet.contains($0) })
    }

    /// The profiles the viewer blocks, newest block first, as cards.
    func blockedProfiles(_ viewer: Viewer) -> [Profile] {
        guard let me = viewer.userId else { return [] }
        return graph.blocks.filter { $0.follower == me }.reversed().compactMap { graph.profilesById[$0.followee]?.card() }
    }

    // MARK: posts, comments, stories

    /// A post as the viewer reads it: its own like.
    func post(_ post: Post, _ viewer: Viewer) -> Post {
        var read = post
        read.viewerHasLiked = viewer.userId.map { me in graph.fixture.likes.contains { $0.post == post.id && $0.profile == me } } ?? false
        return read
    }

    /// The author's posts newest first, and the page's totalCount: empty and 0 unless the viewer
    /// sees the author.
    func posts(by author: UUID, _ viewer: Viewer) -> (posts: [Post], total: Int) {
        guard graph.sees(viewer, author) else { return ([], 0) }
        let posts = graph.fixture.posts.filter { $0.authorId == author }.sorted { $1.keyset < $0.keyset }.map { post($0, viewer) }
        return (posts, graph.profilesById[author]?.postCount ?? 0)
    }

    /// Every post the viewer may read, by id.
    func postsById(_ viewer: Viewer) -> [UUID: Post] {
        Dictionary(uniqueKeysWithValues: graph.fixture.posts.filter { graph.sees(viewer, $0.authorId) }.map { ($0.id, post($0, viewer)) })
    }

    /// The viewer's feed, newest first: their own posts and those of the profiles they follow.
    func feed(_ viewer: Viewer) -> (posts: [Post], sources: Set<UUID>) {
        guard let me = viewer.userId else { return ([], []) }
        let sources = Set([me] + ids.filter { graph.follows(me, $0) })
        let posts = graph.fixture.posts.filter { sources.contains($0.authorId) }.sorted { $1.keyset < $0.keyset }.map { post($0, viewer) }
        return (posts, sources)
    }

    /// A post's comments oldest first, and the page's totalCount (the post's stored count):
    /// empty and 0 unless the viewer sees the post's author; a comment shows when the viewer
    /// sees its writer too.
    func comments(on postId: UUID, _ viewer: Viewer) -> (comments: [Comment], total: Int) {
        guard let post = graph.fixture.posts.first(where: { $0.id == postId }), graph.sees(viewer, post.authorId) else { return ([], 0) }
        let comments = graph.fixture.comments.filter { $0.postId == postId && graph.sees(viewer, $0.authorId) }.sorted { $0.keyset < $1.keyset }
        return (comments, post.commentCount)
    }

    /// A post's likers newest like first (ties by the liker's id, descending), each as the
    /// viewer sees it, and the page's totalCount (the post's stored count): empty and 0 unless
    /// the viewer sees the post's author; a liker shows when the viewer sees it too (the edge rule).
    func likers(of postId: UUID, _ viewer: Viewer) -> (likers: [LikerEdge], total: Int) {
        guard let post = graph.fixture.posts.first(where: { $0.id == postId }), graph.sees(viewer, post.authorId) else { return ([], 0) }
        let at = graph.fixture.likedAtMicroseconds
        let likers = graph.fixture.likes.filter { $0.post == postId && SocialRules.showsEdge(graph.access(viewer, $0.profile), graph.access(viewer, post.authorId)) }
            .compactMap { like in graph.profile(like.profile, as: viewer).map { LikerEdge(profile: $0, postId: postId, likedAtMicroseconds: at) } }
            .sorted { $1.keyset < $0.keyset }
        return (likers, post.likeCount)
    }

    /// Every comment the viewer may read, by id.
    func commentsById(_ viewer: Viewer) -> [UUID: Comment] {
        let authors = Dictionary(uniqueKeysWithValues: graph.fixture.posts.map { ($0.id, $0.authorId) })
        return Dictionary(uniqueKeysWithValues: graph.fixture.comments.filter { comment in
            authors[comment.postId].map { graph.sees(viewer, $0) } == true && graph.sees(viewer, comment.authorId)
        }.map { ($0.id, $0) })
    }

    /// The viewer's story tray: their own stories and those of the profiles they follow, by
    /// author, then time (signed-in viewers only).
    func activeStories(_ viewer: Viewer) -> [UUID] {
        guard let me = viewer.userId else { return [] }
        return stories.values.filter { $0.authorId == me || graph.follows(me, $0.authorId) }
            .sorted { ($0.authorId.lowercased, $0.createdAtMicroseconds, $0.id.lowercased) < ($1.authorId.lowercased, $1.createdAtMicroseconds, $1.id.lowercased) }
            .map(\.id)
    }

    /// Every story the viewer may read by id: signed-in viewers who see its author.
    func storiesById(_ viewer: Viewer) -> Set<UUID> {
        guard viewer.userId != nil else { return [] }
        return Set(stories.values.filter { graph.sees(viewer, $0.authorId) }.map(\.id))
    }
}
