import Foundation
import GRDB
import Testing
@testable import EmbeddedStore
import SocialDomain

/// The embedded migrations are frozen SQL (their bounds literal numbers, not today's Swift
/// constants), so nothing ties them to the domain's limits but these checks: each table admits
/// a row at every limit the domain allows, with the longest text the domain lets through (its
/// characters times ``UpdateProfile/maxBytesPerCharacter`` bytes). A limit raised in the domain
/// fails here until a new migration widens the table.
@Suite("embedded schema: each table admits the domain's limits")
struct EmbeddedSchemaTests {
    static let owner = "a11ce000-0000-4000-8000-000000000001"

    /// A database with every migration applied and one profile.
    static func database() throws -> DatabaseQueue {
        let queue = try DatabaseQueue()
        try EmbeddedSchema.migrator.migrate(queue)
        try queue.write { db in
            try db.execute(
                sql: "INSERT INTO profiles (id, handle, created_at, updated_at) VALUES (?, 'alice_wonder', 0, 0)", arguments: [owner])
        }
        return queue
    }

    /// `characters` characters' worth of the domain's byte bound, all in ASCII (one byte each).
    static func longest(_ characters: Int) -> String {
        String(repeating: "a", count: characters * UpdateProfile.maxBytesPerCharacter)
    }

    @Test("profiles: display name, bio, home gym, favorite style at the domain's longest, and a handle of the rule's longest")
    func profiles() throws {
        let db = try Self.database()
        try db.write { db in
            try db.execute(
                sql: "UPDATE profiles SET display_name = ?, bio = ?, home_gym = ?, favorite_style = ? WHERE id = ?",
                arguments: [
                    Self.longest(UpdateProfile.maxDisplayNameLength), Self.longest(UpdateProfile.maxBioLength),
                    Self.longest(UpdateProfile.maxTextLength), Self.longest(UpdateProfile.maxTextLength), Self.owner,
                ])
            let handle = "h" + String(repeating: "_", count: HandleRule.maxLength - 1)
            try db.execute(
                sql: "INSERT INTO profiles (id, handle, created_at, updated_at) VALUES (?, ?, 0, 0)",
                arguments: ["b0b00000-0000-4000-8000-000000000002", handle])
            #expect(try String.fetchOne(db, sql: "SELECT bio FROM profiles WHERE id = ?", arguments: [Self.owner])?.count
                == UpdateProfile.maxBioLength * UpdateProfile.maxBytesPerCharacter)
        }
    }

    @Test("profile_private: both grade scales at the domain's longest")
    func ownerDetails() throws {
        let db = try Self.database()
        try db.write { db in
            try db.execute(
                sql: """
                    INSERT INTO profile_private (id, preferred_grade_scale_boulder, preferred_grade_scale_route, updated_at)
                    VALUES (?, ?, ?, 0)
                    """,
                arguments: [Self.owner, Self.longest(UpdateProfile.maxGradeScaleLength), Self.longest(UpdateProfile.maxGradeScaleLength)])
        }
    }

    @Test("posts and comments: the longest content and the most image links the domain allows")
    func postsAndComments() throws {
        let db = try Self.database()
        let post = "00000000-0000-4000-8000-000000000001"
        let images = (0..<PostRules.maxImages).map { "https://img.example/\($0).jpg" }
        let imagesJSON = String(decoding: try JSONEncoder().encode(images), as: UTF8.self)
        try db.write { db in
            try db.execute(
                sql: "INSERT INTO posts (id, author_id, content, image_urls, created_at, updated_at) VALUES (?, ?, ?, ?, 0, 0)",
                arguments: [post, Self.owner, Self.longest(PostRules.maxContentLength), imagesJSON])
            try db.execute(
                sql: "INSERT INTO comments (id, post_id, author_id, content, created_at) VALUES (?, ?, ?, ?, 0)",
                arguments: ["00000000-0000-4000-8000-000000000002", post, Self.owner, Self.longest(PostRules.maxCommentLength)])
        }
    }

    @Test("stories: a story lives exactly the domain's lifetime")
    func stories() throws {
        let db = try Self.database()
        try db.write { db in
            try db.execute(
                sql: """
                    INSERT INTO stories (id, author_id, media_url, media_path, media_type, created_at, expires_at)
                    VALUES ('00000000-0000-4000-8000-000000000003', ?, 'u', 'p', 'image', 0, ?)
                    """,
                arguments: [Self.owner, Story.lifetimeMicroseconds])
        }
    }

    @Test("the migrations are literal SQL: their text does not move with the domain's constants")
    func frozen() throws {
        // Every registered migration's SQL is a literal; this pins v2's and v6's bounds as applied.
        #expect(EmbeddedSchema.v2.contains("length(CAST(bio AS BLOB)) <= 8960"))
        #expect(EmbeddedSchema.v6.contains("length(CAST(content AS BLOB)) BETWEEN 1 AND 64000"))
        #expect(EmbeddedSchema.v5.contains("length(CAST(preferred_grade_scale_route AS BLOB)) <= 640"))
    }
}
