import GraphQLEngine
import SocialDomain

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
        b.bindSync("FollowRecordConnection", "edges") { try $0.parent(as: FollowRecordsValue.self).edges }
        b.bindSync("FollowRecordConnection", "pageInfo") { try $0.parent(as: FollowRecordsValue.self).pageInfo }
        b.bindSync("FollowRecordEdge", "cursor") { try $0.parent(as: FollowRecordEdgeValue.self).cursor }
        b.bindSync("FollowRecordEdge", "node") { try $0.parent(as: FollowRecordEdgeValue.self).record }
        b.bindSync("FollowRecord", "id") { try $0.parent(as: FollowRecord.self).id.lowercased }
        b.bindSync("FollowRecord", "followeeId") { try $0.parent(as: FollowRecord.self).followeeId.lowercased }
        b.bindSync("FollowRecord", "createdAt") { try $0.parent(as: FollowRecord.self).createdAt }
        b.bindSync("FollowRecord", "updatedAt") { try $0.parent(as: FollowRecord.self).updatedAt }
        b.bindSync("FollowRecord", "deletedAt") { try $0.parent(as: FollowRecord.self).deletedAt }
        b.bindSync("UploadAvatarPayload", "avatarURL") { try $0.parent(as: AvatarPayloadValue.self).url }
        b.bindSync("UploadAvatarPayload", "profile") { try $0.parent(as: AvatarPayloadValue.self).profile }
    }
}
