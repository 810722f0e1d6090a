import Foundation
import Hummingbird
import SocialDomain

/// The fake's `stories` table and `active_stories()` (migration 20250301001500): RLS hides
/// expired stories and those of hidden authors; the database sets the times. Runs under
/// ``SupabaseFake/lock``.
extension SupabaseFake {
    struct FakeStory: Sendable {
        var id: UUID
        var author: UUID
        var mediaURL: String
        var mediaPath: String
        var mediaType: String
        var createdAtMicroseconds: Int64
        var expiresAtMicroseconds: Int64
    }

    func storyRoute(_ request: RecordedRequest, query: [(String, String)], body: Any?, caller: Caller) -> Response? {
        switch (request.method, request.path) {
        case ("POST", "/rest/v1/rpc/active_stories"): return activeStories(caller: caller)
        case ("GET", "/rest/v1/stories"):
            guard let ids = query.first(where: { $0.0 == "id" }).flatMap({ Self.inOperands($0.1) }) else {
                return Self.pgError(400, "PGRST100", "unsupported filter on stories")
            }
            return Self.rows(ids.compactMap { UUID(uuidString: $0).flatMap { stories[$0] } }.filter { storyVisible($0, caller) }.map(Self.storyRow))
        case ("POST", "/rest/v1/stories"): return insertStory(body as? [String: Any] ?? [:], caller: caller)
        default: return nil
        }
    }

    /// The fake's "now" for expiry: the real clock, as `now()` in the policy.
    var storyNow: Int64 { UnixMicroseconds.from(Date()) }

    func storyVisible(_ story: FakeStory, _ caller: Caller) -> Bool {
        story.expiresAtMicroseconds > storyNow && (profilesById[story.author].map { visible($0, caller) } ?? false)
    }

    static func storyRow(_ s: FakeStory) -> [String: Any] {
        ["id": s.id.lowercased, "author_id": s.author.lowercased, "media_url": s.mediaURL, "media_path": s.mediaPath,
         "media_type": s.mediaType, "created_at": timestamp(s.createdAtMicroseconds), "expires_at": timestamp(s.expiresAtMicroseconds)]
    }

    func activeStories(caller: Caller) -> Response {
        guard case .user(let me) = caller else {
            return Self.pgError(401, "42501", "You must be logged in to view stories", hint: "authentication_required")
        }
        let sources = Set([me] + (followsByFollower[me] ?? []).map { follows[$0] }.filter { $0.deletedAtMicroseconds == nil }.map(\.followee))
        let rows = stories.values.filter { sources.contains($0.author) && storyVisible($0, caller) }
            .sorted { ($0.author.lowercased, $0.createdAtMicroseconds) < ($1.author.lowercased, $1.createdAtMicroseconds) }
        return Self.rows(rows.map(Self.storyRow))
    }

    func insertStory(_ body: [String: Any], caller: Caller) -> Response {
        guard case .user(let me) = caller else { return Self.pgError(401, "42501", "permission denied for table stories") }
        guard (body["author_id"] as? String).flatMap(UUID.init(uuidString:)) == me, let url = body["media_url"] as? String,
              let path = body["media_path"] as? String, let type = body["media_type"] as? String, ["image", "video"].contains(type)
        else { return Self.pgError(403, "42501", #"new row violates row-level security policy for table "stories""#) }
        let now = storyNow
        let story = FakeStory(
            id: UUID(), author: me, mediaURL: url, mediaPath: path, mediaType: type, createdAtMicroseconds: now,
            expiresAtMicroseconds: now + Story.lifetimeMicroseconds)
        stories[story.id] = story
        return Self.json(201, [Self.storyRow(story)])
    }

    /// Makes a story expire now (a test stands in for the passing of 24 hours).
    public func expireStories(of author: UUID) {
        lock.withLock {
            for (id, story) in stories where story.author == author {
                stories[id]?.expiresAtMicroseconds = storyNow - 1
                stories[id]?.createdAtMicroseconds = storyNow - 1 - Story.lifetimeMicroseconds
            }
        }
    }
}
