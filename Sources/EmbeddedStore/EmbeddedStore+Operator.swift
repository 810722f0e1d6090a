import Foundation
import GRDB
import SocialDomain

extension EmbeddedStore: OperatorProfileLookup {
    /// The id of the profile with `handle` (any case), whatever its visibility; nil when there is
    /// none.
    ///
    /// For operator tools that own the data folder (`social-gateway token`), never for requests:
    /// requests read profiles through the use cases, which apply visibility.
    public func operatorProfileID(forHandle handle: String) async throws -> UUID? {
        let id = try await pool.read { db in
            try String.fetchOne(db, sql: "SELECT id FROM profiles WHERE lower(handle) = ?", arguments: [handle.lowercased()])
        }
        return id.flatMap(UUID.init(uuidString:))
    }
}

extension EmbeddedStore {
    /// Moves an author's stories 24 hours back, so that they are expired now: what the passing of
    /// a day does, for tests and demos of expiry (never reached by a request).
    public func operatorAgeStories(of author: UUID) async throws {
        try await pool.write { db in
            try db.execute(
                sql: "UPDATE stories SET created_at = created_at - ?1, expires_at = expires_at - ?1 WHERE author_id = ?2",
                arguments: [Story.lifetimeMicroseconds + 1, author.lowercased])
        }
    }

    /// Moves the decisions on these follow requests (requester → target) `seconds` back: what
    /// the passing of time does to a decline's wait (``FollowRequestRules/askAgainAfterDecline``),
    /// for tests (never reached by a request).
    public func operatorAgeFollowRequestDecisions(_ pairs: [FollowPair], bySeconds seconds: Int64) async throws {
        try await pool.write { db in
            for pair in pairs {
                try db.execute(
                    sql: "UPDATE follow_requests SET decided_at = decided_at - ? WHERE requester_id = ? AND target_id = ? AND decided_at IS NOT NULL",
                    arguments: [seconds * 1_000_000, pair.follower.lowercased, pair.followee.lowercased])
            }
        }
    }
}
