@testable import EmbeddedStore
import Foundation
import GRDB
import SocialDomain
import SocialFixtures
import Testing

@Suite("Embedded posts: the feed's plan")
struct PostPlanTests {
    @Test("the feed's statement walks posts_author_created_idx per source (EXPLAIN QUERY PLAN), never a scan of posts")
    func feedPlan() async throws {
        let store = try await EmbeddedStore.temporary(seedDemoData: true)
        let plan = try await store.pool.read { db in
            try Row.fetchAll(
                db, sql: "EXPLAIN QUERY PLAN " + EmbeddedStore.authorPostsSQL(forward: true, hasCursor: true),
                arguments: [nil, DemoData.aliceId.lowercased, Int64.max, "z", nil, 21]).map { $0["detail"] as String }
        }
        #expect(plan.contains { $0.contains("USING INDEX posts_author_created_idx") }, "\(plan)")
        #expect(!plan.contains { $0.hasPrefix("SCAN p") || $0.contains("USE TEMP B-TREE") }, "\(plan)")
    }
}
