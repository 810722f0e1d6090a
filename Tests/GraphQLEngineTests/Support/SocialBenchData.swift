import GraphQLEngine

/// The deterministic 1,000-profile dataset of `shared/bench/social_data.md`
/// (`social_data.py` is the reference), with resolvers bound to
/// `social_schema.graphql`. Shared by the engine tests and Benchmarks/ (symlinked),
/// so the benchmark runs exactly what the tests check against the expected bytes.
final class SocialBenchData: Sendable {
    let n: Int
    let following: [[Int]]
    let followers: [[Int]]
    let viewer: Int
    let viewerFollowing: Set<Int>
    let profiles: [Profile]
    let byID: [String: Int]
    let byHandle: [String: Int]

    struct Profile: Sendable {
        let id: String
        let handle: String
        let displayName: String?
        let bio: String?
        let photoURL: String?
        let isPublic: Bool
        let followerCount: Int
        let followingCount: Int
        let createdAt: String
        let viewerIsFollowing: Bool
    }

    /// A profile by index: the parent value of Profile fields.
    struct ProfileRef: Sendable { let index: Int }
    /// A Relay-style slice of an index list.
    struct Connection: Sendable {
        let list: [Int]
        let start: Int
        let end: Int
    }
    struct Edge: Sendable {
        let position: Int
        let index: Int
    }

    init(n: Int = 1000, k: Int = 50, seed: UInt64 = 0x5EED) {
        var state = seed
        func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        var following: [[Int]] = []
        for i in 0..<n {
            var chosen: [Int] = []
            var seen = Set<Int>()
            while chosen.count < k {
                let j = Int(next() % UInt64(n))
                if j != i && !seen.contains(j) {
                    seen.insert(j)
                    chosen.append(j)
                }
            }
            following.append(chosen)
        }
        var followers = [[Int]](repeating: [], count: n)
        for i in 0..<n { for j in following[i] { followers[j].append(i) } }
        var best = 0
        for i in 0..<n where followers[i].count > followers[best].count { best = i }
        self.n = n
        self.following = following
        self.followers = followers
        self.viewer = best
        let viewerFollowing = Set(following[best])
        self.viewerFollowing = viewerFollowing
        func pad(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        profiles = (0..<n).map { i in
            let num = i + 1
            return Profile(
                id: "\(num)", handle: "user\(num)", displayName: i % 10 == 9 ? nil : "User \(num)",
                bio: i % 4 == 0 ? nil : "Hi, I'm user \(num). I like \"GraphQL\" & Swift.\n\tSecond line: caf\u{e9} \u{2713}",
                photoURL: i % 7 == 3 ? nil : "https://cdn.example.com/avatars/\(num).jpg", isPublic: i % 5 != 0,
                followerCount: followers[i].count, followingCount: following[i].count,
                createdAt: "2020-\(pad(1 + i % 12))-\(pad(1 + i % 28))T\(pad(i % 24)):\(pad(i % 60)):00Z",
                viewerIsFollowing: viewerFollowing.contains(i))
        }
        byID = Dictionary(uniqueKeysWithValues: profiles.enumerated().map { ($1.id, $0) })
        byHandle = Dictionary(uniqueKeysWithValues: profiles.enumerated().map { ($1.handle, $0) })
    }

    /// `after`: null or malformed -> 0; "cursor:<p>" -> p + 1; clamped to the list.
    static func connection(_ list: [Int], first: Int?, after: String?) -> Connection {
        var start = 0
        if let after, after.hasPrefix("cursor:"), let p = Int(after.dropFirst(7)) { start = p + 1 }
        start = min(max(start, 0), list.count)
        let count = max(first ?? 20, 0)
        return Connection(list: list, start: start, end: min(start + count, list.count))
    }

    /// The bench schema with every field bound to plain synchronous reads of this data.
    func bind(_ schema: GraphQLSchema) throws -> GraphQLSchema {
        var b = SchemaBinder(schema: schema)
        b.bindSync("Query", "viewer") { [self] _ in ProfileRef(index: viewer) }
        b.bindSync("Query", "profile") { [self] info in
            if let id = info.arguments.string("id"), let i = byID[id] { return ProfileRef(index: i) }
            if let handle = info.arguments.string("handle"), let i = byHandle[handle] { return ProfileRef(index: i) }
            return nil
        }
        b.bindSync("Query", "profiles") { [self] info in
            (info.arguments["ids"]?.arrayValue ?? []).map { id -> (any Sendable)? in
                id.stringValue.flatMap { byID[$0] }.map(ProfileRef.init)
            }
        }
        b.bindSync("Query", "searchProfiles") { [self] info in
            let query = info.arguments.string("query") ?? ""
            let matches = profiles.indices.filter { profiles[$0].handle.contains(query) }
            return Self.connection(matches, first: info.arguments.int("first"), after: info.arguments.string("after"))
        }
        b.bindSync("Mutation", "toggleFollow") { [self] info in
            info.arguments.string("profileId").flatMap { byID[$0] }.map(ProfileRef.init)
        }
        @Sendable func profile(_ info: ResolveInfo) throws -> Profile { profiles[try info.parent(as: ProfileRef.self).index] }
        b.bindSync("Profile", "id") { try profile($0).id }
        b.bindSync("Profile", "handle") { try profile($0).handle }
        b.bindSync("Profile", "displayName") { try profile($0).displayName }
        b.bindSync("Profile", "bio") { try profile($0).bio }
        b.bindSync("Profile", "photoURL") { try profile($0).photoURL }
        b.bindSync("Profile", "isPublic") { try profile($0).isPublic }
        b.bindSync("Profile", "followerCount") { try profile($0).followerCount }
        b.bindSync("Profile", "followingCount") { try profile($0).followingCount }
        b.bindSync("Profile", "createdAt") { try profile($0).createdAt }
        b.bindSync("Profile", "viewerIsFollowing") { try profile($0).viewerIsFollowing }
        b.bindSync("Profile", "followers") { [self] info in
            Self.connection(
                followers[try info.parent(as: ProfileRef.self).index], first: info.arguments.int("first"),
                after: info.arguments.string("after"))
        }
        b.bindSync("Profile", "following") { [self] info in
            Self.connection(
                following[try info.parent(as: ProfileRef.self).index], first: info.arguments.int("first"),
                after: info.arguments.string("after"))
        }
        b.bindSync("ProfileConnection", "edges") { info in
            let c = try info.parent(as: Connection.self)
            return (c.start..<c.end).map { Edge(position: $0, index: c.list[$0]) }
        }
        b.bindSync("ProfileConnection", "pageInfo") { try $0.parent(as: Connection.self) }
        b.bindSync("ProfileConnection", "totalCount") { try $0.parent(as: Connection.self).list.count }
        b.bindSync("ProfileEdge", "cursor") { "cursor:\(try $0.parent(as: Edge.self).position)" }
        b.bindSync("ProfileEdge", "node") { ProfileRef(index: try $0.parent(as: Edge.self).index) }
        b.bindSync("PageInfo", "hasNextPage") { let c = try $0.parent(as: Connection.self); return c.end < c.list.count }
        b.bindSync("PageInfo", "hasPreviousPage") { try $0.parent(as: Connection.self).start > 0 }
        b.bindSync("PageInfo", "startCursor") { let c = try $0.parent(as: Connection.self); return c.end > c.start ? "cursor:\(c.start)" : nil }
        b.bindSync("PageInfo", "endCursor") { let c = try $0.parent(as: Connection.self); return c.end > c.start ? "cursor:\(c.end - 1)" : nil }
        return try b.finish(requireAll: true)
    }
}
