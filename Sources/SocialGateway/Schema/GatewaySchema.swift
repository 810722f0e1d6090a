import Foundation
import GraphQLEngine
import SocialDomain

/// `schema.graphql`, bundled with the module, built and bound to the resolvers.
enum GatewaySchema {
    /// The SDL the server serves (the same bytes as `schema.graphql` at the repository root).
    static func bundledSDL() throws -> String {
        guard let url = Bundle.module.url(forResource: "schema", withExtension: "graphql") else {
            throw BindingError(problems: ["schema.graphql is missing from the SocialGateway bundle"])
        }
        return try String(contentsOf: url, encoding: .utf8)
    }

    /// Builds the schema and binds every field; a mismatch between SDL and code stops start-up.
    static func make(sdl: String) throws -> GraphQLSchema {
        let schema = try SchemaBuilder.build(sdl: sdl, name: "schema.graphql", scalars: GatewayScalars.all)
        var binder = SchemaBinder(schema: schema)
        QueryResolvers.bind(&binder)
        ProfileResolvers.bind(&binder)
        ConnectionResolvers.bind(&binder)
        MutationResolvers.bind(&binder)
        FollowRequestResolvers.bind(&binder)
        BlockResolvers.bind(&binder)
        PostResolvers.bind(&binder)
        PostMutationResolvers.bind(&binder)
        StoryResolvers.bind(&binder)
        AccountResolvers.bind(&binder)
        SubscriptionResolvers.bind(&binder)
        NotificationResolvers.bind(&binder)
        binder.resolveType("Node") { value in
            switch value {
            case is Profile: "Profile"
            case is Post: "Post"
            case is Comment: "Comment"
            case is Story: "Story"
            default: nil
            }
        }
        return try binder.finish(requireAll: true)
    }
}

extension ResolveInfo {
    /// The gateway's request context.
    var request: RequestContext {
        get throws { try context(as: RequestContext.self) }
    }
}
