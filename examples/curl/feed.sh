#!/usr/bin/env bash
# Query.feed: the posts of the profiles you follow and your own, newest first (signed in only:
# UNAUTHENTICATED otherwise). Three a page here; pass the answer's pageInfo.endCursor for the next.
# Usage: examples/curl/feed.sh [after-cursor]
source "$(dirname "$0")/_common.sh"
signed_in
after="${1:+\"${1}\"}"
gql "query(\$after: String) { feed(first: 3, after: \$after) { edges { cursor node { id author { handle } content imageURLs likeCount commentCount viewerHasLiked createdAt } } pageInfo { hasNextPage endCursor } } }" "{\"after\": ${after:-null}}"
