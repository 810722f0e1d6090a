import SocialGateway

/// In-memory invalidation history: a monotonic epoch bumped by every invalidation, the epoch at
/// which each tag was last invalidated, and a floor below which every token is refused.
///
/// The per-tag map is bounded: past `limit` tags it is cleared and the floor raised to the current
/// epoch, which refuses every older token. That errs on the side of not caching, never of serving.
struct InvalidationLedger: Sendable {
    private(set) var epoch: UInt64 = 0
    private var floor: UInt64 = 0
    private var tagEpochs: [String: UInt64] = [:]
    let limit: Int

    init(limit: Int = 50_000) {
        self.limit = limit
    }

    /// A token for a computation starting now.
    func token(generation: UInt64? = nil, ownAdvances: UInt64 = 0) -> CacheToken {
        CacheToken(epoch: epoch, generation: generation, ownAdvances: ownAdvances)
    }

    /// Records that `tags` are invalidated from now on.
    mutating func invalidate(_ tags: Set<String>) {
        epoch += 1
        for tag in tags { tagEpochs[tag] = epoch }
        if tagEpochs.count > limit {
            tagEpochs.removeAll(keepingCapacity: true)
            floor = epoch
        }
    }

    /// Records that everything is invalidated from now on (`removeAll`).
    mutating func invalidateAll() {
        epoch += 1
        tagEpochs.removeAll(keepingCapacity: true)
        floor = epoch
    }

    /// Whether an entry computed under `token` with `tags` may still be stored.
    func admits(_ token: CacheToken, tags: Set<String>) -> Bool {
        if token.epoch < floor { return false }
        for tag in tags {
            if let invalidated = tagEpochs[tag], invalidated > token.epoch { return false }
        }
        return true
    }
}
