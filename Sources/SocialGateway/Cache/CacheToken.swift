/// Proof of when a computation started, relative to invalidations.
///
/// Take it with ``ResponseCaching/beginComputation()`` *before* executing the operation and
/// pass it to ``ResponseCaching/storeInBackground(_:body:etag:maxAge:tags:token:)``. The store refuses the
/// entry if any of its tags was invalidated after the token was taken: the response may have been
/// computed from data the invalidating mutation has since changed.
///
/// ```swift
/// let token = cache.beginComputation()
/// let result = try await execute(request)
/// await cache.store(key, body: result.bytes, maxAge: policy.maxAge, tags: result.tags, token: token)
/// ```
/// Its fields mean something only to the cache that issued it.
public struct CacheToken: Sendable, Hashable {
    /// The invalidation epoch current when the token was taken.
    public let epoch: UInt64
    /// The cache's generation shared between processes when the token was taken, if it has one.
    public let generation: UInt64?
    /// How many times the cache had advanced that generation itself by then.
    public let ownAdvances: UInt64

    public init(epoch: UInt64, generation: UInt64? = nil, ownAdvances: UInt64 = 0) {
        self.epoch = epoch
        self.generation = generation
        self.ownAdvances = ownAdvances
    }
}

