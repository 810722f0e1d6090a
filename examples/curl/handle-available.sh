#!/usr/bin/env bash
# Query.handleAvailable: whether a handle is free to take (any case; private profiles hold theirs too).
source "$(dirname "$0")/_common.sh"
gql "query(\$h: String!) { handleAvailable(handle: \$h) }" "{\"h\": \"${1:-new_climber}\"}"
