import Synchronization

/// A bound on multipart requests being received at once.
///
/// Each upload holds a connection, a spool file and, while its mutation runs, the file's bytes;
/// without a bound a flood of signed-in uploads could hold all of them. A request that finds
/// every slot taken is refused at once with 503 and `Retry-After` rather than queued, so a
/// client retries instead of holding a connection open.
///
/// ```swift
/// guard slots.tryAcquire() else { throw GatewayHTTPError.tooManyUploads(limit: slots.limit) }
/// defer { slots.release() }
/// ```
final class UploadSlots: Sendable {
    let limit: Int
    private let inUse = Mutex(0)

    init(limit: Int) { self.limit = limit }

    /// Takes a slot if one is free.
    func tryAcquire() -> Bool {
        inUse.withLock { count in
            guard count < limit else { return false }
            count += 1
            return true
        }
    }

    /// Gives back a slot taken by ``tryAcquire()``.
    func release() {
        inUse.withLock { $0 -= 1 }
    }

    /// Slots taken now (metrics and tests).
    var current: Int { inUse.withLock { $0 } }
}
