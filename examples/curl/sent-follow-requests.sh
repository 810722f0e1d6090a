#!/usr/bin/env bash
# Query.sentFollowRequests: your own requests to follow private profiles that wait for an answer,
# newest first, each profile asked as a card: what an app shows as "Requested". unfollow.sh
# cancels one. A whole round, from this folder:
#   AS=bob_builder ./set-private.sh; AS=alice_wonder ./unfollow.sh b0b00000-0000-4000-8000-000000000002
#   AS=alice_wonder ./follow.sh b0b00000-0000-4000-8000-000000000002     # requestStatus PENDING
#   AS=alice_wonder ./sent-follow-requests.sh                           # bob_builder, a card
#   AS=alice_wonder ./unfollow.sh b0b00000-0000-4000-8000-000000000002   # cancelled
source "$(dirname "$0")/_common.sh"
signed_in
gql 'query { sentFollowRequests(first: 20) { totalCount pageInfo { hasNextPage endCursor } edges { cursor node { requestedAt target { id handle displayName avatarURL viewerFollowRequestStatus } } } } }'
