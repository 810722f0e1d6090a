#!/usr/bin/env bash
# Mutation.approveFollowRequest: the requester (default alice) now follows you. NOT_FOUND without
# a pending request. Run as the private profile's owner (AS=...).
source "$(dirname "$0")/_common.sh"
signed_in
gql "mutation(\$id: ID!) { approveFollowRequest(profileId: \$id) { approved requester { handle followingCount } viewer { followerCount } } }" "{\"id\": \"${1:-$ALICE}\"}"
