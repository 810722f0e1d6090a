import Foundation
import GatewayServer
import Hummingbird
import HummingbirdTesting
import SocialDomain
import SocialGateway
import Testing

/// What clients and load balancers see when the store fails.
@Suite("Backend failures")
struct BackendFailureTests {
    /// Profile reads that always fail the way a store reports an outage.
    struct FailingProfiles: ProfileStore {
        func profiles(ids: [UUID], viewer: Viewer) async throws -> [UUID: Profile] { throw DomainError.backendUnavailable }
        func profiles(handles: [String], viewer: Viewer) async throws -> [String: Profile] { throw DomainError.backendUnavailable }
        func isHandleTaken(_ handleKey: String, viewer: Viewer) async throws -> Bool { throw DomainError.backendUnavailable }
        func searchProfiles(_ query: SearchQuery, viewer: Viewer) async throws -> SearchPage { throw DomainError.backendUnavailable }
        func updateProfile(id: UUID, changes: ProfileChanges, viewer: Viewer) async throws -> Profile { throw DomainError.backendUnavailable }
        func ownerDetails(viewer: Viewer) async throws -> ProfileOwnerDetails { throw DomainError.backendUnavailable }
    }

    static func failingGateway() async throws -> TestGateway {
        let healthy = try await TestGateway.make()
        let store = healthy.store
        var backend = healthy.backend
        backend.stores = GatewayStores(profiles: FailingProfiles(), follows: store, posts: store, stories: store, media: store)
        return TestGateway(configuration: healthy.configuration, backend: backend, issuer: healthy.issuer, embedded: store)
    }

    @Test("Error codes: a store outage is BACKEND_UNAVAILABLE with the seeds' message and no detail")
    func backendUnavailable() async throws {
        let gateway = try await Self.failingGateway()
        try await gateway.test { client in
            try await client.execute(
                uri: "/graphql", method: .post, headers: .graphQL(), body: GraphQLBody.json("{ profile(handle: \"alice_wonder\") { handle } }")
            ) { response in
                #expect(response.status == .ok)
                #expect(response.firstErrorCode == "BACKEND_UNAVAILABLE")
                #expect(response.firstErrorMessage == "The service is temporarily unavailable. Please try again later.")
            }
        }
    }

    @Test("/readyz is 503 when the store does not answer; /healthz stays 200")
    func readinessFails() async throws {
        let gateway = try await Self.failingGateway()
        try await gateway.test { client in
            try await client.execute(uri: "/readyz", method: .get) { response in
                #expect(response.status == .serviceUnavailable)
                #expect(response.text == #"{"status":"unavailable"}"#)
            }
            try await client.execute(uri: "/healthz", method: .get) { response in #expect(response.status == .ok) }
        }
    }
}
