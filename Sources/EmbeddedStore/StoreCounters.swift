import Foundation
import Synchronization

/// The port operations the store counts, one per method of the ports.
public enum StoreOperation: String, Sendable, CaseIterable {
    case profilesByID, profilesByHandle, handleTaken, searchProfiles, updateProfile, ownerDetails
    case followPages, followChanges, activeFollows, changeFollow
    case pendingFollowRequests, followRequestPage, sentFollowRequestPage, answerFollowRequest, changeBlock, blockedProfilePage
    case putAvatar, deleteAvatar
    case postsByID, postPages, commentsByID, commentPages, likerPages, createPost, updatePost, deletePost, toggleLike, addComment
    case deleteComment
    case activeStories, storiesByID, ownActiveStoryExpiries, createStory, putStoryMedia, deleteStoryMedia, putPostImage, deletePostImage
    case followedByViewerFollowing, suggestedProfiles, viewerRelation
    case snapshotProfiles, followListSnapshots, viewerFacts
    case signUp, signIn, refresh, signOut, passwordReset, account, updateSettings, changePassword
    case storedNotifications, markNotificationsRead
}

/// Thread-safe call and statement counters.
final class StoreCounters: Sendable {
    private struct Counts {
        var calls: [String: Int] = [:]
        var statements = 0
    }
    private let counts = Mutex(Counts())

    func countCall(_ operation: StoreOperation) {
        counts.withLock { $0.calls[operation.rawValue, default: 0] += 1 }
    }

    /// Counts a traced statement unless it is transaction control, a pragma, a trigger step or
    /// GRDB's format check when it opens a connection (`SELECT * FROM sqlite_master LIMIT 1`).
    func countStatement(_ sql: String) {
        if sql.contains("sqlite_master") { return }
        let head = sql.prefix(10).uppercased()
        for skipped in ["BEGIN", "COMMIT", "ROLLBACK", "SAVEPOINT", "RELEASE", "PRAGMA", "--"] where head.hasPrefix(skipped) {
            return
        }
        counts.withLock { $0.statements += 1 }
    }

    func calls() -> [String: Int] { counts.withLock { $0.calls } }
    func statements() -> Int { counts.withLock { $0.statements } }
    func reset() {
        counts.withLock { $0 = Counts() }
    }
}
