#!/usr/bin/env bash
# Mutation.unblock: the profile (default carol) is visible again; the follows the block removed do
# not come back.
source "$(dirname "$0")/_common.sh"
signed_in
gql "mutation(\$id: ID!) { unblock(profileId: \$id) { blocked viewer { followingCount } } }" "{\"id\": \"${1:-$CAROL}\"}"
