import EmbeddedStore
import Foundation
import SocialDomain
import SocialFixtures

/// Who a handle names, for the operator's command-line tools (`social-gateway token HANDLE`):
/// resolved here, in the composition root, so that a tool never opens a store itself and follows
/// the same settings `serve` does.
///
/// A demo user (``DemoData``) has a fixed id whatever the store; any other handle is looked up
/// through the ``OperatorProfileLookup`` port of the store the settings name, whatever the
/// profile's visibility. Only the embedded store has that port today, and it is opened only when
/// its database already exists (a lookup never creates a data folder).
///
/// ```swift
/// let id = try await OperatorLookup.profileID(forHandle: "user1", settings: settings)
/// ```
public enum OperatorLookup {
    /// The demo users' handles, in ``DemoData``'s order: what the tools offer in their help.
    public static var demoHandles: [String] { DemoData.users.map(\.handle) }

    /// A demo user's fixed id, or the id of the profile with `handle` (any case) in the store the
    /// settings name.
    /// - Throws: ``ProfileNotFound`` naming where the handle was looked for and the demo users;
    ///   store errors when the store cannot be opened or read.
    public static func profileID(forHandle handle: String, settings: GatewaySettings) async throws -> UUID {
        if let id = DemoData.id(forHandle: handle) { return id }
        switch settings.store.kind {
        case .embedded:
            let database = settings.server.dataDirectory.appendingPathComponent(EmbeddedStore.databaseFileName)
            if FileManager.default.fileExists(atPath: database.path) {
                let store = try await EmbeddedStore.open(dataDirectory: settings.server.dataDirectory, seedDemoData: false)
                if let id = try await lookUp(handle, in: store) { return id }
            }
            throw ProfileNotFound(handle: handle, place: "in \(database.path)")
        case .supabase, .postgres:
            throw ProfileNotFound(
                handle: handle, place: "among the demo users (the \(settings.store.kind.rawValue) store has no operator lookup)")
        }
    }

    static func lookUp(_ handle: String, in lookup: any OperatorProfileLookup) async throws -> UUID? {
        try await lookup.operatorProfileID(forHandle: handle)
    }

    /// A handle that names no profile where ``profileID(forHandle:settings:)`` looked.
    public struct ProfileNotFound: Error, CustomStringConvertible {
        public var handle: String
        /// Where it looked: `in <database file>`, or why only the demo users were asked.
        public var place: String

        /// `no profile "mallory" in data/social.sqlite; demo users: alice_wonder, ...`
        public var description: String {
            "no profile \"\(handle)\" \(place); demo users: \(OperatorLookup.demoHandles.joined(separator: ", "))"
        }
    }
}
