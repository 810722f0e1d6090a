#!/usr/bin/env bash
# Query.followsChangedSince: the viewer's own follows changed after a time (unfollows too, with
# deletedAt), oldest first: what an offline-first client applies. Pass the last updatedAt seen.
source "$(dirname "$0")/_common.sh"
signed_in
gql "query(\$since: DateTime!) { followsChangedSince(since: \$since) { edges { node { followeeId updatedAt deletedAt } } pageInfo { hasNextPage endCursor } } }" "{\"since\": \"${1:-1970-01-01T00:00:00Z}\"}"
