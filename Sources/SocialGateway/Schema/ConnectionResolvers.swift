import GraphQLEngine

/// `ProfileConnection`, `ProfileEdge` and `PageInfo`: reads of an already loaded page.
enum ConnectionResolvers {
    static func bind(_ b: inout SchemaBinder) {
        b.bindSync("ProfileConnection", "edges") { try $0.parent(as: ConnectionValue.self).edges }
        b.bindSync("ProfileConnection", "nodes") { try $0.parent(as: ConnectionValue.self).nodes }
        b.bindSync("ProfileConnection", "pageInfo") { try $0.parent(as: ConnectionValue.self).pageInfo }
        b.bindSync("ProfileConnection", "totalCount") { try $0.parent(as: ConnectionValue.self).totalCount }
        b.bindSync("ProfileEdge", "cursor") { try $0.parent(as: EdgeValue.self).cursor }
        b.bindSync("ProfileEdge", "node") { try $0.parent(as: EdgeValue.self).profile }
        b.bindSync("ProfileEdge", "followedAt") { try $0.parent(as: EdgeValue.self).followedAt }
        b.bindSync("PageInfo", "hasNextPage") { try $0.parent(as: PageInfoValue.self).hasNextPage }
        b.bindSync("PageInfo", "hasPreviousPage") { try $0.parent(as: PageInfoValue.self).hasPreviousPage }
        b.bindSync("PageInfo", "startCursor") { try $0.parent(as: PageInfoValue.self).startCursor }
        b.bindSync("PageInfo", "endCursor") { try $0.parent(as: PageInfoValue.self).endCursor }
        b.bindSync("UpdateProfilePayload", "profile") { $0.parent }
        b.bindSync("DeleteAvatarPayload", "profile") { $0.parent }
        b.bindSync("FollowPayload", "following") { try $0.parent(as: FollowPayloadValue.self).following }
        b.bindSync("FollowPayload", "profile") { try $0.parent(as: FollowPayloadValue.self).profile }
        b.bindSync("FollowPayload", "viewer") { try $0.parent(as: FollowPayloadValue.self).viewer }
        b.bindSync("UploadAvatarPayload", "avatarURL") { try $0.parent(as: AvatarPayloadValue.self).url }
        b.bindSync("UploadAvatarPayload", "profile") { try $0.parent(as: AvatarPayloadValue.self).profile }
    }
}
