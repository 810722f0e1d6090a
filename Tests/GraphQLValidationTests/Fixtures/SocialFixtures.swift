/// The benchmark inputs of `shared/bench` (byte-for-byte copies, so tests do not read
/// outside the repository): the social schema and the `ViewerFollowers` query.
let socialSchemaSDL = """
    type Query {
      viewer: Profile
      profile(id: ID, handle: String): Profile
      profiles(ids: [ID!]!): [Profile]!
      searchProfiles(query: String!, first: Int = 20, after: String): ProfileConnection!
    }

    type Mutation {
      toggleFollow(profileId: ID!): Profile!
    }

    type Profile {
      id: ID!
      handle: String!
      displayName: String
      bio: String
      photoURL: String
      isPublic: Boolean!
      followerCount: Int!
      followingCount: Int!
      createdAt: String!
      viewerIsFollowing: Boolean!
      followers(first: Int = 20, after: String): ProfileConnection!
      following(first: Int = 20, after: String): ProfileConnection!
    }

    type ProfileConnection {
      edges: [ProfileEdge!]!
      pageInfo: PageInfo!
      totalCount: Int!
    }

    type ProfileEdge {
      cursor: String!
      node: Profile!
    }

    type PageInfo {
      hasNextPage: Boolean!
      hasPreviousPage: Boolean!
      startCursor: String
      endCursor: String
    }
    """

let socialQuery = """
    # A realistic client query: the viewer's profile card, their first 50 followers
    # (with cursors, pageInfo and totalCount) and, for each follower, the first 10
    # profiles that follower follows.
    query ViewerFollowers(
      $first: Int = 50
      $nestedFirst: Int = 10
      $after: String
      $withBio: Boolean = false
    ) {
      me: viewer {
        ...ProfileCard
        bio @include(if: $withBio)
        followingCount
        createdAt
        followers(first: $first, after: $after) {
          totalCount
          pageInfo {
            hasNextPage
            hasPreviousPage
            startCursor
            endCursor
          }
          edges {
            cursor
            follower: node {
              ...ProfileCard
              bio @include(if: $withBio)
              topFollowing: following(first: $nestedFirst) {
                totalCount
                edges {
                  cursor
                  node {
                    ...ProfileCard
                  }
                }
              }
            }
          }
        }
      }
    }

    fragment ProfileCard on Profile {
      id
      handle
      name: displayName
      avatar: photoURL
      isPublic
      followerCount
      viewerIsFollowing
    }
    """
