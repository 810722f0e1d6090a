import Foundation
import GraphQLEngine
import SocialDomain

/// A `notifications` subscription resumed after a cursor (issue 54): what a reconnecting client
/// missed, then the live events, with no gap and none twice.
///
/// The order makes it so: the subscription is registered first (from then on every live event
/// is queued for it), then the stored notifications after the cursor are read (every event
/// committed before the read is among them), sent oldest first before anything live; a live event
/// that is one of them, queued already or arriving later (a feed reports a commit a moment after
/// it), has the same key (``SocialDomain/Activity/notificationKey``) and is dropped. Everything
/// committed after the read comes live. Each stored one is checked at delivery like a live one
/// (``SubscriptionGate``), and spends the subscription's cost like any event.
///
/// Only the keys of stored notifications of the last ``liveCopyWindow`` are kept to catch a late
/// live copy (an older event's copy was delivered long before the subscription existed), at
/// most ``maxRememberedKeys``: a catch-up of 1,000 holds no more than a live subscription does.
extension SubscriptionHub {
    /// How far back a stored notification's live copy may still be on its way.
    static let liveCopyWindow: Int64 = 60_000_000
    /// The most keys a resumed subscription remembers.
    static let maxRememberedKeys = 64

    /// Reads what `subscription` missed after `after` and queues it first.
    /// - Returns: a refusal when it cannot (the subscription is then cancelled), else nil.
    func catchUp(_ subscription: LiveSubscription, after: String) async -> SubscriptionStart? {
        let missed: [StoredNotification]
        do {
            missed = try await CatchUpNotifications(visible: VisibleNotifications(
                notifications: service.stores.notifications, profiles: service.stores.profiles, posts: service.stores.posts
            )).execute(after: after, viewer: subscription.viewer)
        } catch {
            subscription.cancel()
            let domain = error as? DomainError ?? .backendUnavailable
            return .refused(service.requestError([GraphQLError(domain.message, extensions: ["code": .string(domain.code.rawValue)])]))
        }
        let recent = UnixMicroseconds.from(Date()) - Self.liveCopyWindow
        let told = Set(missed.suffix(Self.maxRememberedKeys).filter { $0.activity.at >= recent }.map(\.key))
        subscription.resume(
            with: missed.map { LiveSubscription.Delivery(event: .notification($0.activity), answer: SharedAnswer()) }, told: told)
        return nil
    }
}
