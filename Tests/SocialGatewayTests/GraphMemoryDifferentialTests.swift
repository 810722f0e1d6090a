import Foundation
import GatewayTestSupport
import GraphQLEngine
import ResponseCache
import SocialDomain
import SocialFixtures
import SocialGateway
import Testing

/// Issue 53's proof that serving signed-in reads from memory leaks nothing: random viewers read
/// a generated graph (private profiles, pending and declined requests, blocks) through a service
/// with the graph in memory and the response cache on, and every answer must equal, byte for
/// byte, the same request through a service with neither, on the same store, with writes made
/// between the reads. The reference service reads every row as its viewer through the store's
/// own rule (SQL, row-level security on PostgreSQL).
///
/// A longer run with more steps: `GRAPH_MEMORY_DIFF_STEPS=20000 swift test --filter GraphMemoryDifferential`.
@Suite("Graph memory: cache on and off give the same answers")
struct GraphMemoryDifferentialTests {
    static let card = """
        query Card($h: String!, $n: Int) { profile(handle: $h) { id handle displayName bio isPublic followerCount followingCount
          viewerIsFollowing followsViewer viewerCanSeeDetails viewerFollowRequestStatus
          followers(first: $n) { totalCount pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
            edges { cursor node { id handle isPublic viewerIsFollowing followsViewer } } }
          following(first: $n) { totalCount pageInfo { hasNextPage endCursor } nodes { handle viewerIsFollowing followsViewer } } } }
        """
    /// A card every viewer with the same view of it shares (``SharedCardShape``: only the listed
    /// profiles' card fields), keyed by what memory says the viewer sees (audience cards).
    static let sharedCard = """
        query SharedCard($h: String!, $n: Int = 3, $c: String) { profile(handle: $h) { id handle displayName bio isPublic
          followerCount followingCount viewerIsFollowing followsViewer
          followers(first: $n) { totalCount edges { cursor followedAt node { id handle displayName isPublic } } pageInfo { hasNextPage endCursor } }
          following(first: 2, after: $c) { totalCount pageInfo { hasNextPage endCursor } edges { node { handle avatarURL } } } } }
        """
    static let after = """
        query After($h: String!, $n: Int, $c: String) { profile(handle: $h) {
          followers(first: $n, after: $c) { totalCount pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
            edges { cursor node { handle viewerIsFollowing followsViewer } } } } }
        """
    static let before = """
        query Before($h: String!, $n: Int, $c: String) { profile(handle: $h) {
          followers(last: $n, before: $c) { totalCount pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
            edges { cursor node { handle viewerIsFollowing followsViewer } } } } }
        """
    static let last = """
        query Last($h: String!, $n: Int) { profile(handle: $h) {
          following(last: $n) { totalCount pageInfo { hasNextPage hasPreviousPage } edges { cursor node { handle isPublic } } } } }
        """
    static let graph = """
        query Graph($h: String!) { profile(handle: $h) { handle followers(first: 6) { nodes { handle viewerIsFollowing
          following(first: 4) { totalCount nodes { handle viewerIsFollowing followsViewer viewerCanSeeDetails bio } } } } } }
        """
    static let batch = """
        query Batch($ids: [ID!]!, $id: ID!) { profiles(ids: $ids) { handle isPublic bio viewerIsFollowing }
          node(id: $id) { ... on Profile { handle viewerFollowRequestStatus } } }
        """

    static var steps: Int { ProcessInfo.processInfo.environment["GRAPH_MEMORY_DIFF_STEPS"].flatMap(Int.init) ?? 1_500 }

