import EmbeddedStore
import Foundation
import GraphQLEngine
import SocialDomain
import SocialGateway

/// A gateway service over a fresh embedded store with the demo users.
struct GatewayFixture {
    let store: EmbeddedStore
    let service: GatewayService

    static let alice = Viewer.user(id: DemoData.aliceId, token: "test-token")
    static let bob = Viewer.user(id: DemoData.bobId, token: "test-token")

    init(options: GatewayOptions = GatewayOptions()) async throws {
        store = try await EmbeddedStore.temporary(seedDemoData: true)
        let store = store
        service = try GatewayService(
            stores: GatewayStores(profiles: store, follows: store, avatars: store, callCounts: { store.callCounts }),
            options: options)
    }

    /// Runs a request and returns the parsed response body.
    func run(
        _ query: String, _ variables: JSONObject = [:], viewer: Viewer = .anonymous, files: [String: UploadedFile] = [:],
        map: [String: [String]] = [:], readOnly: Bool = false
    ) async throws -> (response: GatewayResponse, json: JSONValue) {
        let response = await service.execute(
            GatewayRequest(query: query, variables: variables, viewer: viewer, files: files, fileMap: map, isReadOnly: readOnly))
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
