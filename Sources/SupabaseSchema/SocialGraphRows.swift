import Foundation
import SocialDomain

/// The arguments of `followed_by_viewer_following` (migration 20250301002400). Decodable too,
/// for the Supabase fake.
public struct FollowedByArguments: Codable {
    public var profile_ids: [String]
    public var page_size: Int

    /// One wave's requests: the store asks every card for the same page size (the largest asked),
    /// and ``FollowedByRow/pages(_:answering:)`` cuts each list to its own.
    public init(_ requests: [FollowedByRequest]) {
        profile_ids = requests.map(\.profileId.lowercased)
        page_size = requests.map(\.limit).max() ?? 0
    }
}

/// One row of `followed_by_viewer_following`: the request it answers, how many profiles its list
/// holds, and one of them (null when the list is empty). Encodable too, for the fake.
public struct FollowedByRow: Codable {
    public var request_index: Int
    public var total_count: Int
    public var profile: ProfileRow?

    public init(request_index: Int, total_count: Int, profile: ProfileRow? = nil) {
        self.request_index = request_index
        self.total_count = total_count
        self.profile = profile
    }

    public enum CodingKeys: String, CodingKey { case request_index, total_count, profile }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(request_index, forKey: .request_index)
        try c.encode(total_count, forKey: .total_count)
        try c.encode(profile, forKey: .profile)
    }

    /// One page per request, in request order, from the rows in the function's order; each list
    /// cut to its request's limit.
    /// - Throws: ``MalformedRow`` for a row answering no request, or a profile it cannot read.
    public static func pages(_ rows: [FollowedByRow], answering requests: [FollowedByRequest]) throws -> [ProfileListPage] {
        var profiles = Array(repeating: [Profile](), count: requests.count)
        var totals = Array(repeating: 0, count: requests.count)
        for row in rows {
            guard requests.indices.contains(row.request_index) else { throw MalformedRow("followed-by row for request \(row.request_index)") }
            totals[row.request_index] = row.total_count
            if let profile = row.profile, profiles[row.request_index].count < requests[row.request_index].limit {
                profiles[row.request_index].append(try profile.profile())
            }
        }
        return requests.indices.map { ProfileListPage(profiles: profiles[$0], totalCount: totals[$0]) }
    }
}

/// The argument of `suggested_profiles`. Decodable too, for the fake.
public struct SuggestedProfilesArguments: Codable {
    public var page_size: Int
    public init(page_size: Int) { self.page_size = page_size }
}

/// One row of `suggested_profiles`: a suggestion, in rank order, and how many there are in all.
public struct SuggestedProfileRow: Codable {
    public var total_count: Int
    public var profile: ProfileRow

    public init(total_count: Int, profile: ProfileRow) {
        self.total_count = total_count
        self.profile = profile
    }

    /// The first `limit` suggestions and the count of them all.
    /// - Throws: ``MalformedRow`` for a profile it cannot read.
    public static func page(_ rows: [SuggestedProfileRow], limit: Int) throws -> ProfileListPage {
        ProfileListPage(profiles: try rows.prefix(limit).map { try $0.profile.profile() }, totalCount: rows.first?.total_count ?? 0)
    }
}
