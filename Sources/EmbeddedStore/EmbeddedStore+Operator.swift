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
}
