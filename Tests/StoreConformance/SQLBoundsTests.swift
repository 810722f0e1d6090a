import Foundation
import GatewayTestSupport
import SocialDomain
import Testing

/// The bounds the migrations write in SQL are the domain's constants: read from the live
/// definitions of a migrated database (whichever migration wrote each function last), or by
/// calling the function that holds one. The embedded store reads the same constants in Swift.
@Suite("Store conformance: the bounds in SQL are the domain's", .enabled(if: PostgresTestDatabase.serverURL != nil))
struct SQLBoundsTests {
    /// The live definition of a function, by its signature (`schema.name(argtypes)`).
    static func definition(_ signature: String, in database: PostgresTestDatabase) async throws -> String {
        try #require(try await database.text("select pg_get_functiondef('\(signature)'::regprocedure)"))
    }

    /// The integers the first capture group of `pattern` finds in `text`, in order.
    static func integers(_ pattern: String, in text: String) throws -> [Int] {
        let regex = try Regex(pattern)
        return text.matches(of: regex).compactMap { match in match.output[1].substring.flatMap { Int($0) } }
    }

    static func withDatabase(_ body: (PostgresTestDatabase) async throws -> Void) async throws {
        let database = try await PostgresTestDatabase.create(profiles: [], follows: [], ownerDetails: [:])
        do {
            try await body(database)
        } catch {
            await database.drop()
            throw error
        }
        await database.drop()
    }

    @Test("issue 54: notifications are kept NotificationRules.retentionDays and perRecipientLimit per recipient in SQL too")
    func notificationRetention() async throws {
        try await Self.withDatabase { database in
            let days = try await database.int64("select social_private.notification_retention_days()::bigint")
            let limit = try await database.int64("select social_private.notification_limit()::bigint")
            #expect(days == Int64(NotificationRules.retentionDays))
            #expect(limit == Int64(NotificationRules.perRecipientLimit))
        }
    }

    @Test("issue 52: a declined requester waits FollowRequestRules.askAgainAfterDecline in SQL too")
    func askAgainAfterDecline() async throws {
        try await Self.withDatabase { database in
            let body = try await Self.definition("social_private.change_follow_request(text, uuid, uuid)", in: database)
            let days = try Self.integers(#"interval\s+'(\d+)\s+days'"#, in: body)
            #expect(days.map { Int64($0) * 86_400 } == [FollowRequestRules.askAgainAfterDecline])
        }
    }

    @Test("issue 52, 54: suggestions walk SuggestionBounds' follows (and popular profiles) in SQL too")
    func suggestionBounds() async throws {
        try await Self.withDatabase { database in
            let body = try await Self.definition("public.suggested_profiles(integer)", in: database)
            let middle = try Self.integers(#"f\.created_at\s+desc,\s*f\.id\s+desc\s+limit\s+(\d+)"#, in: body)
            let perMiddle = try Self.integers(#"h\.created_at\s+desc,\s*h\.id\s+desc\s+limit\s+(\d+)"#, in: body)
            #expect(middle == [SuggestionBounds.middleProfiles])
            #expect(perMiddle == [SuggestionBounds.followsPerMiddleProfile])
            // issue 54: one who follows nobody is ranked on the most followed public profiles.
            let popular = try Self.integers(#"p\.follower_count\s+desc,\s*p\.id\s+limit\s+(\d+)"#, in: body)
            #expect(popular == [SuggestionBounds.popularProfiles])
        }
    }

    @Test("issue 52: the SQL page sizes default as the domain's and never refuse a size it allows")
    func pageSizes() async throws {
        try await Self.withDatabase { database in
            // The keyset lists: a request's `limit`, its default and the function's cap.
            for function in ["public.follow_page_rows(jsonb)", "public.post_pages(jsonb)", "public.comment_pages(jsonb)",
                             "public.liker_pages(jsonb)"] {
                let body = try await Self.definition(function, in: database)
                let defaults = try Self.integers(#"coalesce\(\(r\.value\s*->>\s*'limit'\)::int,\s*(\d+)\)"#, in: body)
                let caps = try Self.integers(#"coalesce\(\(r\.value\s*->>\s*'limit'\)::int,\s*\d+\),\s*0\),\s*(\d+)\)"#, in: body)
                #expect(defaults == [PageSize.lists.defaultSize], "\(function)'s default page size")
                #expect(!caps.isEmpty && caps.allSatisfy { $0 >= PageSize.lists.range.upperBound }, "\(function)'s cap \(caps)")
            }
            // The ranked lists take a page size, capped.
            let ranked: [(String, PageSize)] = [
                ("public.followed_by_viewer_following(uuid[], integer)", .followedBy), ("public.suggested_profiles(integer)", .suggestions),
                ("public.sent_follow_request_page(bigint, uuid, integer)", .ownLists),
            ]
            for (function, size) in ranked {
                let body = try await Self.definition(function, in: database)
                let caps = try Self.integers(#"least\(greatest\(page_size,\s*\d+\),\s*(\d+)\)"#, in: body)
                #expect(!caps.isEmpty && caps.allSatisfy { $0 >= size.range.upperBound }, "\(function)'s cap \(caps)")
            }
        }
    }

    @Test("issue 52: stories' quota and lifetime in SQL are CreateStory's and Story's")
    func stories() async throws {
        try await Self.withDatabase { database in
            let quota = try await database.int64("select social_private.max_active_stories()::bigint")
            #expect(quota == Int64(CreateStory.maxActiveStories))
            let body = try await Self.definition("public.stories_set_times()", in: database)
            let hours = try Self.integers(#"interval\s+'(\d+)\s+hours'"#, in: body)
            #expect(hours.map { Int64($0) * 3_600_000_000 } == [Story.lifetimeMicroseconds])
        }
    }
}
