import Foundation
import GatewayTestSupport
import GraphQLEngine
import SocialDomain
import SocialFixtures
@testable import SocialGateway
import Testing

/// Issue 54, part 2: notifications a client can catch up on, on every store: stored in the
/// writing transaction, listed newest first with `unreadCount`, marked read, bounded, told only
/// as the live ones are (``SocialDomain/SocialRules/showsNotification(_:actor:)``).
@Suite("Notifications: stored, listed, marked read (issue 54)")
struct NotificationTests {
    static let alice = DemoData.aliceId.lowercased
    static let bob = DemoData.bobId.lowercased
    static let carol = DemoData.carolId.lowercased
    /// Alice's post without likes or comments in the demo data.
    static let post = DemoData.postId(4).lowercased

    static let list = """
        query N($first: Int, $after: String) { notifications(first: $first, after: $after) {
          totalCount unreadCount pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
          edges { cursor node { __typename id cursor isRead actor { handle }
            ... on LikeNotification { post { id } } ... on CommentNotification { post { id } comment { content } } } } } }
        """

    /// A mutation that must succeed.
    @discardableResult
    static func mutate(_ g: GatewayFixture, _ query: String, _ variables: JSONObject = [:], viewer: Viewer) async throws -> JSONValue {
        let (_, json) = try await g.run(query, variables, viewer: viewer)
        #expect(json["errors"] == nil, "\(query): \(json)")
        return json
    }

    /// bob follows alice again, likes her post, then carol comments on it: three notifications.
    static func threeNotifications(_ g: GatewayFixture) async throws {
        try await mutate(g, "mutation($id: ID!) { unfollow(profileId: $id) { following } }", ["id": .string(alice)], viewer: g.bob)
        try await mutate(g, "mutation($id: ID!) { follow(profileId: $id) { following } }", ["id": .string(alice)], viewer: g.bob)
        try await mutate(g, "mutation($id: ID!) { like(postId: $id) { liked } }", ["id": .string(post)], viewer: g.bob)
        try await mutate(
            g, #"mutation($id: ID!) { addComment(postId: $id, content: "Which cafe?") { comment { id } } }"#, ["id": .string(post)],
            viewer: g.carol)
    }

    static func page(_ g: GatewayFixture, _ viewer: Viewer, first: Int? = nil, after: String? = nil) async throws -> JSONValue {
        var variables: JSONObject = [:]
        if let first { variables["first"] = .int(first) }
        if let after { variables["after"] = .string(after) }
        let json = try await mutate(g, list, variables, viewer: viewer)
        return json["data"]?["notifications"] ?? .null
    }

    static func kinds(_ page: JSONValue) -> [String] {
        (page["edges"]?.arrayValue ?? []).compactMap { $0["node"]?["__typename"]?.stringValue }
    }

    @Test("issue 54: a follow, a like and a comment on the viewer's post are stored and listed newest first, all unread",
          arguments: StoreKind.allCases)
    func listedNewestFirst(_ kind: StoreKind) async throws {
        try await GatewayFixture.run(kind) { g in
            let before = try await Self.page(g, g.alice)
            #expect(before["totalCount"] == 0 && before["unreadCount"] == 0, "seeded rows notify nobody: \(before)")
            try await Self.threeNotifications(g)
            let page = try await Self.page(g, g.alice)
            #expect(Self.kinds(page) == ["CommentNotification", "LikeNotification", "FollowNotification"], "\(page)")
            #expect(page["totalCount"] == 3 && page["unreadCount"] == 3)
            let edges = page["edges"]?.arrayValue ?? []
            #expect(edges.map { $0["node"]?["actor"]?["handle"]?.stringValue } == ["carol_creator", "bob_builder", "bob_builder"])
            #expect(edges.allSatisfy { $0["node"]?["isRead"] == false && $0["cursor"] == $0["node"]?["cursor"] })
            #expect(edges[0]["node"]?["comment"]?["content"] == "Which cafe?" && edges[1]["node"]?["post"]?["id"]?.stringValue == Self.post)
            // nobody else is told: bob's own like of alice's post is not his notification
            #expect(try await Self.page(g, g.bob)["totalCount"] == 0)
        }
    }

