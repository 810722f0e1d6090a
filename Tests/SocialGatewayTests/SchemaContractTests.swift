import Foundation
import GatewayTestSupport
import GraphQLEngine
import GraphQLLanguage
import SocialGateway
import Testing

@Suite("schema.graphql is the contract")
struct SchemaContractTests {
    /// The repository root, found from this file's location.
    static let root = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test("the live schema prints exactly to schema.graphql at the repository root")
    func livePrintMatchesFile() async throws {
        let file = try String(contentsOf: Self.root.appendingPathComponent("schema.graphql"), encoding: .utf8)
        try await GatewayFixture.run(.embedded) { fixture in
            #expect(SchemaPrinter.print(fixture.service.schema) + "\n" == file)
        }
    }

    @Test("the bundled schema is the root schema.graphql, byte for byte")
    func bundledMatchesRoot() throws {
        let file = try String(contentsOf: Self.root.appendingPathComponent("schema.graphql"), encoding: .utf8)
        #expect(try GatewayService.schemaSDL() == file)
    }

    @Test("every type and field of the contract has a description")
    func descriptions() async throws {
        let schema = try await GatewayService(stores: TestStore.start(.embedded).stores).schema
        for type in schema.definedTypes {
            #expect(type.typeDescription?.isEmpty == false, "type \(type.name) has no description")
            for field in type.fields { #expect(field.description?.isEmpty == false, "\(type.name).\(field.name) has no description") }
        }
    }
}
