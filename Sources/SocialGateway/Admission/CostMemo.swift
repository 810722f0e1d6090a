import GraphQLEngine
import Synchronization

/// The estimated costs of one document's operations whose price depends on variables, kept by
/// the values of the variables the estimate read (``GraphQLEngine/CostEstimate/variablesRead``).
///
/// Most requests of a document differ only in variables the price does not read (the handle of a
/// profile card, a search text): they share one estimate instead of walking the document again
/// (issue 53: 3.6% of a card's CPU). Which variables are read depends on the document alone, so
/// a price kept under their values is the price of any request with those values.
final class CostMemo: Sendable {
    struct Key: Hashable, Sendable {
        let operation: String?
        let values: [JSONValue?]
    }

    /// At most this many prices per document; past it the memo starts over (a document whose
    /// slicing variables take thousands of values is rare, and each price is cheap to redo).
    static let maxEntries = 256

    private let prices = Mutex<[Key: Int]>([:])

    /// Whether a variable's value may be part of a key: absent, null, a number or a boolean, or a
    /// string of at most 64 bytes (what a slicing or introspection argument takes). Anything else
    /// is priced without the memo, so a request cannot make it hold its bytes.
    static func isKeepable(_ value: JSONValue?) -> Bool {
        switch value {
        case nil, .null?, .bool?, .int?, .double?: true
        case .string(let text)?: text.utf8.count <= 64
        default: false
        }
    }

    /// The price kept for `key`, or `compute`'s (then kept).
    func cost(_ key: Key, compute: () -> Int) -> Int {
        if let known = prices.withLock({ $0[key] }) { return known }
        let cost = compute()
        prices.withLock { prices in
            if prices.count >= Self.maxEntries { prices.removeAll(keepingCapacity: true) }
            prices[key] = cost
        }
        return cost
    }
}