    @Test("issue 54: markNotificationsRead marks one by id, then all up to and including a cursor, answering the unread count",
          arguments: StoreKind.allCases)
    func markRead(_ kind: StoreKind) async throws {
        try await GatewayFixture.run(kind) { g in
            try await Self.threeNotifications(g)
            let edges = try await Self.page(g, g.alice)["edges"]?.arrayValue ?? []
            let mark = "mutation M($id: ID, $through: String) { markNotificationsRead(id: $id, through: $through) { markedCount unreadCount } }"
            let one = try await Self.mutate(g, mark, ["id": edges[0]["node"]?["id"] ?? .null], viewer: g.alice)
            #expect(one["data"]?["markNotificationsRead"] == ["markedCount": 1, "unreadCount": 2])
            let again = try await Self.mutate(g, mark, ["id": edges[0]["node"]?["id"] ?? .null], viewer: g.alice)
            #expect(again["data"]?["markNotificationsRead"] == ["markedCount": 0, "unreadCount": 2])
            // bob cannot mark alice's
            let (_, foreign) = try await g.run(mark, ["id": edges[1]["node"]?["id"] ?? .null], viewer: g.bob)
            #expect(GatewayFixture.codes(foreign) == ["BAD_USER_INPUT"])
            let through = try await Self.mutate(g, mark, ["through": edges[1]["cursor"] ?? .null], viewer: g.alice)
            #expect(through["data"]?["markNotificationsRead"] == ["markedCount": 2, "unreadCount": 0])
            let page = try await Self.page(g, g.alice)
            #expect(page["unreadCount"] == 0 && (page["edges"]?.arrayValue ?? []).allSatisfy { $0["node"]?["isRead"] == true })
            for variables: JSONObject in [[:], ["id": edges[0]["node"]?["id"] ?? .null, "through": edges[1]["cursor"] ?? .null]] {
                let (_, json) = try await g.run(mark, variables, viewer: g.alice)
                #expect(GatewayFixture.codes(json) == ["BAD_USER_INPUT"])
                #expect(GatewayFixture.messages(json) == ["Give exactly one of id and through"])
            }
        }
    }

    @Test("issue 54: pages by first and after; a cursor of another list or viewer is BAD_USER_INPUT", arguments: StoreKind.allCases)
    func pagination(_ kind: StoreKind) async throws {
        try await GatewayFixture.run(kind) { g in
            try await Self.threeNotifications(g)
            let first = try await Self.page(g, g.alice, first: 2)
            #expect(Self.kinds(first) == ["CommentNotification", "LikeNotification"])
            #expect(first["pageInfo"]?["hasNextPage"] == true && first["pageInfo"]?["hasPreviousPage"] == false)
            let second = try await Self.page(g, g.alice, first: 2, after: first["pageInfo"]?["endCursor"]?.stringValue)
            #expect(Self.kinds(second) == ["FollowNotification"])
            #expect(second["pageInfo"]?["hasNextPage"] == false && second["pageInfo"]?["hasPreviousPage"] == true)
            #expect(second["totalCount"] == 3 && second["unreadCount"] == 3)
            let followCursor = PageCursor.follow(FollowList(.followers, of: DemoData.aliceId),
                                                 FollowKeyset(createdAtMicroseconds: 1, followId: DemoData.bobId)).encoded
            for after in ["nope", followCursor, first["pageInfo"]?["endCursor"]?.stringValue ?? ""] {
                // the last is alice's cursor, given by bob
                let viewer = after == first["pageInfo"]?["endCursor"]?.stringValue ? g.bob : g.alice
                let (_, json) = try await g.run(Self.list, ["after": .string(after)], viewer: viewer)
                #expect(GatewayFixture.codes(json) == ["BAD_USER_INPUT"], "\(after)")
                #expect(GatewayFixture.messages(json) == ["after is not a valid cursor for this list"])
            }
            let (_, tooMany) = try await g.run(Self.list, ["first": 51], viewer: g.alice)
            #expect(GatewayFixture.messages(tooMany) == ["first must be between 1 and 50"])
        }
    }

    @Test("issue 54: a follow request notifies the private profile's owner; its approval notifies the requester",
          arguments: StoreKind.allCases)
    func requestAndApproval(_ kind: StoreKind) async throws {
        try await GatewayFixture.run(kind) { g in
            try await Self.mutate(g, "mutation($id: ID!) { unfollow(profileId: $id) { following } }", ["id": .string(Self.carol)], viewer: g.alice)
            try await Self.mutate(g, "mutation { updateProfile(input: { isPublic: false }) { profile { isPublic } } }", viewer: g.carol)
            let asked = try await Self.mutate(
                g, "mutation($id: ID!) { follow(profileId: $id) { following requestStatus } }", ["id": .string(Self.carol)], viewer: g.alice)
            #expect(asked["data"]?["follow"]?["requestStatus"] == "PENDING")
            let owner = try await Self.page(g, g.carol)
            #expect(Self.kinds(owner) == ["FollowRequestNotification"])
            #expect(owner["edges"]?.arrayValue?.first?["node"]?["actor"]?["handle"] == "alice_wonder")
            try await Self.mutate(
                g, "mutation($id: ID!) { approveFollowRequest(profileId: $id) { approved } }", ["id": .string(Self.alice)], viewer: g.carol)
            let requester = try await Self.page(g, g.alice)
            #expect(Self.kinds(requester) == ["FollowApprovalNotification"])
            #expect(requester["edges"]?.arrayValue?.first?["node"]?["actor"]?["handle"] == "carol_creator")
            #expect(Self.kinds(try await Self.page(g, g.carol)) == ["FollowNotification", "FollowRequestNotification"])
        }
    }

