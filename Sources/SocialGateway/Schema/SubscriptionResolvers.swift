import Foundation
import GraphQLEngine
import SocialDomain

/// `Subscription` and what its events show (`Notification` and its kinds, `PostActivity`).
///
/// Each root field's parent is the event being answered (``SubscriptionEvent``, the root value of
/// §6.2.3.2); the hub has already checked that the subscriber may see it (``SubscriptionGate``),
/// through the same loaders, so these reads cost no further store call.
enum SubscriptionResolvers {
    static func bind(_ b: inout SchemaBinder) {
        b.bindSync("Subscription", "notifications") { info in
            guard case .notification(let activity) = try info.parent(as: SubscriptionEvent.self) else { return nil }
            return NotificationValue(activity: activity)
        }
        b.bind("Subscription", "feedPosts") { info in
            guard case .feedPost(let activity) = try info.parent(as: SubscriptionEvent.self), let id = activity.post else {
                return nil
            }
            return try await post(id, info)
        }
        b.bindSync("Subscription", "postActivity") { info in
            guard case .postActivity(let post, let comment, _) = try info.parent(as: SubscriptionEvent.self) else { return nil }
            return PostActivityValue(post: post, comment: comment)
        }
        b.resolveType("Notification") { value in
            switch (value as? NotificationValue)?.activity.kind {
            case .followed?: "FollowNotification"
            case .liked?: "LikeNotification"
            case .commented?: "CommentNotification"
            case .followRequested?: "FollowRequestNotification"
            case .followApproved?: "FollowApprovalNotification"
            case .posted?, nil: nil
            }
        }
        for type in NotificationValue.typeNames {
            b.bindSync(type, "id") { info in try info.parent(as: NotificationValue.self).id }
            b.bind(type, "actor") { info in
                try await PostResolvers.author(try info.parent(as: NotificationValue.self).activity.actor, info)
            }
            b.bindSync(type, "createdAt") { info in
                UnixMicroseconds.date(try info.parent(as: NotificationValue.self).activity.at)
            }
            b.bindSync(type, "cursor") { info in try info.parent(as: NotificationValue.self).cursor }
            b.bindSync(type, "isRead") { info in try info.parent(as: NotificationValue.self).isRead }
        }
        for type in ["LikeNotification", "CommentNotification"] {
            b.bind(type, "post") { info in
                guard let id = try info.parent(as: NotificationValue.self).activity.post else { throw DomainError.postNotFound }
                return try await post(id, info)
            }
        }
        b.bind("CommentNotification", "comment") { info in
            guard let id = try info.parent(as: NotificationValue.self).activity.comment,
                  let comment = try await info.request.commentsByID.load(id)
            else { throw DomainError.commentNotFound }
            return comment
        }
        b.bind("PostActivity", "post") { info in try await post(try info.parent(as: PostActivityValue.self).post, info) }
        b.bind("PostActivity", "newComment") { info in
            guard let id = try info.parent(as: PostActivityValue.self).comment else { return nil }
            return try await info.request.commentsByID.load(id)
        }
    }

    static func post(_ id: UUID, _ info: ResolveInfo) async throws -> Post {
        let request = try info.request
        guard let post = try await request.postsByID.load(id) else { throw DomainError.postNotFound }
        return request.read(post) ?? post
    }
}

/// A notification: the activity it tells of, told live or read back from the store (issue 54).
struct NotificationValue: Sendable {
    let activity: Activity
    /// Whether the recipient marked it read (a live one is not).
    var isRead = false

    init(activity: Activity, isRead: Bool = false) {
        self.activity = activity
        self.isRead = isRead
    }

    init(_ stored: StoredNotification) { self.init(activity: stored.activity, isRead: stored.isRead) }

    /// The object types of `Notification`.
    static let typeNames = [
        "FollowNotification", "LikeNotification", "CommentNotification", "FollowRequestNotification", "FollowApprovalNotification",
    ]

    /// Stable for the same event (kind, who, what, when), opaque to clients: the base64url of
    /// ``SocialDomain/Activity/notificationKey``, the stores' key.
    var id: String { StoredNotification.id(ofKey: activity.notificationKey) }

    /// Its place in the recipient's notifications, the same whether told live or read back.
    var cursor: String {
        NotificationCursor(recipient: activity.subject, position: NotificationPosition(at: activity.at, key: activity.notificationKey)).encoded
    }
}

/// A post's change: the post, and the comment it added.
struct PostActivityValue: Sendable {
    let post: UUID
    let comment: UUID?
}
