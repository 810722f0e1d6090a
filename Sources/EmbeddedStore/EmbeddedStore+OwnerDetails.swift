import Foundation
import GRDB
import SocialDomain

/// The owner-only fields (`profile_private`): read for the owner only, written by the owner's
/// updates and, for the premium status, by the operator.
extension EmbeddedStore {
    static let ownerDetailColumns = """
        home_zip, preferred_grade_scale_boulder, preferred_grade_scale_route,
        premium_expires_at, premium_product_id, premium_original_transaction_id
        """

    /// Emulates `profile_private_read_own`: the viewer's own row, nothing for anyone else.
    public func ownerDetails(viewer: Viewer) async throws -> ProfileOwnerDetails {
        try await call(.ownerDetails) {
            guard let me = viewer.userId else { return ProfileOwnerDetails() }
            return try read { db in
                try Self.readOwnerDetails(db, id: me)
            }
        }
    }

    /// Sets or removes a profile's premium status, as the service role does on Supabase when a
    /// purchase is verified or expires. Not a port method: no client may write it.
    ///
    /// ```swift
    /// try await store.setPremiumStatus(PremiumStatus(expiresAt: nextYear, productId: "premium.yearly",
    ///                                                originalTransactionId: "2000000123"), for: aliceId)
    /// ```
    /// - Throws: ``DomainError`` `NOT_FOUND` when no such profile exists.
    public func setPremiumStatus(_ premium: PremiumStatus?, for id: UUID) async throws {
        let now = UnixMicroseconds.from(options.clock.now())
        try await pool.write { db in
            guard try Bool.fetchOne(db, sql: "SELECT 1 FROM profiles WHERE id = ?", arguments: [id.lowercased]) == true
            else { throw DomainError.profileNotFound }
            try db.execute(sql: """
                INSERT INTO profile_private (id, premium_expires_at, premium_product_id, premium_original_transaction_id, updated_at)
                VALUES (?, ?, ?, ?, ?)
                ON CONFLICT (id) DO UPDATE SET premium_expires_at = excluded.premium_expires_at,
                  premium_product_id = excluded.premium_product_id,
                  premium_original_transaction_id = excluded.premium_original_transaction_id, updated_at = excluded.updated_at
                """, arguments: [id.lowercased, premium.map { UnixMicroseconds.from($0.expiresAt) }, premium?.productId,
                                 premium?.originalTransactionId, now])
        }
    }

    static func readOwnerDetails(_ db: Database, id: UUID) throws -> ProfileOwnerDetails {
        guard let row = try Row.fetchOne(
            db.cachedStatement(sql: "SELECT \(ownerDetailColumns) FROM profile_private WHERE id = ?"),
            arguments: [id.lowercased])
        else { return ProfileOwnerDetails() }
        var premium: PremiumStatus?
        if let expires = row[3] as Int64?, let product = row[4] as String?, let transaction = row[5] as String? {
            premium = PremiumStatus(expiresAt: UnixMicroseconds.date(expires), productId: product, originalTransactionId: transaction)
        }
        return ProfileOwnerDetails(
            homeZIP: row[0], preferredGradeScaleBoulder: row[1], preferredGradeScaleRoute: row[2], premium: premium)
    }

    /// Applies the owner's changes to `profile_private` (an upsert: the row exists only once
    /// something was set), in the caller's transaction.
    static func writeOwnerDetails(_ db: Database, id: UUID, changes: OwnerDetailChanges, at micros: Int64) throws {
        guard !changes.isEmpty else { return }
        var columns: [String] = []
        var values: [(any DatabaseValueConvertible)?] = []
        func add(_ column: String, _ update: FieldUpdate<String>) {
            guard !update.isKeep else { return }
            columns.append(column)
            values.append(update.applied(to: nil))
        }
        add("home_zip", changes.homeZIP)
        add("preferred_grade_scale_boulder", changes.preferredGradeScaleBoulder)
        add("preferred_grade_scale_route", changes.preferredGradeScaleRoute)
        let updates = (columns + ["updated_at"]).map { "\($0) = excluded.\($0)" }.joined(separator: ", ")
        try db.execute(
            sql: "INSERT INTO profile_private (id, \(columns.joined(separator: ", ")), updated_at) "
                + "VALUES (?, \(placeholders(columns.count)), ?) ON CONFLICT (id) DO UPDATE SET \(updates)",
            arguments: StatementArguments([id.lowercased] + values + [micros]))
    }
}
