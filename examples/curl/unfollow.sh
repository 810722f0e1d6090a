#!/usr/bin/env bash
# Mutation.unfollow: stop following a profile (unfollowing twice changes nothing).
source "$(dirname "$0")/_common.sh"
signed_in
gql "mutation(\$id: ID!) { unfollow(profileId: \$id) { following profile { handle followerCount } } }" "{\"id\": \"${1:-$CAROL}\"}"
