import EmbeddedStore
import Foundation
import GatewayServer
import GatewayTestSupport
import Hummingbird
import HummingbirdTesting
import SocialFixtures
import Testing

/// Every query and mutation of schema.graphql, and the domain's error codes, over a real socket.
@Suite("End to end over HTTP, on each store")
struct EndToEndTests {
    static let alice = DemoData.aliceId.uuidString.lowercased()
    static let bob = DemoData.bobId.uuidString.lowercased()
    static let carol = DemoData.carolId.uuidString.lowercased()

    static func post(
        _ client: some TestClientProtocol, _ query: String, _ variables: [String: Any] = [:], authorization: String? = nil
    ) async throws -> TestResponse {
        try await client.execute(
            uri: "/graphql", method: .post, headers: .graphQL(authorization: authorization),
            body: GraphQLBody.json(query, variables: variables))
    }

    @Test("Query.profile, profiles, profilesByHandle, node and searchProfiles answer over a real socket", arguments: StoreKind.allCases)
    func queries(_ kind: StoreKind) async throws {
        try await TestGateway.run(kind) { gateway in
            let bob = try await gateway.bearer("bob_builder")
            try await gateway.test(.live) { client in
                var response = try await Self.post(client, "query($h: String!) { profile(handle: $h) { id handle followerCount followingCount } }", ["h": "alice_wonder"])
                #expect(response.text == #"{"data":{"profile":{"id":"\#(Self.alice)","handle":"alice_wonder","followerCount":2,"followingCount":2}}}"#)
                response = try await Self.post(client, "query($id: ID!) { profile(id: $id) { handle } }", ["id": Self.bob])
                #expect(response.text == #"{"data":{"profile":{"handle":"bob_builder"}}}"#)
                response = try await Self.post(client, "query($ids: [ID!]!) { profiles(ids: $ids) { handle } }", ["ids": [Self.carol, "00000000-0000-4000-8000-000000000009", Self.alice]])
                let missingInList = response.text
                response = try await Self.post(client, "{ profilesByHandle(handles: [\"bob_builder\", \"nobody_here\"]) { handle } }")
                let missingHandle = response.text
                #expect(missingInList == #"{"data":{"profiles":[{"handle":"carol_creator"},null,{"handle":"alice_wonder"}]}}"#)
                #expect(missingHandle == #"{"data":{"profilesByHandle":[{"handle":"bob_builder"},null]}}"#)
                #expect(missingInList.hasSuffix(#""data":{"profiles":[{"handle":"carol_creator"},null,{"handle":"alice_wonder"}]}}"#))
                #expect(missingHandle.hasSuffix(#""data":{"profilesByHandle":[{"handle":"bob_builder"},null]}}"#))
                response = try await Self.post(client, "query($id: ID!) { node(id: $id) { id ... on Profile { handle } } }", ["id": Self.carol])
                #expect(response.text == #"{"data":{"node":{"id":"\#(Self.carol)","handle":"carol_creator"}}}"#)
                // Search and follower lists need a signed-in viewer (seed 001); profiles do not.
                let search = "{ searchProfiles(query: \"bob\", first: 5) { totalCount nodes { handle } pageInfo { hasNextPage } } }"
                response = try await Self.post(client, search, authorization: bob)
                #expect(response.text == #"{"data":{"searchProfiles":{"totalCount":1,"nodes":[{"handle":"bob_builder"}],"pageInfo":{"hasNextPage":false}}}}"#)
                response = try await Self.post(client, search)
                #expect(response.firstErrorCode == "UNAUTHENTICATED")
                #expect(response.firstErrorMessage == "You must be logged in to search profiles")
                let followers = "{ profile(handle: \"alice_wonder\") { followers(first: 1) { totalCount edges { node { handle } } pageInfo { hasNextPage } } } }"
                response = try await Self.post(client, followers, authorization: bob)
                #expect(response.status == .ok)
                #expect(response.text.contains(#""totalCount":2"#) && response.text.contains(#""hasNextPage":true"#))
                response = try await Self.post(client, followers)
                #expect(response.firstErrorCode == "UNAUTHENTICATED")
                #expect(response.firstErrorMessage == "You must be logged in to view followers")
            }
        }
    }

    @Test("Query.viewer is the signed-in user, with viewerIsFollowing and followsViewer", arguments: StoreKind.allCases)
    func viewer(_ kind: StoreKind) async throws {
        try await TestGateway.run(kind) { gateway in
            let bearer = try await gateway.bearer("alice_wonder")
            try await gateway.test(.live) { client in
                let response = try await Self.post(
                    client, "{ viewer { handle } profile(handle: \"bob_builder\") { viewerIsFollowing followsViewer } }", authorization: bearer)
                #expect(response.text == #"{"data":{"viewer":{"handle":"alice_wonder"},"profile":{"viewerIsFollowing":true,"followsViewer":true}}}"#)
            }
        }
    }

    @Test("Mutation.toggleFollow, unfollow and follow change the counts and the follow state", arguments: StoreKind.allCases)
    func followMutations(_ kind: StoreKind) async throws {
        try await TestGateway.run(kind) { gateway in
            let bearer = try await gateway.bearer("alice_wonder")
            try await gateway.test(.live) { client in
                let selection = "following profile { handle followerCount } viewer { handle followingCount }"
                var response = try await Self.post(client, "mutation($id: ID!) { toggleFollow(profileId: $id) { \(selection) } }", ["id": Self.bob], authorization: bearer)
                #expect(response.text == #"{"data":{"toggleFollow":{"following":false,"profile":{"handle":"bob_builder","followerCount":1},"viewer":{"handle":"alice_wonder","followingCount":1}}}}"#)
                response = try await Self.post(client, "mutation($id: ID!) { unfollow(profileId: $id) { following } }", ["id": Self.bob], authorization: bearer)
                #expect(response.text == #"{"data":{"unfollow":{"following":false}}}"#)
                response = try await Self.post(client, "mutation($id: ID!) { follow(profileId: $id) { \(selection) } }", ["id": Self.bob], authorization: bearer)
                #expect(response.text == #"{"data":{"follow":{"following":true,"profile":{"handle":"bob_builder","followerCount":2},"viewer":{"handle":"alice_wonder","followingCount":2}}}}"#)
            }
        }
    }

