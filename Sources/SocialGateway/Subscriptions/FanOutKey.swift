import Foundation
import GraphQLEngine

/// Whom an event's answer is computed for: the part of a subscription's fan-out key that says
/// which subscribers may share one execution.
///
/// Mostly one viewer: the answer holds what that viewer may see (the gate, private profiles,
/// follow flags), so only their own identical subscriptions share it. A selection whose answer
/// is the same for everyone allowed to see the event (``SharedEventShape``) is shared by that
/// whole class of viewers (issue 53): each is admitted on their own (``EventAdmission``), the
/// answer is computed once for all of them.
enum SubscriptionAudience: Sendable, Hashable {
    /// One signed-in viewer, by id.
    case viewer(UUID)
    /// Every viewer who may read the event's post (`feedPosts`: its author and the profiles that
    /// follow them and see them whole), each admitted by ``EventAdmission`` before the shared
    /// answer is handed to them.
    case mayReadPost
}

/// Subscriptions whose answer to any event is the same bytes: same document, operation and
/// variables, same audience. The hub executes an event once per key and hands the answer to
/// every subscription of the key (issue 51: 80 identical subscriptions of one viewer cost one
/// execution per post, not 80).
///
/// Its hash is computed once, when the subscription starts: routing an event to 10,000
/// subscribers groups them by key without hashing their documents again.
struct FanOutKey: Sendable, Hashable {
    let document: String
    let operationName: String?
    let variables: JSONObject
    let audience: SubscriptionAudience
    private let hash: Int

    init(_ operation: SubscriptionOperation, audience: SubscriptionAudience) {
        document = operation.source.body
        operationName = operation.operationName
        variables = operation.variables
        self.audience = audience
        var hasher = Hasher()
        hasher.combine(document)
        hasher.combine(operationName)
        hasher.combine(variables)
        hasher.combine(audience)
        hash = hasher.finalize()
    }

    func hash(into hasher: inout Hasher) { hasher.combine(hash) }

    static func == (lhs: FanOutKey, rhs: FanOutKey) -> Bool {
        lhs.hash == rhs.hash && lhs.audience == rhs.audience && lhs.operationName == rhs.operationName
            && lhs.document == rhs.document && lhs.variables == rhs.variables
    }
}
