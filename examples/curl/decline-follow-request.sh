#!/usr/bin/env bash
# Mutation.declineFollowRequest: no follow; the requester (default alice) cannot ask again for 7
# days (TOO_MANY_REQUESTS with retryAfter). Run as the private profile's owner (AS=...).
source "$(dirname "$0")/_common.sh"
signed_in
gql "mutation(\$id: ID!) { declineFollowRequest(profileId: \$id) { approved requester { handle } viewer { followerCount } } }" "{\"id\": \"${1:-$ALICE}\"}"
