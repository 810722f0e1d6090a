#!/usr/bin/env bash
# Query.viewer: who the token says you are (AS=bob_builder to switch demo user).
source "$(dirname "$0")/_common.sh"
signed_in
gql "{ viewer { id handle displayName followerCount followingCount } }"
