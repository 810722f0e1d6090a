import GraphQL

/// The bench's social schema for GraphQLSwift, with resolvers over the same
/// ``SocialBenchData`` ours use, so both engines run the same work.
enum PeerSocialSchema {
    final class Box: @unchecked Sendable {
        var profile: GraphQLObjectType!
        var connection: GraphQLObjectType!
    }

    static func make(_ data: SocialBenchData) throws -> GraphQLSchema {
        let box = Box()
        let pageArgs: GraphQLArgumentConfigMap = [
            "first": GraphQLArgument(type: GraphQLInt, defaultValue: .number(20)), "after": GraphQLArgument(type: GraphQLString),
        ]
        func field(_ type: GraphQLOutputType, _ read: @escaping @Sendable (SocialBenchData.Profile) -> (any Sendable)?) -> GraphQLField {
            GraphQLField(type: type) { source, _, _, _ in
                guard let ref = source as? SocialBenchData.ProfileRef else { return nil }
                return read(data.profiles[ref.index])
            }
        }
        let pageInfo = try GraphQLObjectType(
            name: "PageInfo",
            fields: [
                "hasNextPage": GraphQLField(type: GraphQLNonNull(GraphQLBoolean)) { s, _, _, _ in
                    let c = s as! SocialBenchData.Connection; return c.end < c.list.count
                },
                "hasPreviousPage": GraphQLField(type: GraphQLNonNull(GraphQLBoolean)) { s, _, _, _ in (s as! SocialBenchData.Connection).start > 0 },
                "startCursor": GraphQLField(type: GraphQLString) { s, _, _, _ in
                    let c = s as! SocialBenchData.Connection; return c.end > c.start ? "cursor:\(c.start)" : nil
                },
                "endCursor": GraphQLField(type: GraphQLString) { s, _, _, _ in
                    let c = s as! SocialBenchData.Connection; return c.end > c.start ? "cursor:\(c.end - 1)" : nil
                },
            ])
        box.profile = try GraphQLObjectType(
            name: "Profile",
            fields: {
                [
                    "id": field(GraphQLNonNull(GraphQLID)) { $0.id },
                    "handle": field(GraphQLNonNull(GraphQLString)) { $0.handle },
                    "displayName": field(GraphQLString) { $0.displayName },
                    "bio": field(GraphQLString) { $0.bio },
                    "photoURL": field(GraphQLString) { $0.photoURL },
                    "isPublic": field(GraphQLNonNull(GraphQLBoolean)) { $0.isPublic },
                    "followerCount": field(GraphQLNonNull(GraphQLInt)) { $0.followerCount },
                    "followingCount": field(GraphQLNonNull(GraphQLInt)) { $0.followingCount },
                    "createdAt": field(GraphQLNonNull(GraphQLString)) { $0.createdAt },
                    "viewerIsFollowing": field(GraphQLNonNull(GraphQLBoolean)) { $0.viewerIsFollowing },
                    "followers": GraphQLField(type: GraphQLNonNull(box.connection), args: pageArgs) { s, args, _, _ in
                        let ref = s as! SocialBenchData.ProfileRef
                        return SocialBenchData.connection(data.followers[ref.index], first: args["first"].int, after: args["after"].string)
                    },
                    "following": GraphQLField(type: GraphQLNonNull(box.connection), args: pageArgs) { s, args, _, _ in
                        let ref = s as! SocialBenchData.ProfileRef
                        return SocialBenchData.connection(data.following[ref.index], first: args["first"].int, after: args["after"].string)
                    },
                ]
            })
        let edge = try GraphQLObjectType(
            name: "ProfileEdge",
            fields: {
                [
                    "cursor": GraphQLField(type: GraphQLNonNull(GraphQLString)) { s, _, _, _ in "cursor:\((s as! SocialBenchData.Edge).position)" },
                    "node": GraphQLField(type: GraphQLNonNull(box.profile)) { s, _, _, _ in
                        SocialBenchData.ProfileRef(index: (s as! SocialBenchData.Edge).index)
                    },
                ]
            })
        box.connection = try GraphQLObjectType(
            name: "ProfileConnection",
            fields: [
                "edges": GraphQLField(type: GraphQLNonNull(GraphQLList(GraphQLNonNull(edge)))) { s, _, _, _ in
                    let c = s as! SocialBenchData.Connection
                    return (c.start..<c.end).map { SocialBenchData.Edge(position: $0, index: c.list[$0]) }
                },
                "pageInfo": GraphQLField(type: GraphQLNonNull(pageInfo)) { s, _, _, _ in s },
                "totalCount": GraphQLField(type: GraphQLNonNull(GraphQLInt)) { s, _, _, _ in (s as! SocialBenchData.Connection).list.count },
            ])
        let query = try GraphQLObjectType(
            name: "Query",
            fields: [
                "viewer": GraphQLField(type: box.profile) { _, _, _, _ in SocialBenchData.ProfileRef(index: data.viewer) },
                "profile": GraphQLField(type: box.profile, args: ["id": GraphQLArgument(type: GraphQLID), "handle": GraphQLArgument(type: GraphQLString)]) { _, args, _, _ in
                    if let id = args["id"].string, let i = data.byID[id] { return SocialBenchData.ProfileRef(index: i) }
                    if let h = args["handle"].string, let i = data.byHandle[h] { return SocialBenchData.ProfileRef(index: i) }
                    return nil
                },
            ])
        return try GraphQLSchema(query: query)
    }
}
