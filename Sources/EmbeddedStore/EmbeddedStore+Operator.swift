import Foundation
import GRDB

extension EmbeddedStore {
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
