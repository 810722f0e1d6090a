import Foundation

/// What only a profile's owner sees of it (seed 000 `SCProfile`: `homeZIP`, the preferred grade
/// scales and the premium status). Nobody else reads them, not even through the store's own
/// API: they live apart from the public profile row (`profile_private`), whose row-level security
/// lets only the owner select it.
///
/// ```swift
/// let mine = try await GetOwnerDetails(profiles: store).execute(profileId: me, viewer: viewer)
/// mine?.homeZIP   // "80302"; nil for anyone but the owner
/// ```
public struct ProfileOwnerDetails: Sendable, Hashable {
    /// The owner's home ZIP or postal code, see ``HomeZIPRule``.
    public var homeZIP: String?
    /// The grade scale the owner reads boulder grades in (free text, e.g. "V" or "Font").
    public var preferredGradeScaleBoulder: String?
    /// The grade scale the owner reads route grades in (free text, e.g. "YDS" or "French").
    public var preferredGradeScaleRoute: String?
    /// The owner's subscription, written only by the store's service role (purchase receipts are
    /// verified elsewhere); never through the gateway.
    public var premium: PremiumStatus?

    public init(
        homeZIP: String? = nil, preferredGradeScaleBoulder: String? = nil, preferredGradeScaleRoute: String? = nil,
        premium: PremiumStatus? = nil
    ) {
        self.homeZIP = homeZIP
        self.preferredGradeScaleBoulder = preferredGradeScaleBoulder
        self.preferredGradeScaleRoute = preferredGradeScaleRoute
        self.premium = premium
    }
}

/// A premium subscription as the seed keeps it: `premiumExpiresAt`, `premiumProductId`,
/// `premiumOriginalTransactionId`, all three or none.
public struct PremiumStatus: Sendable, Hashable {
    public var expiresAt: Date
    public var productId: String
    public var originalTransactionId: String

    public init(expiresAt: Date, productId: String, originalTransactionId: String) {
        self.expiresAt = expiresAt
        self.productId = productId
        self.originalTransactionId = originalTransactionId
    }
}

/// Validated changes to the owner-only fields, part of ``ProfileChanges``.
public struct OwnerDetailChanges: Sendable, Hashable {
    public var homeZIP: FieldUpdate<String> = .keep
    public var preferredGradeScaleBoulder: FieldUpdate<String> = .keep
    public var preferredGradeScaleRoute: FieldUpdate<String> = .keep

    public init() {}

    public var isEmpty: Bool {
        homeZIP.isKeep && preferredGradeScaleBoulder.isKeep && preferredGradeScaleRoute.isKeep
    }

    /// The details after the changes (what a store without server-side logic writes back).
    public func applied(to details: ProfileOwnerDetails) -> ProfileOwnerDetails {
        var d = details
        d.homeZIP = homeZIP.applied(to: d.homeZIP)
        d.preferredGradeScaleBoulder = preferredGradeScaleBoulder.applied(to: d.preferredGradeScaleBoulder)
        d.preferredGradeScaleRoute = preferredGradeScaleRoute.applied(to: d.preferredGradeScaleRoute)
        return d
    }
}
