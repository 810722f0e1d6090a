import Foundation
import GatewayServer
import GatewayTestSupport
import Hummingbird
import HummingbirdTesting
import SupabaseFake
import Testing

/// What a client sees when the Supabase project behind the gateway fails: the seeds'
/// BACKEND_UNAVAILABLE, never the upstream's body.
@Suite("Supabase outages through the gateway",
      .enabled(if: StoreKind.allCases.contains(.supabase), "needs SOCIAL_GATEWAY_TEST_POSTGRES (scripts/test starts a server)"))
struct SupabaseOutageTests {
    static let unavailable = "The service is temporarily unavailable. Please try again later."
    /// An upstream error body with details that must stay in the log.
    static let upstreamBody = #"{"code":"XX000","details":"relation pg_secret_table","hint":null,"message":"boom: could not connect to 10.0.0.7"}"#

    @Test("a 500 from PostgREST is BACKEND_UNAVAILABLE over HTTP, after two retries of the read, with no upstream detail")
    func upstream500() async throws {
        try await TestGateway.run(.supabase) { gateway in
            let fake = try #require(gateway.fake)
            fake.inject(.status(500, Self.upstreamBody), pathPrefix: "/rest/v1/", times: 3)
            try await gateway.test(.live) { client in
                let response = try await EndToEndTests.post(client, "{ profile(handle: \"alice_wonder\") { handle } }")
                #expect(response.status == .ok)
                #expect(response.text == #"{"errors":[{"message":"\#(Self.unavailable)","locations":[{"line":1,"column":3}],"path":["profile"],"extensions":{"code":"BACKEND_UNAVAILABLE"}}],"data":{"profile":null}}"#)
                #expect(fake.requests.map(\.endpoint) == Array(repeating: "GET /rest/v1/profiles", count: 3))
            }
        }
    }

    @Test("a 500 on toggleFollow is BACKEND_UNAVAILABLE and the write is sent once")
    func mutation500() async throws {
        try await TestGateway.run(.supabase) { gateway in
            let fake = try #require(gateway.fake)
            let bearer = try await gateway.bearer("alice_wonder")
            fake.inject(.status(500, Self.upstreamBody), pathPrefix: "/rest/v1/rpc/toggle_follow", times: 5)
            try await gateway.test(.live) { client in
                let response = try await EndToEndTests.post(
                    client, "mutation($id: ID!) { toggleFollow(profileId: $id) { following } }", ["id": EndToEndTests.bob], authorization: bearer)
                #expect(response.firstErrorCode == "BACKEND_UNAVAILABLE")
                #expect(response.firstErrorMessage == Self.unavailable)
                #expect(!response.text.contains("boom") && !response.text.contains("XX000") && !response.text.contains("10.0.0.7"))
                #expect(fake.requests.filter { $0.path == "/rest/v1/rpc/toggle_follow" }.count == 1)
            }
        }
    }

    @Test("a stopped project is BACKEND_UNAVAILABLE for queries and 503 on /readyz; /healthz stays 200")
    func projectStopped() async throws {
        try await TestGateway.run(.supabase) { gateway in
            await gateway.fake?.stop()
            try await gateway.test(.live) { client in
                let response = try await EndToEndTests.post(client, "{ profile(handle: \"alice_wonder\") { handle } }")
                #expect(response.status == .ok)
                #expect(response.firstErrorCode == "BACKEND_UNAVAILABLE")
                #expect(response.firstErrorMessage == Self.unavailable)
                #expect(!response.text.contains("127.0.0.1") && !response.text.contains("onnection"))
                let ready = try await client.execute(uri: "/readyz", method: .get)
                #expect(ready.status == .serviceUnavailable)
                #expect(ready.text == #"{"status":"unavailable"}"#)
                let health = try await client.execute(uri: "/healthz", method: .get)
                #expect(health.status == .ok)
            }
        }
    }

    @Test(
        "a body trickled by PostgREST, or cut halfway, is BACKEND_UNAVAILABLE within the request timeout and its retries, never a hang",
        arguments: [SupabaseFake.Fault.slowBody(.milliseconds(40)), .resetMidBody])
    func brokenBodies(fault: SupabaseFake.Fault) async throws {
        try await TestGateway.run(.supabase, {
            $0.store.supabase?.requestTimeout = .milliseconds(500)
            $0.store.supabase?.maxReadRetries = 1
            $0.server.responseCache = false
        }) { gateway in
            let fake = try #require(gateway.fake)
            fake.inject(fault, pathPrefix: "/rest/v1/", times: 2)
            try await gateway.test(.live) { client in
                let start = ContinuousClock.now
                let response = try await EndToEndTests.post(client, "{ profile(handle: \"alice_wonder\") { handle } }")
                #expect(response.status == .ok)
                #expect(response.firstErrorCode == "BACKEND_UNAVAILABLE")
                #expect(response.firstErrorMessage == Self.unavailable)
                // Two attempts of at most 0.5 s each, and the retry's pause.
                #expect(ContinuousClock.now - start < .seconds(4))
                // The fault is spent: the next request is answered.
                let after = try await EndToEndTests.post(client, "{ profile(handle: \"alice_wonder\") { handle } }")
                #expect(after.text == #"{"data":{"profile":{"handle":"alice_wonder"}}}"#)
            }
        }
    }
}
