import Foundation
import GRDB
import Logging
import Synchronization

// Write failures (a full disk, an I/O error): logged once, lookups off when correctness needs it.
extension ResponseCacheStore {
    // MARK: Write failures (a full disk, an I/O error)

    /// Counts a failed write (with `lookupsOff`, one that leaves entries that should be gone:
    /// lookups stop, in every process on the file), and logs it if it is the first since the last
    /// success or the one that turns lookups off: on a full disk every request would otherwise
    /// log the same line.
    func writeFailed(_ what: String, error: any Error, lookupsOff: Bool = false) {
        let first = state.withLock { state -> Bool in
            state.counters.writeFailures += 1
            let news = !state.writesFailing || (lookupsOff && !state.invalidationFailed)
            state.writesFailing = true
            if lookupsOff { state.invalidationFailed = true }
            return news
        }
        if lookupsOff { generation?.isPoisoned = true }
        guard first else { return }
        let message: Logger.Message =
            lookupsOff
            ? "response cache \(what) failed; lookups off until the cache file can be cleared (retried in the background)"
            : "response cache writes failing; requests are served without storing their answers"
        logger.log(level: lookupsOff ? .error : .warning, message, metadata: ["error": "\(error)"])
    }

    func writeSucceeded() {
        let recovered = state.withLock { state -> Bool in
            defer { state.writesFailing = false }
            return state.writesFailing
        }
        if recovered { logger.notice("response cache writes work again") }
    }

    /// With lookups off after a failed invalidation, starts a background ``removeAll()`` if none
    /// was started within ``ResponseCacheOptions/recoveryInterval``.
    func startRecoveryIfDue() {
        let now = Date().timeIntervalSince1970
        let due = state.withLock { state -> Bool in
            guard now - state.lastRecoveryAttempt >= options.recoveryInterval else { return false }
            state.lastRecoveryAttempt = now
            return true
        }
        if due { Task { await self.removeAll() } }
    }
}
