#!/usr/bin/env bash
# Query.node: any object by its global id (profiles are nodes).
source "$(dirname "$0")/_common.sh"
gql "query(\$id: ID!) { node(id: \$id) { id ... on Profile { handle } } }" "{\"id\": \"${1:-$BOB}\"}"
