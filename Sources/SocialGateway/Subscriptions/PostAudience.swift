import Foundation
import SocialDomain
import Synchronization

/// Who may read one written post, read once for every subscriber of its fan-out (issue 53): the
/// author's followers and the profiles in a block with the author, and whether the author is
/// public, straight from the graph (``SocialDomain/GraphSnapshotStore``). Each subscriber is then
/// admitted by the domain's rule (``EventAdmission``) with two set lookups, not a store read.
///
/// A read is kept only while no write has changed the author's relations since it began
/// (``SubscriptionHub/audienceTickets``, the change stream's typed changes): a subscriber whose
/// delivery comes after an unfollow or a block is admitted from a fresh read.
///
/// ```swift
/// let audience = PostAudience(author: activity.actor)
/// let known = await audience.value(isFresh: hub.isFresh) { await hub.readAudience(of: author) }
/// ```
final class PostAudience: Sendable {
    /// What was read of the author.
    enum Known: Sendable {
        /// The author's visibility, followers and blocks either way, read under `ticket`.
        case relations(isPublic: Bool, followers: Set<UUID>, blocks: Set<UUID>, ticket: FillTickets.Ticket)
        /// More followers than ``SubscriptionLimits/sharedAudienceMax``, or the author is gone:
        /// each subscriber is answered on their own.
        case unknown(ticket: FillTickets.Ticket)

        var ticket: FillTickets.Ticket {
            switch self {
            case .relations(_, _, _, let ticket), .unknown(let ticket): ticket
            }
        }
    }

    private enum State {
        case empty
        case reading([CheckedContinuation<Known?, Never>])
        case read(Known)
    }

    let author: UUID
    private let state = Mutex(State.empty)

    init(author: UUID) { self.author = author }

    /// What is known of the author, read by the first caller (others wait for it); a kept read
    /// that `isFresh` refuses is read again. Nil when the read failed (the store is down).
    func value(isFresh: (FillTickets.Ticket) -> Bool, read: () async -> Known?) async -> Known? {
        enum Role { case ready(Known), read, wait }
        let role = state.withLock { state -> Role in
            switch state {
            case .read(let known) where isFresh(known.ticket): return .ready(known)
            case .empty, .read:
                state = .reading([])
                return .read
            case .reading: return .wait
            }
        }
        switch role {
        case .ready(let known):
            return known
        case .read:
            let known = await read()
            let waiters = state.withLock { state -> [CheckedContinuation<Known?, Never>] in
                defer { state = known.map { .read($0) } ?? .empty }
                if case .reading(let waiters) = state { return waiters }
                return []
            }
            for waiter in waiters { waiter.resume(returning: known) }
            return known
        case .wait:
            return await withCheckedContinuation { continuation in
                let ready = state.withLock { state -> Known?? in
                    switch state {
                    case .reading(var waiters):
                        waiters.append(continuation)
                        state = .reading(waiters)
                        return nil
                    case .read(let known): return .some(known)
                    case .empty: return .some(nil)
                    }
                }
                if let ready { continuation.resume(returning: ready) }
            }
        }
    }
}
