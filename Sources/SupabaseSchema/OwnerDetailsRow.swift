import Foundation
import SocialDomain

/// A `profile_private` row as PostgREST returns it (migration 20250301001000). Encodable too,
/// for the Supabase fake (nulls explicit, as PostgREST writes them).
public struct OwnerDetailsRow: Codable, Sendable {
    public var home_zip: String?
    public var preferred_grade_scale_boulder: String?
    public var preferred_grade_scale_route: String?
    public var premium_expires_at: String?
    public var premium_product_id: String?
    public var premium_original_transaction_id: String?

    public init(
        home_zip: String?, preferred_grade_scale_boulder: String?, preferred_grade_scale_route: String?,
        premium_expires_at: String?, premium_product_id: String?, premium_original_transaction_id: String?
    ) {
        self.home_zip = home_zip
        self.preferred_grade_scale_boulder = preferred_grade_scale_boulder
        self.preferred_grade_scale_route = preferred_grade_scale_route
        self.premium_expires_at = premium_expires_at
        self.premium_product_id = premium_product_id
        self.premium_original_transaction_id = premium_original_transaction_id
    }

    public enum CodingKeys: String, CodingKey {
        case home_zip, preferred_grade_scale_boulder, preferred_grade_scale_route
        case premium_expires_at, premium_product_id, premium_original_transaction_id
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(home_zip, forKey: .home_zip)
        try c.encode(preferred_grade_scale_boulder, forKey: .preferred_grade_scale_boulder)
        try c.encode(preferred_grade_scale_route, forKey: .preferred_grade_scale_route)
        try c.encode(premium_expires_at, forKey: .premium_expires_at)
        try c.encode(premium_product_id, forKey: .premium_product_id)
        try c.encode(premium_original_transaction_id, forKey: .premium_original_transaction_id)
    }

    public static let columns = [
        "home_zip", "preferred_grade_scale_boulder", "preferred_grade_scale_route",
        "premium_expires_at", "premium_product_id", "premium_original_transaction_id",
    ].joined(separator: ",")

    /// - Throws: ``MalformedRow(_:)`` for an expiry this code cannot read.
    public func details() throws -> ProfileOwnerDetails {
        var premium: PremiumStatus?
        if let premium_expires_at, let premium_product_id, let premium_original_transaction_id {
            guard let expires = SupabaseTimestamp.microseconds(premium_expires_at) else {
                throw MalformedRow("premium_expires_at \(premium_expires_at)")
            }
            premium = PremiumStatus(
                expiresAt: UnixMicroseconds.date(expires), productId: premium_product_id,
                originalTransactionId: premium_original_transaction_id)
        }
        return ProfileOwnerDetails(
            homeZIP: home_zip, preferredGradeScaleBoulder: preferred_grade_scale_boulder,
            preferredGradeScaleRoute: preferred_grade_scale_route, premium: premium)
    }
}

/// The body of an owner-only update: only the changed columns, `null` for a cleared one.
public struct OwnerDetailsPatch: Encodable {
    public var changes: OwnerDetailChanges

    public init(changes: OwnerDetailChanges) { self.changes = changes }

    public enum Key: String, CodingKey {
        case home_zip, preferred_grade_scale_boulder, preferred_grade_scale_route
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(changes.homeZIP, forKey: .home_zip)
        try c.encode(changes.preferredGradeScaleBoulder, forKey: .preferred_grade_scale_boulder)
        try c.encode(changes.preferredGradeScaleRoute, forKey: .preferred_grade_scale_route)
    }
}
