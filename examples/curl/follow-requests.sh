#!/usr/bin/env bash
# Query.followRequests: the requests waiting to follow your private profile, newest first.
# Run as the private profile's owner. A whole round, from this folder:
#   AS=bob_builder ./set-private.sh; AS=alice_wonder ./unfollow.sh b0b00000-0000-4000-8000-000000000002
#   AS=alice_wonder ./follow.sh b0b00000-0000-4000-8000-000000000002     # requestStatus PENDING
#   AS=bob_builder ./follow-requests.sh; AS=bob_builder ./approve-follow-request.sh
source "$(dirname "$0")/_common.sh"
signed_in
gql 'query { followRequests(first: 20) { totalCount edges { cursor node { requestedAt requester { id handle displayName } } } } }'
