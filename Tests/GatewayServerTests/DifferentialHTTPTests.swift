import Foundation
import GatewayServer
import GatewayTestSupport
import Hummingbird
import HummingbirdTesting
import SocialDomain
import SocialGateway
import Testing

/// The embedded store and PostgreSQL behind the real server, holding the same random graph:
/// every viewer's GraphQL documents (every field of a profile, its lists and posts, the feed,
/// search, suggestions, requests, blocks, stories) answer byte for byte alike over HTTP.
///
/// The port-level twin is `StoreConformanceTests`' `DifferentialTests`; this one adds what lies
/// above the ports (resolvers, loaders, the cache, the edge rule the gateway applies). Times a
/// store writes itself (a request's, a block's, a story's) are not selected: they differ by
/// construction.
@Suite("End to end: embedded and PostgreSQL answer alike", .enabled(if: PostgresTestDatabase.serverURL != nil))
struct DifferentialHTTPTests {
    static let graph = ConformanceGraph(seed: 0xE2E_0052, profiles: 24, followChance: 20)

    static let profileFields = """
        id handle displayName bio avatarURL homeGym climbingSince favoriteStyle isPublic followerCount followingCount
        sendCount postCount createdAt updatedAt viewerIsFollowing followsViewer viewerCanSeeDetails viewerFollowRequestStatus
        homeZIP
        """
    static let postFields = "id content imageURLs likeCount commentCount viewerHasLiked createdAt author { handle }"
    static let page = "totalCount pageInfo { hasNextPage hasPreviousPage startCursor endCursor }"

    /// A profile's own fields, and for a signed-in viewer everything under it.
    static func profileDocument(signedIn: Bool) -> String {
        let edges = "edges { cursor followedAt node { handle viewerIsFollowing followsViewer viewerCanSeeDetails } }"
        let lists = signedIn
            ? """
              followers(first: 3) { \(page) \(edges) } following(last: 3) { \(page) \(edges) }
              followedByViewerFollowing(first: 3) { totalCount nodes { handle } }
              """
            : ""
        return """
            query($ids: [ID!]!, $handles: [String!]!) {
              viewer { \(profileFields) }
              profiles(ids: $ids) {
                \(profileFields) \(lists)
                posts(first: 3) { \(page) edges { cursor node { \(postFields) comments(first: 3) { \(page) edges { cursor node { id content createdAt author { handle } } } } } } }
              }
              profilesByHandle(handles: $handles) { handle viewerCanSeeDetails }
            }
            """
    }

    /// The viewer's own lists.
    static let viewerDocument = """
        {
          feed(first: 50) { pageInfo { hasNextPage endCursor } edges { cursor node { \(postFields) } } }
          suggestedProfiles(first: 50) { totalCount nodes { handle followerCount } }
          climbers: searchProfiles(query: "climber", first: 50) { totalCount nodes { handle } pageInfo { hasNextPage } }
          rocks: searchProfiles(query: "rock", first: 5) { nodes { handle } pageInfo { hasNextPage endCursor } }
          followRequests(first: 50) { totalCount edges { node { requester { \(profileFields) } } } }
          blockedProfiles(first: 50) { totalCount edges { node { \(profileFields) } } }
          stories { author { handle } stories { mediaType author { handle } } }
        }
        """

    @Test("issue 52: every viewer's documents answer byte for byte alike on the embedded store and PostgreSQL")
    func embeddedAgreesWithPostgres() async throws {
        let embedded = try await Self.answers(.embedded)
        let postgres = try await Self.answers(.postgres)
        #expect(embedded.count == 2 * Self.graph.ids.count + 1 && postgres.count == embedded.count)
        for (key, body) in embedded.sorted(by: { $0.key < $1.key }) {
            #expect(body == postgres[key], "\(key):\nembedded \(body)\npostgres \(postgres[key] ?? "none")")
        }
        // The answers are real ones: no errors, and something private was hidden from someone.
        #expect(embedded.values.allSatisfy { !$0.contains("\"errors\"") }, "\(embedded.values.filter { $0.contains("\"errors\"") }.prefix(2))")
        #expect(embedded.values.contains { $0.contains("\"viewerCanSeeDetails\":false") })
    }

    /// Each viewer's answers on a gateway of `kind` holding the graph, by viewer and document.
    static func answers(_ kind: StoreKind) async throws -> [String: String] {
        let graph = Self.graph
        var answers: [String: String] = [:]
        try await TestGateway.run(kind, fixture: graph.fixture) { gateway in
            let viewer: (UUID) -> Viewer = { .user(id: $0, token: "differential") }
            try await graph.seedThroughPorts(gateway.backend.stores, viewer: viewer) { pairs in
                if let database = gateway.database {
                    for pair in pairs {
                        try await database.execute(
                            "set session_replication_role = replica",
                            "update public.follow_requests set decided_at = decided_at - interval '8 days' where requester_id = '\(pair.follower.lowercased)' and target_id = '\(pair.followee.lowercased)'")
                    }
                } else {
                    try await gateway.embedded?.operatorAgeFollowRequestDecisions(pairs, bySeconds: 8 * 86_400)
                }
            }
            var tokens: [String: String?] = ["anonymous": nil]
            for id in graph.ids { tokens[id.lowercased] = "Bearer " + (try await gateway.issuer.token(for: id)) }
            let ids = graph.ids.map(\.lowercased)
            let handles = graph.fixture.profiles.map { $0.handle.uppercased() }
            let viewers = tokens
            let collected = try await gateway.test(.router) { client in
                var bodies: [String: String] = [:]
                for (who, token) in viewers {
                    let signedIn = token != nil
                    bodies["\(who) profiles"] = try await EndToEndTests.post(
                        client, profileDocument(signedIn: signedIn), ["ids": ids, "handles": handles], authorization: token).text
                    if signedIn { bodies["\(who) lists"] = try await EndToEndTests.post(client, viewerDocument, authorization: token).text }
                }
                return bodies
            }
            answers = collected
        }
        return answers
    }
}
