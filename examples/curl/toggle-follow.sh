#!/usr/bin/env bash
# Mutation.toggleFollow: follow if you do not yet, else unfollow (default: bob_builder).
source "$(dirname "$0")/_common.sh"
signed_in
gql "mutation(\$id: ID!) { toggleFollow(profileId: \$id) { following profile { handle followerCount } viewer { followingCount } } }" "{\"id\": \"${1:-$BOB}\"}"
