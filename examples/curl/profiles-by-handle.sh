#!/usr/bin/env bash
# Query.profilesByHandle: several profiles by handle.
source "$(dirname "$0")/_common.sh"
gql "query(\$h: [String!]!) { profilesByHandle(handles: \$h) { handle displayName } }" "{\"h\": [\"alice_wonder\", \"carol_creator\"]}"
