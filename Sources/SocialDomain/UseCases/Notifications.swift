import Foundation

/// The viewer's stored notifications as the viewer may be told of them now (issue 54): read
/// from the ``NotificationStore`` (at most ``NotificationRules/perRecipientLimit``, none older
/// than ``NotificationRules/retentionDays``), then each kept only when its actor passes
/// ``SocialRules/showsNotification(_:actor:)`` and its post and comment are still there and
/// visible, read through the profile and post ports in one call each.
///
/// The whole kept list is bounded by the per-recipient limit, so a page, its counts and a
/// catch-up are computed from it in memory: one store read and up to three batch reads, linear in
/// the limit.
public struct VisibleNotifications: Sendable {
    public let notifications: any NotificationStore
    public let profiles: any ProfileStore
    public let posts: any PostStore

    public init(notifications: any NotificationStore, profiles: any ProfileStore, posts: any PostStore) {
        self.notifications = notifications
        self.profiles = profiles
        self.posts = posts
    }

    /// Newest first.
    /// - Throws: ``DomainError`` `BACKEND_UNAVAILABLE` (or the store's own domain error).
    public func load(viewer: Viewer, now: Date = Date()) async throws -> [StoredNotification] {
        try await backend {
            let stored = try await notifications.storedNotifications(
                since: NotificationRules.oldestKept(now: now), limit: NotificationRules.perRecipientLimit, viewer: viewer)
            guard !stored.isEmpty else { return [] }
            let actorIds = Array(Set(stored.map(\.activity.actor)))
            let postIds = Array(Set(stored.compactMap(\.activity.post)))
            let commentIds = Array(Set(stored.compactMap(\.activity.comment)))
            async let actors = profiles.profiles(ids: actorIds, viewer: viewer)
            async let visiblePosts = postIds.isEmpty ? [:] : posts.posts(ids: postIds, viewer: viewer)
            async let visibleComments = commentIds.isEmpty ? [:] : posts.comments(ids: commentIds, viewer: viewer)
            let (seen, shownPosts, shownComments) = try await (actors, visiblePosts, visibleComments)
            return stored.filter { notification in
                let activity = notification.activity
                guard activity.subject == viewer.userId, activity.actor != activity.subject,
                      SocialRules.showsNotification(activity.kind, actor: seen[activity.actor]?.access)
                else { return false }
                if let post = activity.post, shownPosts[post] == nil { return false }
                if let comment = activity.comment, shownComments[comment] == nil { return false }
                return true
            }.sorted { $1.position < $0.position }
        }
    }
}

/// `Query.notifications`: a page of the viewer's notifications, newest first, with the total and
/// unread counts (issue 54).
///
/// ```swift
/// let page = try await ListNotifications(visible: visible).execute(first: 20, after: nil, viewer: me)
/// ```
public struct ListNotifications: Sendable {
    public let visible: VisibleNotifications
    public init(visible: VisibleNotifications) { self.visible = visible }

    /// - Throws: ``DomainError`` `UNAUTHENTICATED`, `BAD_USER_INPUT` (first out of
    ///   ``PageSize/notifications``, or a cursor of another list or viewer), `BACKEND_UNAVAILABLE`.
    public func execute(first: Int?, after: String?, viewer: Viewer, now: Date = Date()) async throws -> NotificationPage {
        guard let me = viewer.userId else { throw DomainError.unauthenticated(to: .viewNotifications) }
        let limit = try PageSize.notifications.checked(first, field: "first")
        let position = try after.map { try NotificationCursor.position($0, of: me, field: "after") }
        let all = try await visible.load(viewer: viewer, now: now)
        let rest = position.map { position in all.filter { $0.position < position } } ?? all
        return NotificationPage(
            notifications: Array(rest.prefix(limit)), hasNextPage: rest.count > limit, hasPreviousPage: rest.count < all.count,
            totalCount: all.count, unreadCount: all.count(where: { !$0.isRead }))
    }
}

/// What ``MarkNotificationsRead`` did: how many it marked, and the unread count after.
public struct NotificationsMarked: Sendable, Hashable {
    public var markedCount: Int
    public var unreadCount: Int
    public init(markedCount: Int, unreadCount: Int) {
        self.markedCount = markedCount
        self.unreadCount = unreadCount
    }
}

/// `markNotificationsRead`: one notification by its id, or every one up to and including a
/// cursor's (issue 54). Marking one the viewer does not have (or no longer has) changes nothing
/// and is no error: a client that marks what it showed should not fail because a notification
/// expired meanwhile.
///
/// ```swift
/// let result = try await MarkNotificationsRead(visible: visible).execute(id: nil, through: cursor, viewer: me)
/// ```
public struct MarkNotificationsRead: Sendable {
    public let visible: VisibleNotifications
    public init(visible: VisibleNotifications) { self.visible = visible }

    /// - Throws: ``DomainError`` `UNAUTHENTICATED`; `BAD_USER_INPUT` for neither or both of
    ///   `id` and `through`, an id that is no notification id, a cursor of another list or viewer;
    ///   `BACKEND_UNAVAILABLE`.
    public func execute(id: String?, through: String?, viewer: Viewer, now: Date = Date()) async throws -> NotificationsMarked {
        guard let me = viewer.userId else { throw DomainError.unauthenticated(to: .viewNotifications) }
        let selection: NotificationReadSelection
        switch (id, through) {
        case (let id?, nil):
            guard let key = StoredNotification.key(ofId: id), StoredNotification.activity(ofKey: key)?.subject == me else {
                throw DomainError.badUserInput("id is not a notification of the viewer", field: "id")
            }
            selection = .one(key: key)
        case (nil, let through?):
            selection = .through(try NotificationCursor.position(through, of: me, field: "through"))
        default:
            throw DomainError.badUserInput("Give exactly one of id and through", field: "id")
        }
        let marked = try await backend { try await visible.notifications.markNotificationsRead(selection, viewer: viewer) }
        let unread = try await visible.load(viewer: viewer, now: now).count(where: { !$0.isRead })
        return NotificationsMarked(markedCount: marked, unreadCount: unread)
    }
}

/// What a resumed `notifications` subscription sends first (issue 54): the viewer's stored
/// notifications after the cursor it last received, oldest first, as the viewer may be told of
/// them now.
public struct CatchUpNotifications: Sendable {
    public let visible: VisibleNotifications
    public init(visible: VisibleNotifications) { self.visible = visible }

    /// - Throws: ``DomainError`` `UNAUTHENTICATED`, `BAD_USER_INPUT` (a cursor of another list
    ///   or viewer, on `field`), `BACKEND_UNAVAILABLE`.
    public func execute(after: String, field: String = "after", viewer: Viewer, now: Date = Date()) async throws -> [StoredNotification] {
        guard let me = viewer.userId else { throw DomainError.unauthenticated(to: .viewNotifications) }
        let position = try NotificationCursor.position(after, of: me, field: field)
        return Array(try await visible.load(viewer: viewer, now: now).filter { position < $0.position }.reversed())
    }
}
