import Foundation
import SocialDomain

/// A row of `pending_follow_requests` (migration 20250301002300).
public struct PendingFollowRequestRow: Codable, Sendable {
    public var requester_id: String
    public var target_id: String
    public init(requester_id: String, target_id: String) {
        self.requester_id = requester_id
        self.target_id = target_id
    }

    public var pair: FollowPair? {
        guard let requester = UUID(parsing: requester_id), let target = UUID(parsing: target_id) else { return nil }
        return FollowPair(follower: requester, followee: target)
    }
}

/// The answer of `follow_request_page`: `{"total": n, "requests": [{"created_us", "requester"}]}`.
public struct FollowRequestPageRow: Codable, Sendable {
    public struct Request: Codable, Sendable {
        public var created_us: Int64
        public var requester: ProfileRow
        public init(created_us: Int64, requester: ProfileRow) {
            self.created_us = created_us
            self.requester = requester
        }
    }
    public var total: Int
    public var requests: [Request]
    public init(total: Int, requests: [Request]) {
        self.total = total
        self.requests = requests
    }

    /// The domain's page, from `limit + 1` rows read after `request.after`.
    public func page(_ request: TimePageRequest, owner: UUID) throws -> FollowRequestPage {
        let all = try requests.map {
            FollowRequest(requester: try $0.requester.profile(), targetId: owner, createdAtMicroseconds: $0.created_us)
        }
        let (page, more) = request.trim(all)
        return FollowRequestPage(
            requests: page, hasNextPage: more,
            hasPreviousPage: request.after != nil, totalCount: total)
    }
}

/// The answer of `sent_follow_request_page` (migration 20250301004000):
/// `{"total": n, "requests": [{"created_us", "target"}]}`.
public struct SentFollowRequestPageRow: Codable, Sendable {
    public struct Request: Codable, Sendable {
        public var created_us: Int64
        public var target: ProfileRow
        public init(created_us: Int64, target: ProfileRow) {
            self.created_us = created_us
            self.target = target
        }
    }
    public var total: Int
    public var requests: [Request]
    public init(total: Int, requests: [Request]) {
        self.total = total
        self.requests = requests
    }

    /// The domain's page, from `limit + 1` rows read after `request.after`.
    public func page(_ request: TimePageRequest, requester: UUID) throws -> SentFollowRequestPage {
        let all = try requests.map {
            SentFollowRequest(target: try $0.target.profile(), requesterId: requester, createdAtMicroseconds: $0.created_us)
        }
        return SentFollowRequestPage(
            requests: Array(all.prefix(request.limit)), hasNextPage: all.count > request.limit,
            hasPreviousPage: request.after != nil, totalCount: total)
    }
}

/// The answer of `answer_follow_request`.
public struct FollowRequestAnswerRow: Codable, Sendable {
    public var approved: Bool
    public var requester: ProfileRow
    public var owner: ProfileRow
    public init(approved: Bool, requester: ProfileRow, owner: ProfileRow) {
        self.approved = approved
        self.requester = requester
        self.owner = owner
    }

    public func answer() throws -> FollowRequestAnswer {
        FollowRequestAnswer(approved: approved, requester: try requester.profile(), owner: try owner.profile())
    }
}

/// The argument of `pending_follow_requests`: `{"pairs": [{"follower_id", "followee_id"}]}`.
public struct PendingFollowRequestsArguments: Codable, Sendable {
    public struct Pair: Codable, Sendable {
        public var follower_id: String
        public var followee_id: String
    }
    public var pairs: [Pair]
    public init(pairs: [FollowPair]) {
        self.pairs = pairs.map { Pair(follower_id: $0.follower.lowercased, followee_id: $0.followee.lowercased) }
    }
}

/// The answer of `block_profile` / `unblock_profile`.
public struct BlockOutcomeRow: Codable, Sendable {
    public var blocked: Bool
    public var changed: Bool
    public var viewer: ProfileRow
    public init(blocked: Bool, changed: Bool, viewer: ProfileRow) {
        self.blocked = blocked
        self.changed = changed
        self.viewer = viewer
    }

    public func outcome() throws -> BlockOutcome {
        BlockOutcome(blocked: blocked, changed: changed, viewer: try viewer.profile())
    }
}

/// The answer of `blocked_profiles_page`: `{"total": n, "blocked": [{"created_us", "profile"}]}`,
/// each profile a card.
public struct BlockedProfilePageRow: Codable, Sendable {
    public struct Entry: Codable, Sendable {
        public var created_us: Int64
        public var profile: ProfileRow
        public init(created_us: Int64, profile: ProfileRow) {
            self.created_us = created_us
            self.profile = profile
        }
    }
    public var total: Int
    public var blocked: [Entry]
    public init(total: Int, blocked: [Entry]) {
        self.total = total
        self.blocked = blocked
    }

    public func page(_ request: TimePageRequest, owner: UUID) throws -> BlockedProfilePage {
        let all = try blocked.map {
            BlockedProfile(profile: try $0.profile.profile().card(), ownerId: owner, blockedAtMicroseconds: $0.created_us)
        }
        let (page, more) = request.trim(all)
        return BlockedProfilePage(
            blocked: page, hasNextPage: more,
            hasPreviousPage: request.after != nil, totalCount: total)
    }
}
