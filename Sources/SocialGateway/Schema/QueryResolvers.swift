import Foundation
import GraphQLEngine
import SocialDomain

/// `Query`: entry points, each a thin call into a use case or a loader.
enum QueryResolvers {
    /// Most keys `profiles` and `profilesByHandle` accept in one call.
    static let maxBatchKeys = 100

    static func bind(_ b: inout SchemaBinder) {
        b.bind("Query", "viewer") { info in
            let request = try info.request
            guard let id = request.viewer.userId else { return nil }
            return request.read(try await request.profilesByID.load(id))
        }
        b.bind("Query", "node") { info in
            let request = try info.request
            // Global ids are profile ids: a string that is not a UUID names no object.
            guard let text = info.arguments.string("id"), let id = UUID(parsing: text) else { return nil }
            return request.read(try await request.profilesByID.load(id))
        }
        b.bind("Query", "profile") { info in
            let request = try info.request
            switch try ProfileKey.from(id: info.arguments.string("id"), handle: info.arguments.string("handle")) {
            case .id(let id): return request.read(try await request.profilesByID.load(id))
            case .handle(let handle): return request.read(try await request.profilesByHandle.load(handle.lowercased()))
            }
        }
        b.bind("Query", "profiles") { info in
            let request = try info.request
            let texts = info.arguments["ids"]?.arrayValue?.compactMap(\.stringValue) ?? []
            try checkBatch(texts.count, field: "ids")
            let ids = texts.map { UUID(parsing: $0) }
            let loaded = try await request.profilesByID.loadMany(ids.compactMap { $0 })
            var found: [UUID: Profile] = [:]
            for profile in loaded.compactMap({ $0 }) { found[profile.id] = request.read(profile) }
            return ids.map { id -> (any Sendable)? in id.flatMap { found[$0] } }
        }
        b.bind("Query", "profilesByHandle") { info in
            let request = try info.request
            let handles = info.arguments["handles"]?.arrayValue?.compactMap(\.stringValue) ?? []
            try checkBatch(handles.count, field: "handles")
            let loaded = try await request.profilesByHandle.loadMany(handles.map { $0.lowercased() })
            return loaded.map { request.read($0) as (any Sendable)? }
        }
        b.bind("Query", "searchProfiles") { info in
            let request = try info.request
            let page = try await storeCall(request.logger) {
                try await SearchProfiles(profiles: request.stores.profiles).execute(
                    query: info.arguments.string("query") ?? "", first: info.arguments.int("first"),
                    after: info.arguments.string("after"), viewer: request.viewer)
            }
            request.readTags.record(CacheTags.search)
            for edge in page.edges { request.read(edge.profile) }
            return ConnectionValue.search(page)
        }
    }

    static func checkBatch(_ count: Int, field: String) throws {
        if count > maxBatchKeys {
            throw DomainError.badUserInput("At most \(maxBatchKeys) \(field) can be asked for at once", field: field)
        }
    }
}
