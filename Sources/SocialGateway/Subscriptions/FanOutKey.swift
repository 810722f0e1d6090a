import Foundation
import GraphQLEngine

/// Whom an event's answer is computed for: the part of a subscription's fan-out key that says
/// which subscribers may share one execution.
///
/// Today one viewer: the answer holds what that viewer may see (the gate, private profiles,
/// follow flags), so only their own identical subscriptions share it. Issue 53 adds classes of
/// viewers who see the same thing (an audience class), as one more case here: the hub groups by
/// ``FanOutKey`` and needs no other change.
enum SubscriptionAudience: Sendable, Hashable {
    /// One signed-in viewer, by id.
    case viewer(UUID)
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
