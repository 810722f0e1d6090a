#!/usr/bin/env bash
# Mutation.block: follows and requests between you and the profile (default carol) go, both ways,
# and each is NOT_FOUND to the other from now on. Blocking twice changes nothing.
source "$(dirname "$0")/_common.sh"
signed_in
gql "mutation(\$id: ID!) { block(profileId: \$id) { blocked viewer { followerCount followingCount } } }" "{\"id\": \"${1:-$CAROL}\"}"
