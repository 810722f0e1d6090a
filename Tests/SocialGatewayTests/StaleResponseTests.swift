import Foundation
import GraphQLEngine
import SocialDomain
@testable import SocialGateway
import Testing

/// Stale-if-error: what the gateway adds to a cached answer it serves while the store is down,
/// and the typed error codes it decides that on.
@Suite("Stale answers while the backend is down")
struct StaleResponseTests {
    @Test("a cached answer served stale keeps its data and gains extensions.warnings STALE_RESPONSE with the time it was cached")
    func warningSpliced() throws {
        let body = Array(#"{"data":{"profile":{"handle":"bob_builder","bio":"a \"quoted\" }"}}}"#.utf8)
        let storedAt = Date(timeIntervalSince1970: 1_790_000_000)
        let stale = GatewayService.addingStaleWarning(to: body, storedAt: storedAt)
        let json = try JSONParser.parse(stale)
        #expect(json["data"] == (try JSONParser.parse(body))["data"])
        let warnings = json["extensions"]?["warnings"]?.arrayValue ?? []
        #expect(warnings.count == 1)
        #expect(warnings.first?["code"] == "STALE_RESPONSE")
        #expect(warnings.first?["message"]?.stringValue?.contains(RFC3339.format(storedAt)) == true)
    }

    @Test("a body that is not an executor's plain data answer is returned unchanged rather than corrupted")
    func unexpectedShapeUntouched() {
        let body = Array(#"{"errors":[],"data":null}"#.utf8)
        #expect(GatewayService.addingStaleWarning(to: body, storedAt: Date()) == body)
    }

    @Test("a store outage reaches the response as the typed code BACKEND_UNAVAILABLE, without reading the body")
    func typedCodes() async throws {
        let down = DownStore()
        let service = try GatewayService(stores: GatewayStores(profiles: down, follows: down, posts: down, stories: down, media: down))
        let outage = await service.execute(GatewayRequest(query: #"{ profile(handle: "bob_builder") { handle } }"#))
        #expect(outage.errorCodes == ["BACKEND_UNAVAILABLE"])
        let invalid = await service.execute(GatewayRequest(query: "{ nope }"))
        #expect(invalid.errorCodes == ["GRAPHQL_VALIDATION_FAILED"])
    }
}

/// A store whose every call fails the way a lost connection does.
private struct DownStore: ProfileStore, FollowStore, MediaStore, PostStore, StoryStore {
    struct ConnectionLost: Error {}
    func profiles(ids: [UUID], viewer: Viewer) async throws -> [UUID: Profile] { throw ConnectionLost() }
    func profiles(handles: [String], viewer: Viewer) async throws -> [String: Profile] { throw ConnectionLost() }
    func isHandleTaken(_ handleKey: String, viewer: Viewer) async throws -> Bool { throw ConnectionLost() }
    func searchProfiles(_ query: SearchQuery, viewer: Viewer) async throws -> SearchPage { throw ConnectionLost() }
    func updateProfile(id: UUID, changes: ProfileChanges, viewer: Viewer) async throws -> Profile { throw ConnectionLost() }
    func ownerDetails(viewer: Viewer) async throws -> ProfileOwnerDetails { throw ConnectionLost() }
    func followChanges(_ request: FollowSyncRequest, viewer: Viewer) async throws -> FollowSyncPage { throw ConnectionLost() }
    func followPages(_ requests: [FollowPageRequest], viewer: Viewer) async throws -> [FollowPage] { throw ConnectionLost() }
    func activeFollows(among pairs: [FollowPair], viewer: Viewer) async throws -> Set<FollowPair> { throw ConnectionLost() }
    func changeFollow(_ change: FollowChange, viewer: Viewer) async throws -> FollowOutcome { throw ConnectionLost() }
    func pendingFollowRequests(among pairs: [FollowPair], viewer: Viewer) async throws -> Set<FollowPair> { throw ConnectionLost() }
    func followRequestPage(_ request: TimePageRequest, viewer: Viewer) async throws -> FollowRequestPage { throw ConnectionLost() }
    func sentFollowRequestPage(_ request: TimePageRequest, viewer: Viewer) async throws -> SentFollowRequestPage { throw ConnectionLost() }
    func answerFollowRequest(from requester: UUID, approve: Bool, viewer: Viewer) async throws -> FollowRequestAnswer { throw ConnectionLost() }
    func changeBlock(of profileId: UUID, block: Bool, viewer: Viewer) async throws -> BlockOutcome { throw ConnectionLost() }
    func blockedProfilePage(_ request: TimePageRequest, viewer: Viewer) async throws -> BlockedProfilePage { throw ConnectionLost() }
    func putMedia(_ bytes: Data, at path: MediaPath, viewer: Viewer) async throws -> String { throw ConnectionLost() }
    func deleteMedia(at path: MediaPath, viewer: Viewer) async throws { throw ConnectionLost() }
    func posts(ids: [UUID], viewer: Viewer) async throws -> [UUID: Post] { throw ConnectionLost() }
    func postPages(_ requests: [PostPageRequest], viewer: Viewer) async throws -> [PostPage] { throw ConnectionLost() }
    func comments(ids: [UUID], viewer: Viewer) async throws -> [UUID: SocialDomain.Comment] { throw ConnectionLost() }
    func commentPages(_ requests: [CommentPageRequest], viewer: Viewer) async throws -> [CommentPage] { throw ConnectionLost() }
    func likerPages(_ requests: [LikerPageRequest], viewer: Viewer) async throws -> [LikerPage] { throw ConnectionLost() }
    func createPost(_ draft: PostDraft, viewer: Viewer) async throws -> Post { throw ConnectionLost() }
    func updatePost(id: UUID, changes: PostChanges, viewer: Viewer) async throws -> Post { throw ConnectionLost() }
    func deletePost(id: UUID, viewer: Viewer) async throws { throw ConnectionLost() }
    func changeLike(postId: UUID, action: LikeAction, viewer: Viewer) async throws -> LikeOutcome { throw ConnectionLost() }
    func addComment(postId: UUID, content: String, viewer: Viewer) async throws -> SocialDomain.Comment { throw ConnectionLost() }
    func deleteComment(id: UUID, viewer: Viewer) async throws { throw ConnectionLost() }
    func activeStories(viewer: Viewer) async throws -> [Story] { throw ConnectionLost() }
    func stories(ids: [UUID], viewer: Viewer) async throws -> [UUID: Story] { throw ConnectionLost() }
    func ownActiveStoryExpiries(viewer: Viewer, limit: Int) async throws -> [Int64] { throw ConnectionLost() }
    func createStory(mediaURL: String, path: MediaPath, viewer: Viewer) async throws -> Story { throw ConnectionLost() }
}

@Suite("Hostile documents against the gateway's schema")
struct HostileDocumentTests {
    @Test("§5.3.2 a fragment that spreads itself in its own subfields is a validation error, not a crash (found by fuzzing)")
    func selfSpreadingFragment() async throws {
        let down = DownStore()
        let service = try GatewayService(stores: GatewayStores(profiles: down, follows: down, posts: down, stories: down, media: down))
        let query = """
            query G($h: String!) { profile(handle: $h) { ...Card } }
            fragment Card on Profile { followers(first: 2) { edges { node { ...Card following(first: 2) { edges { node { ...Card } } } } } } }
            """
        let response = await service.execute(GatewayRequest(query: query, variables: ["h": "alice_wonder"]))
        #expect(response.outcome == .requestError)
        #expect(response.errorCodes.allSatisfy { $0 == "GRAPHQL_VALIDATION_FAILED" } && !response.errorCodes.isEmpty)
    }
}
