import Foundation
import GatewayTestSupport
import GraphQLEngine
import SocialDomain
import SocialFixtures
import SocialGateway

/// A gateway service over a fresh store of one kind holding the demo users.
struct GatewayFixture {
    let store: TestStore
    let service: GatewayService

    /// The demo users as viewers this store accepts (the fake checks the bearer token).
    var alice: Viewer { store.viewer(DemoData.aliceId) }
    var bob: Viewer { store.viewer(DemoData.bobId) }
    var carol: Viewer { store.viewer(DemoData.carolId) }

    /// Runs `body` with a gateway over a fresh store of `kind`, then shuts the store down.
    static func run(
        _ kind: StoreKind, seed: TestStore.Seed = .demo, options: GatewayOptions = GatewayOptions(),
        _ body: (GatewayFixture) async throws -> Void
    ) async throws {
        try await TestStore.run(kind, seed: seed) { store in
            try await body(GatewayFixture(store: store, service: try GatewayService(stores: store.stores, options: options)))
        }
    }

    /// Runs a request and returns the parsed response body.
    func run(
        _ query: String, _ variables: JSONObject = [:], viewer: Viewer = .anonymous, files: [String: UploadedFile] = [:],
        map: [String: [String]] = [:], readOnly: Bool = false, operationName: String? = nil, clientAddress: String? = nil,
        budget: RequestBudget = RequestBudget()
    ) async throws -> (response: GatewayResponse, json: JSONValue) {
        let response = await service.execute(
            GatewayRequest(
                query: query, operationName: operationName, variables: variables, viewer: viewer, files: files, fileMap: map,
                isReadOnly: readOnly, clientAddress: clientAddress, budget: budget))
        return (response, try JSONParser.parse(response.body))
    }

    /// The `extensions.code` of each error.
    static func codes(_ json: JSONValue) -> [String] {
        (json["errors"]?.arrayValue ?? []).compactMap { $0["extensions"]?["code"]?.stringValue }
    }

    static func messages(_ json: JSONValue) -> [String] {
        (json["errors"]?.arrayValue ?? []).compactMap { $0["message"]?.stringValue }
    }
}
