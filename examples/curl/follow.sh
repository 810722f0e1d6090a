#!/usr/bin/env bash
# Mutation.follow: follow a profile (following twice changes nothing).
source "$(dirname "$0")/_common.sh"
signed_in
gql "mutation(\$id: ID!) { follow(profileId: \$id) { following profile { handle followerCount } } }" "{\"id\": \"${1:-$CAROL}\"}"
