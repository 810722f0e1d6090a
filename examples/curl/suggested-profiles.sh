#!/usr/bin/env bash
# Query.suggestedProfiles: friends of friends for the signed-in viewer, ranked by how many of the
# viewer's follows follow them, then follower count. The first N only (1 to 50, default 20).
# Usage: examples/curl/suggested-profiles.sh [first]
source "$(dirname "$0")/_common.sh"
signed_in   # signed out: UNAUTHENTICATED "You must be logged in to view suggested profiles"
gql "query(\$n: Int) { suggestedProfiles(first: \$n) { totalCount nodes { handle followerCount followedByViewerFollowing(first: 2) { totalCount nodes { handle } } } pageInfo { hasNextPage } } }" "{\"n\": ${1:-10}}"
