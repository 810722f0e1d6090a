@testable import EmbeddedStore
import Foundation
import GRDB
import SocialDomain
import SocialFixtures
import Testing

/// The embedded search's statements read indexes (issue 51): before, every search scanned
/// `profiles` and lower-cased both texts of each row in Swift.
@Suite("Embedded search: the indexes' plans and what they hold (issue 51)")
struct ProfileSearchPlanTests {
    /// `EXPLAIN QUERY PLAN` of one of ``ProfileSearchQuery``'s statements: each row's detail.
    static func plan(_ store: EmbeddedStore, _ sql: String) async throws -> [String] {
        try await store.pool.read { db in
            let arguments: [String: (any DatabaseValueConvertible)?] = [
                "q": "bob", "viewer": DemoData.aliceId.lowercased, "limit": 21, "afterHandle": "bob_builder",
                "afterId": DemoData.bobId.lowercased, "match": "\"bob\"", "cap": 201,
            ]
            return try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + sql, arguments: StatementArguments(arguments))
                .map { $0["detail"] as String }
        }
    }

    /// No statement reads `profiles` but by its key, nor `profile_search` whole.
    static func expectNoScan(_ plan: [String], sourceLocation: SourceLocation = #_sourceLocation) {
        let scans = ["p", "profiles", "s", "profile_search"].map { "SCAN \($0)" }
        #expect(!plan.contains { detail in scans.contains { detail == $0 || detail.hasPrefix($0 + " ") } },
                "\(plan)", sourceLocation: sourceLocation)
        #expect(plan.contains { $0.contains("SEARCH p USING INDEX sqlite_autoindex_profiles_1 (id=?)") },
                "\(plan)", sourceLocation: sourceLocation)
    }

    @Test("a search of 3+ characters asks the trigram index, then reads each candidate by its key (EXPLAIN QUERY PLAN)")
    func trigramPlan() async throws {
        let store = try await EmbeddedStore.temporary(seedDemoData: true)
        let count = try await Self.plan(store, ProfileSearchQuery.trigramCountSQL)
        #expect(count.contains { $0.contains("SCAN profile_search_trigrams VIRTUAL TABLE INDEX") && $0.contains(":M") }, "\(count)")
        let sorted = try await Self.plan(store, ProfileSearchQuery.trigramSortedSQL)
        #expect(sorted.contains { $0.contains("SCAN profile_search_trigrams VIRTUAL TABLE INDEX") }, "\(sorted)")
        #expect(sorted.contains { $0.contains("SEARCH s USING INTEGER PRIMARY KEY (rowid=?)") }, "\(sorted)")
        Self.expectNoScan(sorted)
    }

    @Test("a 2-character search asks the bigram table by its key (EXPLAIN QUERY PLAN)")
    func bigramPlan() async throws {
        let store = try await EmbeddedStore.temporary(seedDemoData: true)
        for sql in [ProfileSearchQuery.bigramCountSQL, ProfileSearchQuery.bigramSortedSQL] {
            let plan = try await Self.plan(store, sql)
            #expect(plan.contains { $0.contains("SEARCH profile_search_bigrams USING PRIMARY KEY (gram=?)") }, "\(plan)")
        }
        Self.expectNoScan(try await Self.plan(store, ProfileSearchQuery.bigramSortedSQL))
    }

    @Test("the exact and prefix ranks, and a common query's walk, read ranges of the order index (EXPLAIN QUERY PLAN)")
    func orderIndexPlan() async throws {
        let store = try await EmbeddedStore.temporary(seedDemoData: true)
        let ranges = [
            (ProfileSearchQuery.prefixSQL, "(handle_key>? AND handle_key<?)"),
            (ProfileSearchQuery.prefixAfterSQL, "((handle_key,profile_id)>(?,?) AND handle_key<?)"),
            (ProfileSearchQuery.walkBelowSQL, "(handle_key<?)"),
            (ProfileSearchQuery.walkBelowAfterSQL, "((handle_key,profile_id)>(?,?) AND handle_key<?)"),
            (ProfileSearchQuery.walkAboveSQL, "(handle_key>?)"),
            (ProfileSearchQuery.walkAboveAfterSQL, "((handle_key,profile_id)>(?,?))"),
        ]
        for (sql, range) in ranges {
            let plan = try await Self.plan(store, sql)
            #expect(plan.contains { $0.contains("SEARCH s USING COVERING INDEX profile_search_order_idx ") }, "\(plan)")
            #expect(plan.contains { $0.hasSuffix(range) }, "\(range): \(plan)")
            Self.expectNoScan(plan)
        }
    }

    @Test("the search tables hold public profiles only, lower-cased, and follow edits, privacy and renames")
    func indexFollowsWrites() async throws {
        let f = try await StoreFixture.make(demo: false)
        let zed = try await f.create("Zed_climber", displayName: "ZED Élan")
        let hidden = try await f.create("hidden_one", displayName: "Hidden", isPublic: false)
        func rows() async throws -> [String] {
            try await f.store.pool.read { db in
                try String.fetchAll(db, sql: "SELECT handle_key || '|' || name_key FROM profile_search ORDER BY handle_key")
            }
        }
        func grams(_ handle: String) async throws -> Int {
            try await f.store.pool.read { db in
                try Int.fetchOne(db, sql: """
                    SELECT count(*) FROM profile_search_bigrams b JOIN profile_search s ON s.key = b.key WHERE s.handle_key = ?
                    """, arguments: [handle]) ?? 0
            }
        }
        #expect(try await rows() == ["zed_climber|zed élan"])
        // "zed_climber" and "zed élan" have 10 + 7 pairs, "ze" and "ed" in both.
        #expect(try await grams("zed_climber") == 15)
        _ = try await f.update(zed) { $0.displayName = .set("Yan") }
        _ = try await f.update(hidden) { $0.isPublic = .set(true) }
        #expect(try await rows() == ["hidden_one|hidden", "zed_climber|yan"])
        _ = try await f.update(zed) { $0.handle = .set("yan_z"); $0.isPublic = .set(false) }
        #expect(try await rows() == ["hidden_one|hidden"])
        #expect(try await grams("zed_climber") == 0)
        let trigrams = try await f.store.pool.read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM profile_search_trigrams WHERE profile_search_trigrams MATCH '\"climb\"'") ?? 0
        }
        #expect(trigrams == 0)
        let search = SearchProfiles(profiles: f.store)
        #expect(try await search.execute(query: "yan", first: nil, after: nil, viewer: StoreFixture.reader).edges.isEmpty)
        #expect(try await search.execute(query: "dd", first: nil, after: nil, viewer: StoreFixture.reader)
            .edges.map(\.profile.handle) == ["hidden_one"])
    }

    @Test("quotes and FTS5's operators in a query are only characters; a query with a NUL matches nothing (no stored text holds one)")
    func queryIsText() async throws {
        let f = try await StoreFixture.make(demo: false)
        try await f.create("quoter", displayName: #"Say "hi" NEAR* ^x"#)
        try await f.create("plain", displayName: "hi there")
        let search = SearchProfiles(profiles: f.store)
        func handles(_ query: String) async throws -> [String] {
            try await search.execute(query: query, first: nil, after: nil, viewer: StoreFixture.reader).edges.map(\.profile.handle)
        }
        #expect(try await handles(#""hi""#) == ["quoter"])
        #expect(try await handles(#""h"#) == ["quoter"])
        #expect(try await handles("near* ^") == ["quoter"])
        #expect(try await handles("hi") == ["plain", "quoter"])
        #expect(try await handles("h\u{0}i").isEmpty)
    }

    @Test("a database from before the search indexes has them filled by the migration: public profiles only")
    func migrationFillsTheIndexes() throws {
        let queue = try DatabaseQueue()
        try EmbeddedSchema.migrator.migrate(queue, upTo: "v12_blocks_blocked_index")
        try queue.write { db in
            for (id, handle, name, isPublic) in [("1", "Old_Timer", "Ölaf Old", 1), ("2", "secret_one", "Hidden", 0), ("3", "no_name", nil, 1)] {
                try db.execute(
                    sql: "INSERT INTO profiles (id, handle, display_name, is_public, created_at, updated_at) VALUES (?, ?, ?, ?, 0, 0)",
                    arguments: ["0000000\(id)-0000-4000-8000-000000000000", handle, name, isPublic])
            }
        }
        try EmbeddedSchema.migrator.migrate(queue)
        let (rows, trigrams, bigrams) = try queue.read { db in
            (try String.fetchAll(db, sql: "SELECT handle_key || '|' || name_key FROM profile_search ORDER BY handle_key"),
             try Int.fetchOne(db, sql: "SELECT count(*) FROM profile_search_trigrams WHERE profile_search_trigrams MATCH '\"laf o\"'"),
             try Int.fetchOne(db, sql: "SELECT count(*) FROM profile_search_bigrams WHERE gram = 'öl'"))
        }
        #expect(rows == ["no_name|", "old_timer|ölaf old"])
        #expect(trigrams == 1)
        #expect(bigrams == 1)
    }

    @Test("a display name at the byte bound that lowercasing lengthens (800 × İ: 1,600 code points lowered) is indexed whole")
    func lowercasingLengthens() async throws {
        let f = try await StoreFixture.make(demo: false)
        try await f.create("dotted_i", displayName: String(repeating: "İ", count: 800))
        let length = try await f.store.pool.read { db in
            try Int.fetchOne(db, sql: "SELECT length(name_key) FROM profile_search WHERE handle_key = 'dotted_i'")
        }
        #expect(length == 1600)
        let search = SearchProfiles(profiles: f.store)
        #expect(try await search.execute(query: "\u{307}i", first: nil, after: nil, viewer: StoreFixture.reader)
            .edges.map(\.profile.handle) == ["dotted_i"])
    }

    @Test("a display name of 50 characters and 1,460 bytes (755 code points) is indexed to its end: its last pair and triples are found")
    func longestName() async throws {
        let f = try await StoreFixture.make(demo: false)
        // 47 characters of an "e" with 15 acute accents (31 bytes, 16 code points each), then "xqz".
        let name = String(repeating: "e" + String(repeating: "\u{301}", count: 15), count: 47) + "xqz"
        #expect(name.count <= 50)
        #expect(name.utf8.count <= 1600)
        try await f.create("long_name", displayName: name)
        let search = SearchProfiles(profiles: f.store)
        for query in ["qz", "xqz", "\u{301}xq"] {
            #expect(try await search.execute(query: query, first: nil, after: nil, viewer: StoreFixture.reader)
                .edges.map(\.profile.handle) == ["long_name"], "\(query)")
        }
    }
}
