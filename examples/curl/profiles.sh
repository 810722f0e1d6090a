#!/usr/bin/env bash
# Query.profiles: several profiles by id, in the order asked (null for missing or hidden).
source "$(dirname "$0")/_common.sh"
gql "query(\$ids: [ID!]!) { profiles(ids: \$ids) { id handle } }" "{\"ids\": [\"$CAROL\", \"$BOB\", \"00000000-0000-4000-8000-000000000000\"]}"