    @Test("Mutation.updateProfile changes the viewer's own profile", arguments: StoreKind.allCases)
    func updateProfile(_ kind: StoreKind) async throws {
        try await TestGateway.run(kind) { gateway in
            let bearer = try await gateway.bearer("carol_creator")
            try await gateway.test(.live) { client in
                let response = try await Self.post(
                    client, "mutation($input: UpdateProfileInput!) { updateProfile(input: $input) { profile { handle bio homeGym } } }",
                    ["input": ["bio": "  Painter and boulderer  ", "homeGym": "Boulderhalle"]], authorization: bearer)
                #expect(response.text == #"{"data":{"updateProfile":{"profile":{"handle":"carol_creator","bio":"Painter and boulderer","homeGym":"Boulderhalle"}}}}"#)
            }
        }
    }

    @Test("Error codes: UNAUTHENTICATED, NOT_FOUND, CANNOT_FOLLOW_SELF, HANDLE_TAKEN, BAD_USER_INPUT come back with data null and 200", arguments: StoreKind.allCases)
    func domainErrorCodes(_ kind: StoreKind) async throws {
        try await TestGateway.run(kind) { gateway in
            let bearer = try await gateway.bearer("alice_wonder")
            try await gateway.test(.live) { client in
                var response = try await Self.post(client, "mutation($id: ID!) { toggleFollow(profileId: $id) { following } }", ["id": Self.bob])
                #expect(response.status == .ok)
                #expect(response.firstErrorCode == "UNAUTHENTICATED")
                #expect(response.firstErrorMessage?.hasPrefix("You must be logged in to ") == true)

                response = try await Self.post(client, "mutation($id: ID!) { follow(profileId: $id) { following } }", ["id": "00000000-0000-4000-8000-000000000009"], authorization: bearer)
                #expect(response.firstErrorCode == "NOT_FOUND")
                #expect(response.firstErrorMessage == "Profile not found")

                response = try await Self.post(client, "mutation($id: ID!) { follow(profileId: $id) { following } }", ["id": Self.alice], authorization: bearer)
                #expect(response.firstErrorCode == "CANNOT_FOLLOW_SELF")
                #expect(response.firstErrorMessage == "You cannot follow yourself")

                response = try await Self.post(client, "mutation { updateProfile(input: { handle: \"bob_builder\" }) { profile { handle } } }", authorization: bearer)
                #expect(response.firstErrorCode == "HANDLE_TAKEN")
                #expect(response.firstErrorMessage == "This handle is already taken")

                response = try await Self.post(client, "mutation($b: String) { updateProfile(input: { bio: $b }) { profile { handle } } }", ["b": String(repeating: "x", count: 281)], authorization: bearer)
                #expect(response.firstErrorCode == "BAD_USER_INPUT")
                #expect(response.text.hasSuffix(#""data":null}"#))
            }
        }
    }

    @Test("Batching: a batch of three profile cards costs store calls per operation, not per field", arguments: StoreKind.allCases)
    func batchCounts(_ kind: StoreKind) async throws {
        // The store's own path: with the graph in memory the store is read once for every viewer
        // instead (GraphMemoryHTTPTests).
        try await TestGateway.run(kind, { $0.server.gateway.graphMemory = nil }) { gateway in
            let dave = "Bearer " + (try await gateway.issuer.token(for: UUID()))  // signed in: lists need it
            try await gateway.test(.live) { client in
                gateway.embedded?.resetCounters()
                gateway.fake?.clearRequests()
                let before = gateway.backend.stores.callCounts()
                let card = "query($h: String!) { profile(handle: $h) { handle followers(first: 3) { nodes { handle followerCount } } } }"
                let body = GraphQLBody.batch([(card, ["h": "alice_wonder"]), (card, ["h": "bob_builder"]), (card, ["h": "carol_creator"])])
                let response = try await client.execute(uri: "/graphql", method: .post, headers: .graphQL(authorization: dave), body: body)
                #expect(response.status == .ok)
                #expect((response.json as? [Any])?.count == 3)
                // Each operation: one handle lookup, one follower page; the followers themselves come with the page.
                if let fake = gateway.fake {
                    // Against Supabase, each is one HTTP request.
                    let requests = fake.requestCounts
                    #expect(requests["GET /rest/v1/profiles"] == 3)
                    #expect(requests["POST /rest/v1/rpc/follow_pages_with_states"] == 3)
                    #expect(requests.values.reduce(0, +) <= 9, "requests: \(requests)")
                } else {
                    // The embedded and PostgreSQL stores count port calls (one statement each on PostgreSQL).
                    let counts = gateway.backend.stores.callCounts().merging(before.mapValues { -$0 }, uniquingKeysWith: +)
                        .filter { $0.value != 0 }
                    #expect(counts["profilesByHandle"] == 3)
                    #expect(counts["followPages"] == 3)
                    #expect(counts.values.reduce(0, +) <= 9)
                }
            }
        }
    }
}
