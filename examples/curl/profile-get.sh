#!/usr/bin/env bash
# Query.profile over GET (queries only; cacheable). GET needs the GraphQL-Preflight header (CSRF protection).
source "$(dirname "$0")/_common.sh"
curl -sS -G "$GATEWAY_URL/graphql" -H "GraphQL-Preflight: 1" -H "Accept: application/graphql-response+json" \
  --data-urlencode "query=query(\$h: String!) { profile(handle: \$h) { handle displayName followerCount } }" \
  --data-urlencode "variables={\"h\": \"${1:-bob_builder}\"}" | python3 -m json.tool