    @Test("random viewers, reads and writes on a generated graph: every answer with memory and the cache equals the store's own", arguments: StoreKind.allCases.filter { $0 != .supabase })
    func sameAnswers(_ kind: StoreKind) async throws {
        try await TestStore.run(kind, seed: .loadTest(profiles: 40, followsPerProfile: 6)) { store in
            #expect(store.stores.snapshots != nil, "\(kind) reads the graph unfiltered")
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("memory-diff-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: directory) }
            var memoryOptions = GatewayOptions()
            memoryOptions.graphMemory = GraphMemory.Limits(maxProfiles: 30, maxLists: 20, maxViewers: 8, listPrefix: 5)
            memoryOptions.cache = ResponseCacheStore.open(path: directory.appendingPathComponent("cache.sqlite"))
            memoryOptions.rateLimiter = nil
            var referenceOptions = GatewayOptions()
            referenceOptions.rateLimiter = nil
            let withMemory = try GatewayService(stores: store.stores, options: memoryOptions)
            let reference = try GatewayService(stores: store.stores, options: referenceOptions)
            #expect(withMemory.memory != nil)

            var random = SplitMix(seed: 53)
            let graph = LoadTestGraph(profiles: 40, followsPerProfile: 6)
            let ids = graph.profileIds.compactMap(UUID.init(uuidString:))
            let handles = (1...40).map { "user\($0)" } + ["nobody_here"]
            let viewers: [Viewer] = [.anonymous] + ids.prefix(24).map { store.viewer($0) }
            var compared = 0, differences: [String] = []
            var asked: [GatewayRequest] = []

            func compare(_ request: GatewayRequest) async {
                let expected = await reference.execute(request)
                let got = await withMemory.execute(request)
                compared += 1
                if got.body != expected.body, Self.errorsInOrder(got.body) != Self.errorsInOrder(expected.body), differences.count < 5 {
                    differences.append("""
                        \(request.viewer.userId?.lowercased ?? "anonymous") \(request.query ?? "") \(request.variables)
                          memory:    \(String(decoding: got.body, as: UTF8.self))
                          reference: \(String(decoding: expected.body, as: UTF8.self))
                        """)
                }
            }
            func read(_ query: String, _ variables: JSONObject, _ viewer: Viewer) async {
                let request = GatewayRequest(query: query, variables: variables, viewer: viewer)
                asked.append(request)
                await compare(request)
            }
            func write(_ mutation: String, _ variables: JSONObject, _ viewer: Viewer) async {
                _ = await withMemory.execute(GatewayRequest(query: mutation, variables: variables, viewer: viewer))
            }
            func cursor(_ answer: GatewayResponse) -> String? {
                (try? JSONParser.parse(answer.body))?["data"]?["profile"]?["followers"]?["pageInfo"]?["endCursor"]?.stringValue
            }

            for _ in 0..<Self.steps {
                let viewer = viewers[random.below(viewers.count)]
                let handle = handles[random.below(handles.count)]
                let other = ids[random.below(ids.count)]
                let n = JSONValue.int(1 + random.below(4))
                switch random.below(100) {
                case 0..<8 where viewer.userId != nil:
                    await write("mutation($id: ID!) { toggleFollow(profileId: $id) { following requestStatus } }", ["id": .string(other.lowercased)], viewer)
                case 8..<11 where viewer.userId != nil:
                    await write("mutation($id: ID!) { block(profileId: $id) { blocked } }", ["id": .string(other.lowercased)], viewer)
                case 11..<14 where viewer.userId != nil:
                    await write("mutation($id: ID!) { unblock(profileId: $id) { blocked } }", ["id": .string(other.lowercased)], viewer)
                case 14..<17 where viewer.userId != nil:
                    await write("mutation($p: Boolean) { updateProfile(input: { isPublic: $p }) { profile { isPublic } } }", ["p": .bool(random.below(2) == 0)], viewer)
                case 17..<20 where viewer.userId != nil:
                    // The viewer answers one of the requests waiting for them, if any.
                    let waiting = await reference.execute(GatewayRequest(
                        query: "{ followRequests(first: 3) { edges { node { requester { id } } } } }", viewer: viewer))
                    let requesters = ((try? JSONParser.parse(waiting.body))?["data"]?["followRequests"]?["edges"]?.arrayValue ?? [])
                        .compactMap { $0["node"]?["requester"]?["id"]?.stringValue }
                    if let requester = requesters.first {
                        let verb = random.below(3) == 0 ? "declineFollowRequest" : "approveFollowRequest"
                        await write("mutation($id: ID!) { \(verb)(profileId: $id) { approved } }", ["id": .string(requester)], viewer)
                    }
                case 20..<22 where viewer.userId != nil:
                    await write("mutation($b: String) { updateProfile(input: { bio: $b }) { profile { bio } } }", ["b": .string("bio \(random.below(1000))")], viewer)
                case 22..<35 where !asked.isEmpty:
                    // Asked again: the second asking is kept by the response cache, the third hits.
                    let again = asked[random.below(asked.count)]
                    await compare(again)
                    await compare(again)
                case 35..<45:
                    await read(Self.card, ["h": .string(handle), "n": n], viewer)
                case 45..<55:
                    // The same card by two viewers in a row: the second finds the first's answer
                    // when both see the same of it, and must not when they do not.
                    let variables: JSONObject = random.below(2) == 0 ? ["h": .string(handle)] : ["h": .string(handle), "n": n]
                    await read(Self.sharedCard, variables, viewer)
                    await read(Self.sharedCard, variables, viewers[random.below(viewers.count)])
                case 55..<65:
                    let first = await reference.execute(GatewayRequest(query: Self.card, variables: ["h": .string(handle), "n": n], viewer: viewer))
                    if let c = cursor(first) {
                        await read(Self.after, ["h": .string(handle), "n": n, "c": .string(c)], viewer)
                        await read(Self.before, ["h": .string(handle), "n": n, "c": .string(c)], viewer)
                    }
                case 65..<72:
                    await read(Self.last, ["h": .string(handle), "n": n], viewer)
                case 72..<85:
                    await read(Self.graph, ["h": .string(handle)], viewer)
                default:
                    let some = (0..<(1 + random.below(5))).map { _ in JSONValue.string(ids[random.below(ids.count)].lowercased) }
                    await read(Self.batch, ["ids": .array(some), "id": .string(other.lowercased)], viewer)
                }
            }
            #expect(differences.isEmpty, "\(differences.count) of \(compared) answers differ:\n\(differences.joined(separator: "\n"))")
            #expect(compared > Self.steps / 2)
            let statistics = try #require(withMemory.memory?.statistics)
            #expect(statistics.counters.hits[.profiles, default: 0] > 0, "memory answered nothing: the test proves nothing")
            #expect(statistics.evictions > 0, "memory never reached its bounds")
        }
    }
}

extension GraphMemoryDifferentialTests {
    /// The answer with its errors sorted by path and message: the order in which field errors
    /// are listed follows the order their resolvers finished (memory answers at once, a store
    /// later), which the specification leaves open (§7.1.6 Errors); everything else must be equal.
    static func errorsInOrder(_ body: [UInt8]) -> Data? {
        guard var object = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any] else { return nil }
        if let errors = object["errors"] as? [[String: Any]] {
            object["errors"] = errors.sorted { "\($0["path"] ?? "") \($0["message"] ?? "")" < "\($1["path"] ?? "") \($1["message"] ?? "")" }
        }
        return try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
    }
}

/// A small deterministic generator (SplitMix64), so a failure replays.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func below(_ n: Int) -> Int { Int(next() % UInt64(max(n, 1))) }
}
