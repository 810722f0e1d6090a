import Foundation
import GatewayTestSupport
import GraphQLEngine
import SocialDomain
import SocialFixtures
import SocialGateway
import Testing

@Suite("Queries through the gateway, on each store")
struct QueryTests {
    @Test("viewer is the signed-in user's profile, and null for anonymous requests", arguments: StoreKind.allCases)
    func viewer(_ kind: StoreKind) async throws {
        try await GatewayFixture.run(kind) { gateway in
            let signedIn = try await gateway.run("{ viewer { id handle } }", viewer: gateway.alice)
            #expect(signedIn.json["data"]?["viewer"] == ["id": .string(DemoData.aliceId.uuidString.lowercased()), "handle": "alice_wonder"])
            let anonymous = try await gateway.run("{ viewer { id } }")
            #expect(anonymous.json == ["data": ["viewer": nil]])
        }
    }

    @Test("profile by handle or id; both or neither is BAD_USER_INPUT", arguments: StoreKind.allCases)
    func profileLookup(_ kind: StoreKind) async throws {
        try await GatewayFixture.run(kind) { gateway in
            let byHandle = try await gateway.run(#"{ profile(handle: "BOB_builder") { handle followerCount followingCount } }"#)
            #expect(byHandle.json["data"]?["profile"] == ["handle": "bob_builder", "followerCount": 2, "followingCount": 2])
            let id = DemoData.carolId.uuidString.lowercased()
            let byID = try await gateway.run("query Q($id: ID) { profile(id: $id) { handle } }", ["id": .string(id)])
            #expect(byID.json["data"]?["profile"]?["handle"] == "carol_creator")
            let both = try await gateway.run(#"{ profile(id: "x", handle: "y") { handle } }"#)
            #expect(GatewayFixture.codes(both.json) == ["BAD_USER_INPUT"])
            #expect(GatewayFixture.messages(both.json) == ["Provide exactly one of id or handle"])
            #expect(both.json["data"] == ["profile": nil])
        }
    }

    @Test("profiles and profilesByHandle keep the order asked, with null for missing ones", arguments: StoreKind.allCases)
    func batchLookups(_ kind: StoreKind) async throws {
        try await GatewayFixture.run(kind) { gateway in
            let ids: JSONValue = [.string(DemoData.bobId.uuidString.lowercased()), "not-a-uuid", .string(DemoData.aliceId.uuidString.lowercased())]
            let byIDs = try await gateway.run("query Q($ids: [ID!]!) { profiles(ids: $ids) { handle } }", ["ids": ids])
            #expect(byIDs.json["data"]?["profiles"] == [["handle": "bob_builder"], nil, ["handle": "alice_wonder"]])
            let byHandles = try await gateway.run(#"{ profilesByHandle(handles: ["carol_creator", "nobody"]) { handle } }"#)
            #expect(byHandles.json["data"]?["profilesByHandle"] == [["handle": "carol_creator"], nil])
        }
    }

    @Test("batch lookups follow BatchGetProfiles' rules: handles trimmed and case-folded, malformed ones null, over 100 keys its message",
          arguments: StoreKind.allCases)
    func batchLookupRules(_ kind: StoreKind) async throws {
        try await GatewayFixture.run(kind) { gateway in
            let handles = try await gateway.run(#"{ profilesByHandle(handles: ["  Alice_Wonder\n", "bad handle!", "BOB_BUILDER"]) { handle } }"#)
            #expect(handles.json["data"]?["profilesByHandle"] == [["handle": "alice_wonder"], nil, ["handle": "bob_builder"]])
            let one = try await gateway.run(#"{ profile(handle: " carol_creator ") { handle } }"#)
            #expect(one.json["data"]?["profile"] == ["handle": "carol_creator"])
            let tooMany = JSONValue.array((0...100).map { _ in .string(UUID().uuidString) })
            let over = try await gateway.run("query Q($ids: [ID!]!) { profiles(ids: $ids) { handle } }", ["ids": tooMany])
            #expect(GatewayFixture.codes(over.json) == ["BAD_USER_INPUT"])
            #expect(GatewayFixture.messages(over.json) == ["At most 100 ids can be requested at once"])
        }
    }

    @Test("handleAvailable: taken in any case (a private profile's too), free otherwise or when it is the viewer's own; malformed is BAD_USER_INPUT",
          arguments: StoreKind.allCases)
    func handleAvailable(_ kind: StoreKind) async throws {
        try await GatewayFixture.run(kind) { gateway in
            let query = "query H($h: String!) { handleAvailable(handle: $h) }"
            // carol goes private: her handle stays taken, and nothing else about her is told.
            _ = try await gateway.run("mutation { updateProfile(input: { isPublic: false }) { profile { handle } } }", viewer: gateway.carol)
            for (handle, free) in [("BOB_BUILDER", false), ("carol_creator", false), ("new_climber", true)] {
                let result = try await gateway.run(query, ["h": .string(handle)])
                #expect(result.json["data"]?["handleAvailable"] == .bool(free), "\(handle)")
            }
            let own = try await gateway.run(query, ["h": "Alice_Wonder"], viewer: gateway.alice)
            #expect(own.json["data"]?["handleAvailable"] == true)
            let malformed = try await gateway.run(query, ["h": "no"])
            #expect(GatewayFixture.codes(malformed.json) == ["BAD_USER_INPUT"])
        }
    }

    @Test("followsChangedSince: the viewer's own follows in change order, an unfollow as a record with deletedAt, keyset-paged",
          arguments: StoreKind.allCases)
    func followSync(_ kind: StoreKind) async throws {
        try await GatewayFixture.run(kind) { gateway in
            let sync = """
                query S($since: DateTime!, $first: Int, $after: String) {
                  followsChangedSince(since: $since, first: $first, after: $after) {
                    edges { cursor node { id followeeId updatedAt deletedAt } } pageInfo { hasNextPage endCursor }
                  }
                }
                """
            let bob = DemoData.bobId.uuidString.lowercased(), carol = DemoData.carolId.uuidString.lowercased()
            let all = try await gateway.run(sync, ["since": "1970-01-01T00:00:00Z"], viewer: gateway.alice)
            let nodes = all.json["data"]?["followsChangedSince"]?["edges"]?.arrayValue?.compactMap { $0["node"] } ?? []
            #expect(Set(nodes.compactMap { $0["followeeId"]?.stringValue }) == [bob, carol])
            #expect(nodes.allSatisfy { $0["deletedAt"] == .null })
            let lastSeen = try #require(nodes.last?["updatedAt"]?.stringValue)

            // Paging: one record, then the rest after its cursor, nothing twice.
            let first = try await gateway.run(sync, ["since": "1970-01-01T00:00:00Z", "first": 1], viewer: gateway.alice)
            let page = first.json["data"]?["followsChangedSince"]
            #expect(page?["pageInfo"]?["hasNextPage"] == true)
            let rest = try await gateway.run(
                sync, ["since": "1970-01-01T00:00:00Z", "after": page?["pageInfo"]?["endCursor"] ?? .null], viewer: gateway.alice)
            let restNodes = rest.json["data"]?["followsChangedSince"]?["edges"]?.arrayValue?.compactMap { $0["node"] } ?? []
            let firstNodes = page?["edges"]?.arrayValue?.compactMap { $0["node"] } ?? []
            #expect(firstNodes.count == 1)
            #expect(firstNodes + restNodes == nodes)

            // An unfollow is a change: since the last one seen, exactly that record, undone.
            _ = try await gateway.run("mutation U($id: ID!) { unfollow(profileId: $id) { following } }", ["id": .string(bob)], viewer: gateway.alice)
            let changed = try await gateway.run(sync, ["since": .string(lastSeen)], viewer: gateway.alice)
            let changes = changed.json["data"]?["followsChangedSince"]?["edges"]?.arrayValue?.compactMap { $0["node"] } ?? []
            #expect(changes.count == 1)
            #expect(changes.first?["followeeId"]?.stringValue == bob)
            #expect(changes.first?["deletedAt"]?.stringValue != nil)

            // Someone else's cursor, bad sizes, anonymous callers.
            let foreign = try await gateway.run(
                sync, ["since": "1970-01-01T00:00:00Z", "after": page?["pageInfo"]?["endCursor"] ?? .null], viewer: gateway.bob)
            #expect(GatewayFixture.messages(foreign.json) == ["after is not a valid cursor for this list"])
            let tooMany = try await gateway.run(sync, ["since": "1970-01-01T00:00:00Z", "first": 101], viewer: gateway.alice)
            #expect(GatewayFixture.messages(tooMany.json) == ["first must be between 1 and 100"])
            let anonymous = try await gateway.run(sync, ["since": "1970-01-01T00:00:00Z"])
            #expect(GatewayFixture.codes(anonymous.json) == ["UNAUTHENTICATED"])
            #expect(GatewayFixture.messages(anonymous.json) == ["You must be logged in to sync follows"])
        }
    }

    @Test("node(id) refetches a profile by its global id", arguments: StoreKind.allCases)
    func node(_ kind: StoreKind) async throws {
        try await GatewayFixture.run(kind) { gateway in
            let id = DemoData.aliceId.uuidString.lowercased()
            let result = try await gateway.run("query Q($id: ID!) { node(id: $id) { __typename id ... on Profile { handle } } }", ["id": .string(id)])
            #expect(result.json["data"]?["node"] == ["__typename": "Profile", "id": .string(id), "handle": "alice_wonder"])
        }
    }

    @Test("searchProfiles: case-insensitive substring of handle or name; a 1-character query is BAD_USER_INPUT; signed in only", arguments: StoreKind.allCases)
    func search(_ kind: StoreKind) async throws {
        try await GatewayFixture.run(kind) { gateway in
            let result = try await gateway.run(#"{ searchProfiles(query: "  ER  ") { totalCount nodes { handle } pageInfo { hasNextPage } } }"#, viewer: gateway.bob)
            #expect(result.json["data"]?["searchProfiles"]?["nodes"] == [["handle": "alice_wonder"], ["handle": "bob_builder"]])
            let one = try await gateway.run(#"{ searchProfiles(query: "bUi", first: 1) { totalCount nodes { handle } pageInfo { hasNextPage } } }"#, viewer: gateway.bob)
            #expect(one.json["data"]?["searchProfiles"] == ["totalCount": 1, "nodes": [["handle": "bob_builder"]], "pageInfo": ["hasNextPage": false]])
            let short = try await gateway.run(#"{ searchProfiles(query: "a") { totalCount } }"#, viewer: gateway.bob)
            #expect(GatewayFixture.codes(short.json) == ["BAD_USER_INPUT"])
            // Seed 001: "You must be logged in to search profiles".
            let anonymous = try await gateway.run(#"{ searchProfiles(query: "bui") { totalCount } }"#)
            #expect(GatewayFixture.codes(anonymous.json) == ["UNAUTHENTICATED"])
            #expect(GatewayFixture.messages(anonymous.json) == ["You must be logged in to search profiles"])
        }
    }

    @Test("followers pages: newest first with cursors; first over 50 and forged cursors are BAD_USER_INPUT", arguments: StoreKind.allCases)
    func followers(_ kind: StoreKind) async throws {
        try await GatewayFixture.run(kind) { gateway in
            let page = try await gateway.run(#"{ profile(handle: "alice_wonder") { followers(first: 1) { totalCount edges { cursor followedAt node { handle } } pageInfo { hasNextPage endCursor } } } }"#, viewer: gateway.bob)
            let followers = page.json["data"]?["profile"]?["followers"]
            #expect(followers?["totalCount"] == 2)
            #expect(followers?["pageInfo"]?["hasNextPage"] == true)
            let cursor = followers?["pageInfo"]?["endCursor"]?.stringValue ?? ""
            let next = try await gateway.run(
                #"query Q($after: String) { profile(handle: "alice_wonder") { followers(first: 5, after: $after) { edges { node { handle } } pageInfo { hasNextPage hasPreviousPage } } } }"#,
                ["after": .string(cursor)], viewer: gateway.bob)
            #expect(next.json["data"]?["profile"]?["followers"]?["pageInfo"] == ["hasNextPage": false, "hasPreviousPage": true])
            let tooMany = try await gateway.run(#"{ profile(handle: "alice_wonder") { followers(first: 51) { totalCount } } }"#, viewer: gateway.bob)
            #expect(GatewayFixture.messages(tooMany.json) == ["first must be between 0 and 50"])
            let forged = try await gateway.run(#"{ profile(handle: "alice_wonder") { following(after: "bm9wZQ") { totalCount } } }"#, viewer: gateway.bob)
            #expect(GatewayFixture.codes(forged.json) == ["BAD_USER_INPUT"])
            let foreign = try await gateway.run(
                #"query Q($c: String) { profile(handle: "alice_wonder") { following(after: $c) { totalCount } } }"#, ["c": .string(cursor)],
                viewer: gateway.bob)
            #expect(GatewayFixture.messages(foreign.json) == ["after is not a valid cursor for this list"])
            // Seed 001: lists need a signed-in viewer; the profile itself stays readable (null here:
            // the list is non-null, so its error nulls the profile, as §6.4.4 says).
            for kind in ["followers", "following"] {
                let anonymous = try await gateway.run(#"{ profile(handle: "alice_wonder") { handle \#(kind)(first: 1) { totalCount } } }"#)
                #expect(GatewayFixture.codes(anonymous.json) == ["UNAUTHENTICATED"])
                #expect(GatewayFixture.messages(anonymous.json) == ["You must be logged in to view \(kind)"])
            }
            let card = try await gateway.run(#"{ profile(handle: "alice_wonder") { handle followerCount sendCount } }"#)
            #expect(card.json["data"]?["profile"] == ["handle": "alice_wonder", "followerCount": 2, "sendCount": 0])
        }
    }

    @Test("viewerIsFollowing and followsViewer are the viewer's own relations; false when anonymous", arguments: StoreKind.allCases)
    func followStates(_ kind: StoreKind) async throws {
        try await GatewayFixture.run(kind) { gateway in
            let query = #"{ profile(handle: "bob_builder") { viewerIsFollowing followsViewer } }"#
            let alice = try await gateway.run(query, viewer: gateway.alice)
            #expect(alice.json["data"]?["profile"] == ["viewerIsFollowing": true, "followsViewer": true])
            let anonymous = try await gateway.run(query)
            #expect(anonymous.json["data"]?["profile"] == ["viewerIsFollowing": false, "followsViewer": false])
        }
    }

    @Test("malformed queries, unknown fields and bad variables are request errors without data", arguments: StoreKind.allCases)
    func requestErrors(_ kind: StoreKind) async throws {
        try await GatewayFixture.run(kind) { gateway in
            let syntax = try await gateway.run("{ viewer { ")
            #expect(syntax.response.outcome == .requestError)
            #expect(GatewayFixture.messages(syntax.json) == ["Syntax Error: Expected Name, found <EOF>."])
            let unknown = try await gateway.run("{ viewer { nope } }")
            #expect(unknown.response.outcome == .requestError)
            #expect(unknown.json["data"] == nil)
            #expect(GatewayFixture.messages(unknown.json) == [#"Cannot query field "nope" on type "Profile"."#])
            let variable = try await gateway.run("query Q($n: Int) { profile(handle: \"x\") { followers(first: $n) { totalCount } } }", ["n": "ten"])
            #expect(GatewayFixture.messages(variable.json) == [#"Variable "$n" got invalid value "ten"; Int cannot represent non-integer value: "ten""#])
        }
    }

    @Test("request errors carry the codes clients switch on: parse, validation, operation choice, variables", arguments: StoreKind.allCases)
    func requestErrorCodes(_ kind: StoreKind) async throws {
        try await GatewayFixture.run(kind) { gateway in
            #expect(GatewayFixture.codes(try await gateway.run("{ viewer { ").json) == ["GRAPHQL_PARSE_FAILED"])
            #expect(GatewayFixture.codes(try await gateway.run("{ viewer { nope } }").json) == ["GRAPHQL_VALIDATION_FAILED"])
            let two = "query A { viewer { id } } query B { viewer { handle } }"
            #expect(GatewayFixture.codes(try await gateway.run(two).json) == ["OPERATION_RESOLUTION_FAILURE"])
            #expect(GatewayFixture.codes(try await gateway.run(two, operationName: "C").json) == ["OPERATION_RESOLUTION_FAILURE"])
            let variable = try await gateway.run("query Q($n: Int, $m: Int!) { profile(handle: \"x\") { followers(first: $n) { totalCount } following(first: $m) { totalCount } } }", ["n": "ten"])
            #expect(GatewayFixture.codes(variable.json) == ["BAD_USER_INPUT", "BAD_USER_INPUT"])
            #expect(variable.json["data"] == nil)
        }
    }

    @Test("a mutation sent as read-only (GET) is refused before it runs", arguments: StoreKind.allCases)
    func mutationOverGet(_ kind: StoreKind) async throws {
        try await GatewayFixture.run(kind) { gateway in
            let result = try await gateway.run(#"mutation { follow(profileId: "x") { following } }"#, viewer: gateway.alice, readOnly: true)
            #expect(result.response.outcome == .mutationNotAllowed)
            #expect(GatewayFixture.messages(result.json) == ["Can only perform a mutation operation from a POST request."])
        }
    }

    @Test("depth and token limits are on by default", arguments: StoreKind.allCases)
    func limits(_ kind: StoreKind) async throws {
        try await GatewayFixture.run(kind) { gateway in
            let deep = "{ viewer " + String(repeating: "{ followers { nodes ", count: 7) + "{ id }" + String(repeating: " } }", count: 7) + " }"
            let result = try await gateway.run(deep)
            #expect(result.response.outcome == .requestError)
            #expect(GatewayFixture.codes(result.json).contains("QUERY_TOO_DEEP"))
            let long = "{ " + String(repeating: "viewer { id } ", count: 4000) + "}"
            let tokens = try await gateway.run(long)
            #expect(GatewayFixture.messages(tokens.json) == ["Syntax Error: Document contains more than 15000 tokens. Parsing aborted."])
        }
    }

    @Test("introspection can be switched off", arguments: StoreKind.allCases)
    func introspectionSwitch(_ kind: StoreKind) async throws {
        var options = GatewayOptions()
        options.introspection = false
        try await GatewayFixture.run(kind, options: options) { gateway in
            let result = try await gateway.run("{ __schema { queryType { name } } }")
            #expect(GatewayFixture.codes(result.json) == ["INTROSPECTION_DISABLED"])
            let typename = try await gateway.run("{ __typename }")
            #expect(typename.json == ["data": ["__typename": "Query"]])
        }
    }
}
