#!/usr/bin/env bash
# Query.profile: a profile card by handle (default alice_wonder), with its first followers.
# Usage: examples/curl/profile.sh [handle]
source "$(dirname "$0")/_common.sh"
signed_in   # search and follower lists need a signed-in viewer
gql "$(cat "$(dirname "$0")/../profile-card.graphql")" "{\"handle\": \"${1:-alice_wonder}\", \"first\": 5}"
