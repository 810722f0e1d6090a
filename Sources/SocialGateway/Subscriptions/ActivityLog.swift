import Foundation
import SocialDomain
import Synchronization

/// The activities a request's mutations committed, in order: what the service publishes to the
/// change stream on a store without a feed (the embedded store), for subscriptions to tell.
final class ActivityLog: Sendable {
    private let activities = Mutex<[Activity]>([])

    func record(_ activity: Activity) { activities.withLock { $0.append(activity) } }

    var all: [Activity] { activities.withLock { $0 } }

    /// The time an activity recorded by the gateway carries: now, in the stores' microseconds.
    static var now: Int64 { UnixMicroseconds.from(Date()) }
}
