import Foundation
import SocialDomain

/// A `profile_private` row as PostgREST returns it (migration 20250301001000).
public struct OwnerDetailsRow: Decodable, Sendable {
    public var home_zip: String?
    public var preferred_grade_scale_boulder: String?
    public var preferred_grade_scale_route: String?
    public var premium_expires_at: String?
    public var premium_product_id: String?
    public var premium_original_transaction_id: String?

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
