import ArgumentParser
import Foundation
import GatewayAssembly

/// `social-gateway seed-postgres --database-url URL`: writes the load test's rows (the demo users
/// and the generated graph that `serve --bench-seed-profiles` puts in an embedded store) into a
/// PostgreSQL database that has the migrations and no profiles yet. Hidden: `scripts/load-test`
/// runs it (`STORE=postgres`), so that both stores are measured on the same rows.
struct SeedPostgresCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "seed-postgres",
        abstract: "Seed a PostgreSQL database with the load test's rows (for scripts/load-test).",
        shouldDisplay: false
    )

    @Option(name: .customLong("database-url"), help: ArgumentHelp("A superuser's URL (postgres://postgres@127.0.0.1:PORT/postgres).", valueName: "url"))
    var databaseURL: String

    @Option(help: "Generated profiles (user1...).")
    var profiles = 1000

    @Option(name: .customLong("follows-per-profile"), help: "Follows each generated profile makes.")
    var followsPerProfile = 50

    @Option(name: .customLong("posts-per-profile"), help: "Posts each generated profile has.")
    var postsPerProfile = 5

    func run() async throws {
        var hooks = LoadTestHooks()
        hooks.seedProfiles = profiles
        hooks.seedFollowsPerProfile = followsPerProfile
        hooks.seedPostsPerProfile = postsPerProfile
        do {
            let seeded = try await hooks.seedPostgres(adminURL: databaseURL)
            print("seeded \(seeded.profiles) profiles, \(seeded.follows) follows, \(seeded.posts) posts")
        } catch {
            FileHandle.standardError.write(Data("error: \(String(reflecting: error))\n".utf8))
            throw ExitCode(1)
        }
    }
}
