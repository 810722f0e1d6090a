import Foundation
import GatewayTestSupport
import SocialDomain
import Testing

/// The conformance graph has every case the decision names, so that a suite passing on it says
/// something about each: every relation of a viewer to a public and to a private profile, and
/// in the lists, a listed profile in each of those relations to the viewer.
@Suite("Store conformance: the graph covers every relation")
struct RelationCoverageTests {
    typealias Relation = ConformanceGraph.Relation

    @Test("issue 52: every viewer relation of RULES.md occurs toward a public and toward a private profile")
    func profileRelations() {
        let graph = Conformance.graph
        var seen = Set<String>()
        for viewer in [Viewer.anonymous] + graph.ids.map({ Viewer.user(id: $0, token: "") }) {
            for id in graph.ids {
                let isPublic = graph.profilesById[id]?.isPublic == true
                seen.insert("\(graph.relation(viewer, id).rawValue) \(isPublic ? "public" : "private")")
            }
        }
        for relation in Relation.allCases {
            #expect(seen.contains("\(relation.rawValue) private"), "no viewer is \(relation.rawValue) of a private profile")
            if !ConformanceGraph.privateOnly.contains(relation) {
                #expect(seen.contains("\(relation.rawValue) public"), "no viewer is \(relation.rawValue) of a public profile")
            }
        }
        // And a request, a decline and a block each way exist at all.
        #expect(!graph.pending.isEmpty && !graph.declined.isEmpty && !graph.declinedLongAgo.isEmpty && !graph.blocks.isEmpty)
    }

    @Test("issue 52: in the lists of a profile the viewer sees, a listed profile is in every relation to the viewer, public and private")
    func listedRelations() {
        let graph = Conformance.graph
        var seen = Set<String>()
        for me in graph.ids {
            let viewer = Viewer.user(id: me, token: "")
            for owner in graph.ids where graph.sees(viewer, owner) {
                for pair in graph.activeFollows where pair.follower == owner || pair.followee == owner {
                    let listed = pair.follower == owner ? pair.followee : pair.follower
                    let isPublic = graph.profilesById[listed]?.isPublic == true
                    seen.insert("\(graph.relation(viewer, listed).rawValue) \(isPublic ? "public" : "private")")
                }
            }
        }
        for relation in Relation.allCases where relation != .anonymous {
            #expect(seen.contains("\(relation.rawValue) private"), "no listed private profile is \(relation.rawValue) of the viewer")
            if !ConformanceGraph.privateOnly.contains(relation) {
                #expect(seen.contains("\(relation.rawValue) public"), "no listed public profile is \(relation.rawValue) of the viewer")
            }
        }
    }

    @Test("issue 52: the graph has posts with likes and comments by hidden profiles, and stories of public and private authors")
    func contentCoverage() {
        let graph = Conformance.graph
        let privateIds = Set(graph.ids.filter { graph.profilesById[$0]?.isPublic == false })
        let authors = Dictionary(uniqueKeysWithValues: graph.fixture.posts.map { ($0.id, $0.authorId) })
        #expect(graph.fixture.posts.contains { privateIds.contains($0.authorId) })
        #expect(graph.fixture.posts.contains { !privateIds.contains($0.authorId) })
        #expect(graph.fixture.comments.contains { privateIds.contains($0.authorId) && authors[$0.postId].map(privateIds.contains) == false })
        #expect(graph.fixture.likes.contains { privateIds.contains($0.profile) })
        #expect(graph.storyAuthors.contains(where: privateIds.contains) && graph.storyAuthors.contains { !privateIds.contains($0) })
    }
}
