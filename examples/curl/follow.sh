#!/usr/bin/env bash
# Mutation.follow: follow a profile (following twice changes nothing); a private one you do not
# follow gets a request instead (requestStatus PENDING) that its owner approves or declines.
source "$(dirname "$0")/_common.sh"
signed_in
gql "mutation(\$id: ID!) { follow(profileId: \$id) { following requestStatus profile { handle followerCount } } }" "{\"id\": \"${1:-$CAROL}\"}"
