#!/usr/bin/env bash
# Profile.posts: a profile's posts, newest first, with its postCount (default carol_creator).
# Readable anonymously when the profile is public; a private profile's posts reach only its owner.
# Usage: examples/curl/profile-posts.sh [handle] [after-cursor]
source "$(dirname "$0")/_common.sh"
after="${2:+\"${2}\"}"
gql "query(\$h: String!, \$after: String) { profile(handle: \$h) { handle postCount posts(first: 2, after: \$after) { totalCount nodes { id content likeCount commentCount createdAt } pageInfo { hasNextPage endCursor } } } }" "{\"h\": \"${1:-carol_creator}\", \"after\": ${after:-null}}"
