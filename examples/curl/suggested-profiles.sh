#!/usr/bin/env bash
# Query.suggestedProfiles: friends of friends for the signed-in viewer, ranked by how many of the
# viewer's follows follow them, then follower count. The first N only (1 to 50, default 20).
# A viewer who follows nobody yet gets the most followed public profiles instead (issue 54), by
# the same rule (never private, asked or blocked profiles). To see it, from this folder:
#   AS=alice_wonder ./unfollow.sh $BOB; AS=alice_wonder ./unfollow.sh $CAROL   (ids in _common.sh)
#   AS=alice_wonder ./suggested-profiles.sh      # bob_builder and carol_creator, most followed first
# Usage: examples/curl/suggested-profiles.sh [first]
source "$(dirname "$0")/_common.sh"
signed_in   # signed out: UNAUTHENTICATED "You must be logged in to view suggested profiles"
gql "query(\$n: Int) { suggestedProfiles(first: \$n) { totalCount nodes { handle followerCount followedByViewerFollowing(first: 2) { totalCount nodes { handle } } } pageInfo { hasNextPage } } }" "{\"n\": ${1:-10}}"
