import Foundation
import GraphQLEngine
import SocialDomain

/// Stored notifications (issue 54): `Query.notifications` (a connection with `unreadCount`) and
/// `Mutation.markNotificationsRead`, each through its use case. The notifications themselves
/// resolve as the live ones do (``SubscriptionResolvers``, ``NotificationValue``). Never cached:
/// the field is `@cacheControl(maxAge: 0)`, since others' writes change it.
enum NotificationResolvers {
    static func bind(_ b: inout SchemaBinder) {
        b.bind("Query", "notifications") { info in
            let request = try info.request
            // Aliases and batches share the request's reads of the list (RequestBudget).
            try request.budget.spendNotificationRead(field: "notifications")
            let page = try await storeCall(request.logger) {
                try await ListNotifications(visible: visible(request)).execute(
                    first: info.arguments.int("first"), after: info.arguments.string("after"), viewer: request.viewer)
            }
            return page
        }
        b.bindSync("NotificationConnection", "edges") { info in try info.parent(as: NotificationPage.self).notifications }
        b.bindSync("NotificationConnection", "nodes") { info in
            try info.parent(as: NotificationPage.self).notifications.map(NotificationValue.init)
        }
        b.bindSync("NotificationConnection", "totalCount") { info in try info.parent(as: NotificationPage.self).totalCount }
        b.bindSync("NotificationConnection", "unreadCount") { info in try info.parent(as: NotificationPage.self).unreadCount }
        b.bindSync("NotificationConnection", "pageInfo") { info in
            let page = try info.parent(as: NotificationPage.self)
            return PageInfoValue(
                hasNextPage: page.hasNextPage, hasPreviousPage: page.hasPreviousPage,
                startCursor: page.notifications.first.map { NotificationValue($0).cursor },
                endCursor: page.notifications.last.map { NotificationValue($0).cursor })
        }
        b.bindSync("NotificationEdge", "cursor") { info in NotificationValue(try info.parent(as: StoredNotification.self)).cursor }
        b.bindSync("NotificationEdge", "node") { info in NotificationValue(try info.parent(as: StoredNotification.self)) }

        b.bind("Mutation", "markNotificationsRead") { info in
            let request = try info.request
            try request.budget.spendNotificationRead(field: "markNotificationsRead")
            return try await storeCall(request.logger) {
                try await MarkNotificationsRead(visible: visible(request)).execute(
                    id: info.arguments.string("id"), through: info.arguments.string("through"), viewer: request.viewer)
            }
        }
        b.bindSync("MarkNotificationsReadPayload", "markedCount") { try $0.parent(as: NotificationsMarked.self).markedCount }
        b.bindSync("MarkNotificationsReadPayload", "unreadCount") { try $0.parent(as: NotificationsMarked.self).unreadCount }
    }

    /// The viewer's notifications as they may be told of them, through the request's stores.
    static func visible(_ request: RequestContext) -> VisibleNotifications {
        VisibleNotifications(notifications: request.stores.notifications, profiles: request.stores.profiles, posts: request.stores.posts)
    }
}