    @Test("issue 54: nothing across a block, nothing of a post that is gone, nothing of a private actor the viewer sees only as a card",
          arguments: StoreKind.allCases)
    func privacy(_ kind: StoreKind) async throws {
        try await GatewayFixture.run(kind) { g in
            try await Self.threeNotifications(g)
            // the post goes: its like and comment go with it
            try await Self.mutate(g, "mutation($id: ID!) { deletePost(id: $id) { deletedPostId } }", ["id": .string(Self.post)], viewer: g.alice)
            #expect(Self.kinds(try await Self.page(g, g.alice)) == ["FollowNotification"])
            // a block: bob's follow is not told any more, both ways
            try await Self.mutate(g, "mutation($id: ID!) { block(profileId: $id) { blocked } }", ["id": .string(Self.bob)], viewer: g.alice)
            let blocked = try await Self.page(g, g.alice)
            #expect(Self.kinds(blocked) == [] && blocked["totalCount"] == 0 && blocked["unreadCount"] == 0)
            // carol turns private; alice stops following her; carol follows alice again: alice
            // sees only carol's card, and so hears nothing of what carol does (as live)
            try await Self.mutate(g, "mutation($id: ID!) { unfollow(profileId: $id) { following } }", ["id": .string(Self.carol)], viewer: g.alice)
            try await Self.mutate(g, "mutation { updateProfile(input: { isPublic: false }) { profile { isPublic } } }", viewer: g.carol)
            try await Self.mutate(g, "mutation($id: ID!) { unfollow(profileId: $id) { following } }", ["id": .string(Self.alice)], viewer: g.carol)
            try await Self.mutate(g, "mutation($id: ID!) { follow(profileId: $id) { following } }", ["id": .string(Self.alice)], viewer: g.carol)
            let card = try await Self.page(g, g.alice)
            #expect(card["totalCount"] == 0 && card["unreadCount"] == 0, "\(card)")
        }
    }

    @Test("issue 54: notifications and markNotificationsRead need a signed-in viewer: UNAUTHENTICATED", arguments: StoreKind.allCases)
    func anonymous(_ kind: StoreKind) async throws {
        try await GatewayFixture.run(kind) { g in
            for query in [Self.list, "mutation { markNotificationsRead(through: \"x\") { unreadCount } }"] {
                let (_, json) = try await g.run(query)
                #expect(GatewayFixture.codes(json) == ["UNAUTHENTICATED"])
                #expect(GatewayFixture.messages(json) == ["You must be logged in to view your notifications"])
            }
        }
    }

    @Test("issue 54: 50 aliased notifications in one request: 5 read the list, 45 are TOO_MANY_NOTIFICATION_READS unrun",
          arguments: StoreKind.allCases)
    func readsPerRequest(_ kind: StoreKind) async throws {
        try await GatewayFixture.run(kind) { g in
            try await Self.threeNotifications(g)
            let fields = (0..<50).map { "n\($0): notifications(first: 1) { unreadCount }" }
            let json = try await g.run("{ \(fields.joined(separator: " ")) }", viewer: g.alice).json
            #expect(GatewayFixture.codes(json) == Array(repeating: "TOO_MANY_NOTIFICATION_READS", count: 45))
            #expect(Set(GatewayFixture.messages(json)) == [
                "notifications was not run: a request may run at most 5 notifications and markNotificationsRead fields "
                    + "(aliases and batched operations included). Send the others in another request.",
            ])
            let five = try await g.run("{ \(fields.prefix(5).joined(separator: " ")) }", viewer: g.alice).json
            #expect(five["errors"] == nil)
            #expect((0..<5).allSatisfy { five["data"]?["n\($0)"]?["unreadCount"] == 3 })
        }
    }
}

