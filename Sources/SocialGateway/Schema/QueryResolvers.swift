import Foundation
import GraphQLEngine
import SocialDomain

/// `Query`: entry points, each a thin call into a use case or a loader.
enum QueryResolvers {
    static func bind(_ b: inout SchemaBinder) {
        b.bind("Query", "viewer") { info in
            let request = try info.request
            guard let id = request.viewer.userId else { return nil }
            return request.read(try await request.profilesByID.load(id))
        }
        b.bind("Query", "node") { info in
            let request = try info.request
            // Global ids are UUIDs of profiles, posts and comments (never the same): a string that
            // is not a UUID names no object. Profiles first, the common case.
            guard let text = info.arguments.string("id"), let id = UUID(parsing: text) else { return nil }
            if let profile = try await request.profilesByID.load(id) { return request.read(profile) }
            if let post = try await request.postsByID.load(id) { return request.read(post) }
            if let comment = try await request.commentsByID.load(id) {
                // Visible while its post's author and its own author are: any visibility change.
                request.readTags.record([CacheTags.comments(comment.postId), CacheTags.followLists, CacheTags.profile(comment.authorId)])
                return comment
            }
            if let story = try await request.storiesByID.load(id) { return story }
            // Whatever appears later under this id must reach a cached null.
            request.readTags.record(CacheTags.allFeeds)
            return nil
        }
        b.bind("Query", "profile", ready: { info in
            // From the graph in memory when it holds the profile: no loader wave.
            let request = try info.request
            guard let ready = request.ready else { return .notReady }
            switch try ProfileKey.from(id: info.arguments.string("id"), handle: info.arguments.string("handle")) {
            case .id(let id):
                guard let found = BatchGetProfiles.ready(ids: [id], viewer: request.viewer, from: ready) else { return .notReady }
                return .ready(request.read(found[id]))
            case .handle(let handle):
                guard let key = BatchGetProfiles.handleKey(handle) else { return .ready(nil) }
                guard let found = BatchGetProfiles.ready(handleKeys: [key], viewer: request.viewer, from: ready) else { return .notReady }
                return .ready(request.read(found[key]))
            }
        }, otherwise: { info in
            let request = try info.request
            switch try ProfileKey.from(id: info.arguments.string("id"), handle: info.arguments.string("handle")) {
            case .id(let id): return request.read(try await request.profilesByID.load(id))
            case .handle(let handle):
                guard let key = BatchGetProfiles.handleKey(handle) else { return nil }
                return request.read(try await request.profilesByHandle.load(key))
            }
        })
        b.bind("Query", "profiles") { info in
            let request = try info.request
            let texts = info.arguments["ids"]?.arrayValue?.compactMap(\.stringValue) ?? []
            try BatchGetProfiles.checkBatchSize(texts.count, field: "ids")
            let ids = texts.map { UUID(parsing: $0) }
            let loaded = try await request.profilesByID.loadMany(ids.compactMap { $0 })
            var found: [UUID: Profile] = [:]
            for profile in loaded.compactMap({ $0 }) { found[profile.id] = request.read(profile) }
            return ids.map { id -> (any Sendable)? in id.flatMap { found[$0] } }
        }
        b.bind("Query", "profilesByHandle") { info in
            let request = try info.request
            let handles = info.arguments["handles"]?.arrayValue?.compactMap(\.stringValue) ?? []
            try BatchGetProfiles.checkBatchSize(handles.count, field: "handles")
            let keys = handles.map(BatchGetProfiles.handleKey)
            let valid = keys.compactMap { $0 }
            let loaded = try await request.profilesByHandle.loadMany(valid)
            var found: [String: Profile] = [:]
            for (key, profile) in zip(valid, loaded) where profile != nil { found[key] = request.read(profile) }
            return keys.map { key -> (any Sendable)? in key.flatMap { found[$0] } }
        }
        b.bind("Query", "handleAvailable") { info in
            let request = try info.request
            return try await storeCall(request.logger) {
                try await CheckHandleAvailable(profiles: request.stores.profiles).execute(
                    handle: info.arguments.string("handle") ?? "", viewer: request.viewer)
            }
        }
        b.bind("Query", "followsChangedSince") { info in
            let request = try info.request
            // The scalar has checked the text is RFC 3339; the parse keeps every microsecond.
            guard let since = info.arguments.string("since").flatMap(UnixMicroseconds.parse) else {
                throw DomainError.badUserInput("since must be an RFC 3339 date-time", field: "since")
            }
            let after = info.arguments.string("after")
            let page = try await storeCall(request.logger) {
                try await SyncFollows(follows: request.stores.follows).execute(
                    sinceMicroseconds: since, first: info.arguments.int("first"), after: after, viewer: request.viewer)
            }
            guard let me = request.viewer.userId else { throw DomainError.unauthenticated(to: .syncFollows) }
            return FollowRecordsValue(owner: me, page: page, isContinued: after != nil)
        }
        b.bind("Query", "suggestedProfiles") { info in
            let request = try info.request
            let limit = try SuggestProfiles.checkedLimit(info.arguments.int("first"), viewer: request.viewer)
            let page = try await request.suggestions.load(limit) ?? .empty
            // The viewer's own follows change it at once (a followed suggestion leaves the list);
            // what the viewer's follows follow reaches it within the field's maxAge (tagging the
            // following list of each of up to thousands of profiles would outweigh the answer).
            if let me = request.viewer.userId { request.readTags.record([CacheTags.following(me), CacheTags.followLists]) }
            for profile in page.profiles { request.read(profile) }
            return ConnectionValue.ranked(page)
        }
        b.bind("Query", "searchProfiles") { info in
            let request = try info.request
            // Aliases and batches share the request's searches (RequestBudget, issue 51).
            try request.budget.spendSearch(field: "searchProfiles")
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
}
