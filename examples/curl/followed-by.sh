#!/usr/bin/env bash
# Profile.followedByViewerFollowing: "followed by X, Y and N others" on a profile card: the profiles
# the viewer follows who follow it (default carol_creator), two by name, all of them counted.
# Usage: examples/curl/followed-by.sh [handle]
source "$(dirname "$0")/_common.sh"
signed_in   # anonymous viewers get an empty list with totalCount 0
gql "query(\$h: String!) { profile(handle: \$h) { handle followedByViewerFollowing(first: 2) { totalCount nodes { handle displayName } pageInfo { hasNextPage } } } }" "{\"h\": \"${1:-carol_creator}\"}"
