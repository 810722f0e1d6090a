import Foundation
import GatewayTestSupport
import SocialDomain
import SocialFixtures
import Testing

/// Issue 54: every store keeps notifications as ``NotificationStore`` says: written with the
/// write that causes them, keyed as the live ones, the viewer's own only, marked read by key or
/// through a position, bounded per recipient.
@Suite("Store conformance: stored notifications (issue 54)")
struct NotificationStoreTests {
    static let post = DemoData.postId(4)

    @Test("issue 54: a like and a comment are stored for the post's author with the row's time, read as the recipient only",
          arguments: StoreKind.allCases)
    func writtenWithTheirWrite(_ kind: StoreKind) async throws {
        try await TestStore.run(kind) { store in
            let alice = store.viewer(DemoData.aliceId), bob = store.viewer(DemoData.bobId)
            #expect(try await store.stores.notifications.storedNotifications(since: 0, limit: 1_000, viewer: alice).isEmpty)
            _ = try await store.stores.posts.changeLike(postId: Self.post, action: .like, viewer: bob)
            let comment = try await store.stores.posts.addComment(postId: Self.post, content: "Where?", viewer: bob)
            _ = try await store.stores.posts.changeLike(postId: Self.post, action: .like, viewer: alice)  // her own: none
            let stored = try await store.stores.notifications.storedNotifications(since: 0, limit: 1_000, viewer: alice)
            #expect(stored.map(\.activity.kind) == [.commented, .liked])
            #expect(stored[0].activity == Activity(
                kind: .commented, actor: DemoData.bobId, subject: DemoData.aliceId, post: Self.post, comment: comment.id,
                at: comment.createdAtMicroseconds))
            #expect(stored.allSatisfy { !$0.isRead && $0.activity.subject == DemoData.aliceId })
            #expect(try await store.stores.notifications.storedNotifications(since: 0, limit: 1_000, viewer: bob).isEmpty)
            // limit and since
            #expect(try await store.stores.notifications.storedNotifications(since: 0, limit: 1, viewer: alice).map(\.key) == [stored[0].key])
            #expect(try await store.stores.notifications.storedNotifications(
                since: stored[0].activity.at + 1, limit: 1_000, viewer: alice).isEmpty)
            // marking: bob marks nothing of alice's; alice one, then through a position
            #expect(try await store.stores.notifications.markNotificationsRead(.one(key: stored[1].key), viewer: bob) == 0)
            #expect(try await store.stores.notifications.markNotificationsRead(.one(key: stored[1].key), viewer: alice) == 1)
            #expect(try await store.stores.notifications.markNotificationsRead(.through(stored[0].position), viewer: alice) == 1)
            let read = try await store.stores.notifications.storedNotifications(since: 0, limit: 1_000, viewer: alice)
            #expect(read.allSatisfy { $0.isRead })
            await #expect(throws: DomainError.self) {
                _ = try await store.stores.notifications.storedNotifications(since: 0, limit: 10, viewer: .anonymous)
            }
        }
    }

    @Test("issue 54: a recipient keeps at most NotificationRules.perRecipientLimit notifications, the newest",
          arguments: StoreKind.allCases)
    func boundedPerRecipient(_ kind: StoreKind) async throws {
        try await TestStore.run(kind) { store in
            let alice = store.viewer(DemoData.aliceId), bob = store.viewer(DemoData.bobId)
            // each like after an unlike is a new like, and a new notification
            let likes = NotificationRules.perRecipientLimit + 3
            for _ in 0..<likes {
                _ = try await store.stores.posts.changeLike(postId: Self.post, action: .like, viewer: bob)
                _ = try await store.stores.posts.changeLike(postId: Self.post, action: .unlike, viewer: bob)
            }
            let stored = try await store.stores.notifications.storedNotifications(since: 0, limit: 5_000, viewer: alice)
            #expect(stored.count == NotificationRules.perRecipientLimit)
            #expect(Set(stored.map(\.key)).count == stored.count)
            #expect(stored.map(\.position) == stored.map(\.position).sorted(by: >), "newest first")
        }
    }
}
