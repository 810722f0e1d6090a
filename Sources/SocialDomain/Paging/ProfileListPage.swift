import Foundation

/// The first profiles of a ranked list that has no cursor (a profile's "followed by" names, the
/// viewer's suggestions), with the size of the whole list.
///
/// `hasNextPage` is whether the list holds more than ``profiles``; there is no previous page.
///
/// ```swift
/// let page = ProfileListPage(profiles: Array(fetched.prefix(limit)), totalCount: total)
/// ```
public struct ProfileListPage: Sendable, Hashable {
    public var profiles: [Profile]
    /// How many profiles the whole list holds (never fewer than ``profiles``).
    public var totalCount: Int

    public init(profiles: [Profile], totalCount: Int) {
        self.profiles = profiles
        self.totalCount = max(totalCount, profiles.count)
    }

    /// An empty list: nobody, counted 0.
    public static let empty = ProfileListPage(profiles: [], totalCount: 0)

    public var hasNextPage: Bool { totalCount > profiles.count }
}

/// One profile's "followed by" list, as asked of
/// ``SocialGraphStore/followedByViewerFollowing(_:viewer:)``: the first `limit` profiles the viewer
/// follows who follow ``profileId``.
public struct FollowedByRequest: Sendable, Hashable {
    public var profileId: UUID
    public var limit: Int

    public init(profileId: UUID, limit: Int = PageSize.followedBy.defaultSize) {
        self.profileId = profileId
        self.limit = limit
    }
}
