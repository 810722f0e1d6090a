import Foundation
import GatewayTestSupport
import SocialDomain
import Testing

/// The store conformance suite's set-up: one generated graph, seeded into a fresh store of each
/// kind identically (its rows as a fixture, then requests, declines, blocks and stories through
/// the store's own ports), and the oracle that says what each port must answer on it.
enum Conformance {
    /// The graph every conformance case reads: 16 profiles, public and private, with every
    /// relation of the decision between them (``RelationCoverageTests`` checks that it has them).
    static let graph = ConformanceGraph(seed: 0x52_2026, profiles: 16)

    /// Runs `body` on a fresh store of `kind` holding `graph`, with its oracle.
    static func run(
        _ kind: StoreKind, graph: ConformanceGraph = graph, _ body: (TestStore, Oracle) async throws -> Void
    ) async throws {
        try await TestStore.run(kind, seed: .fixture(graph.fixture)) { store in
            let stories = try await graph.seedThroughPorts(store)
            try await body(store, Oracle(graph: graph, stories: stories))
        }
    }

    /// A readable name for a viewer in failure messages: `anonymous` or the viewer's handle.
    static func name(_ viewer: Viewer, _ graph: ConformanceGraph = graph) -> String {
        viewer.userId.map { graph.profilesById[$0]?.handle ?? $0.lowercased } ?? "anonymous"
    }

    /// A readable name for a profile: its handle, public or private, and the viewer's relation to it.
    static func name(_ id: UUID, for viewer: Viewer, _ graph: ConformanceGraph = graph) -> String {
        guard let profile = graph.profilesById[id] else { return id.lowercased }
        return "\(profile.handle) (\(profile.isPublic ? "public" : "private"), \(graph.relation(viewer, id).rawValue) of \(name(viewer, graph)))"
    }
}

/// Expectations of one test case, each answer that differs from the decision an issue of its own,
/// with the viewer and profile named (``Conformance/name(_:for:_:)``).
final class Checks {
    func expect(_ holds: Bool, _ message: @autoclosure () -> String, sourceLocation: SourceLocation = #_sourceLocation) {
        guard !holds else { return }
        Issue.record(Comment(rawValue: message()), sourceLocation: sourceLocation)
    }
}

/// Short descriptions of answers for failure messages (a ``Profile`` prints as its storage).
enum Describe {
    static func profile(_ profile: Profile?) -> String {
        guard let profile else { return "absent" }
        return "\(profile.handle)[\(profile.access.rawValue)]"
    }

    static func state(_ state: FollowState?) -> String {
        guard let state else { return "" }
        return "(\(state.viewerIsFollowing ? "F" : "-")\(state.followsViewer ? "f" : "-"))"
    }

    static func page(_ page: FollowPage) -> String {
        let edges = page.edges.map { "\(profile($0.profile))\(state($0.viewerState))@\($0.follow.createdAtMicroseconds % 1_000_000_000)" }
        return "total \(page.totalCount) next \(page.hasNextPage) previous \(page.hasPreviousPage) \(edges)"
    }

    static func page(_ page: PostPage) -> String {
        let posts = page.edges.map { "\($0.post.content) l\($0.post.likeCount)c\($0.post.commentCount)\($0.post.viewerHasLiked ? "♥" : "")" }
        return "total \(String(describing: page.totalCount)) next \(page.hasNextPage) previous \(page.hasPreviousPage) \(posts)"
    }

    static func page(_ page: CommentPage) -> String {
        "total \(page.totalCount) next \(page.hasNextPage) previous \(page.hasPreviousPage) \(page.edges.map(\.comment.content))"
    }

    static func list(_ page: ProfileListPage) -> String { "\(page.profiles.map(profile)) of \(page.totalCount)" }
}
