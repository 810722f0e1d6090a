import Foundation
import Hummingbird
import SocialDomain
import SupabaseSchema

/// The fake's `stories` table, `active_stories()` (migration 20250301001500) and
/// `create_story()` (20250301002000): RLS hides expired stories, those of hidden authors, and
/// every story from anon; rows are written only through `create_story`, which checks the
/// file's name, type, URL and object, and the quota; the database sets the times. Runs under
/// ``SupabaseFake/lock``. Rows go out, and `create_story`'s arguments come in, as the
/// `SupabaseSchema` types the stores use (`StoryRow`, `StoryExpiryRow`, `CreateStoryArguments`).
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

    func storyRoute(_ request: RecordedRequest, query: [(String, String)], caller: Caller) -> Response? {
        switch (request.method, request.path) {
        case ("POST", "/rest/v1/rpc/active_stories"): return activeStories(caller: caller)
        case ("GET", "/rest/v1/stories"):
            if let author = query.first(where: { $0.0 == "author_id" }) {
                return authorStories(author.1, query: query, caller: caller)
            }
            guard let ids = query.first(where: { $0.0 == "id" }).flatMap({ Self.inOperands($0.1) }) else {
                return Self.pgError(400, "PGRST100", "unsupported filter on stories")
            }
            return Self.rows(ids.compactMap { UUID(uuidString: $0).flatMap { stories[$0] } }.filter { storyVisible($0, caller) }.map(Self.storyRow))
        case ("POST", "/rest/v1/stories"):
            // No INSERT privilege for anon or authenticated: 42501, as PostgREST answers it.
            if case .user = caller { return Self.pgError(403, "42501", "permission denied for table stories") }
            return Self.pgError(401, "42501", "permission denied for table stories")
        case ("POST", "/rest/v1/rpc/create_story"):
            return createStory(try? JSONDecoder().decode(CreateStoryArguments.self, from: request.body), caller: caller)
        default: return nil
        }
    }

    /// The fake's "now" for expiry: the real clock, as `now()` in the policy.
    var storyNow: Int64 { UnixMicroseconds.from(Date()) }

    func storyVisible(_ story: FakeStory, _ caller: Caller) -> Bool {
        guard case .user = caller else { return false }  // stories_read is for `authenticated` only
        return story.expiresAtMicroseconds > storyNow && (profilesById[story.author].map { visible($0, caller) } ?? false)
    }

    /// `GET /rest/v1/stories?author_id=eq.<uuid>[&order=expires_at.asc][&limit=n][&select=expires_at]`.
    func authorStories(_ filter: String, query: [(String, String)], caller: Caller) -> Response {
        guard filter.hasPrefix("eq."), let author = UUID(uuidString: String(filter.dropFirst(3))) else {
            return Self.pgError(400, "PGRST100", "unsupported filter on stories")
        }
        var rows = stories.values.filter { $0.author == author && storyVisible($0, caller) }
            .sorted { ($0.expiresAtMicroseconds, $0.id.lowercased) < ($1.expiresAtMicroseconds, $1.id.lowercased) }
        if let limit = query.first(where: { $0.0 == "limit" }).flatMap({ Int($0.1) }) { rows = Array(rows.prefix(max(0, limit))) }
        if query.first(where: { $0.0 == "select" })?.1 == "expires_at" {
            return Self.rows(rows.map { StoryExpiryRow(expires_at: Self.timestamp($0.expiresAtMicroseconds)) })
        }
        return Self.rows(rows.map(Self.storyRow))
    }

    static func storyRow(_ s: FakeStory) -> StoryRow {
        StoryRow(
            id: s.id.lowercased, author_id: s.author.lowercased, media_url: s.mediaURL, media_path: s.mediaPath,
            media_type: s.mediaType, created_at: timestamp(s.createdAtMicroseconds), expires_at: timestamp(s.expiresAtMicroseconds))
    }

    func activeStories(caller: Caller) -> Response {
        guard case .user(let me) = caller else {
            return Self.condition(401, "42501", "authentication_required", details: "action=view_stories")
        }
        let sources = Set([me] + (followsByFollower[me] ?? []).map { follows[$0] }.filter { $0.deletedAtMicroseconds == nil }.map(\.followee))
        let rows = stories.values.filter { sources.contains($0.author) && storyVisible($0, caller) }
            .sorted { ($0.author.lowercased, $0.createdAtMicroseconds) < ($1.author.lowercased, $1.createdAtMicroseconds) }
        return Self.rows(rows.map(Self.storyRow))
    }

    /// `create_story(media_path, media_type, media_url)`, with the function's checks in its
    /// order: signed in; the gateway's file name in the caller's folder, the type of its
    /// extension; the project's URL of that file (`<url>/storage/v1/object/public/stories/<path>`,
    /// or a gateway's `.../stories/<path>`); the object in the bucket; the quota.
    /// - Parameter arguments: nil when the body is not the function's arguments (refused as a
    ///   file of no folder, as before).
    func createStory(_ arguments: CreateStoryArguments?, caller: Caller) -> Response {
        guard case .user(let me) = caller else { return Self.pgError(401, "42501", "permission denied for function create_story") }
        let path = arguments?.media_path ?? "", type = arguments?.media_type ?? "", url = arguments?.media_url ?? ""
        guard let parsed = MediaPath(parsing: path, kind: .story), parsed.owner == me, parsed.description == path,
              type == parsed.format.mediaType.rawValue
        else {
            return Self.condition(400, "22023", "invalid_story_media", details: "media_path")
        }
        guard url.hasPrefix("http://") || url.hasPrefix("https://"), url.hasSuffix("/stories/" + path),
              !url.contains("?"), !url.contains("#"), !url.contains("/../")
        else { return Self.condition(400, "22023", "invalid_story_media", details: "media_url") }
        guard objects[Self.stories.keyPrefix + path] != nil else {
            return Self.condition(404, "PT404", "story_media_not_found")
        }
        let now = storyNow
        let active = stories.values.filter { $0.author == me && $0.expiresAtMicroseconds > now }.map(\.expiresAtMicroseconds).sorted()
        if active.count >= CreateStory.maxActiveStories, let oldest = active.first {
            let wait = max(1, Int((oldest - now + 999_999) / 1_000_000))
            return Self.condition(429, "PT429", "too_many_stories", details: "retry_after=\(wait)")
        }
        let story = FakeStory(
            id: UUID(), author: me, mediaURL: url, mediaPath: path, mediaType: type, createdAtMicroseconds: now,
            expiresAtMicroseconds: now + Story.lifetimeMicroseconds)
        stories[story.id] = story
        return Self.rows([Self.storyRow(story)])
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
