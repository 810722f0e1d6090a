#!/usr/bin/env bash
# Query.searchProfiles: public profiles whose handle or name contains the text (2+ characters), paged.
# Usage: examples/curl/search-profiles.sh [text] [after-cursor]
source "$(dirname "$0")/_common.sh"
signed_in   # search and follower lists need a signed-in viewer
after="${2:+\"${2}\"}"
gql "query(\$q: String!, \$after: String) { searchProfiles(query: \$q, first: 2, after: \$after) { totalCount edges { cursor node { handle } } pageInfo { hasNextPage endCursor } } }" "{\"q\": \"${1:-er}\", \"after\": ${after:-null}}"
