#!/usr/bin/env bash
# Query.profile over GET (queries only; cacheable). No preflight header needed: only the
# Authorization header authenticates, never a cookie, so a cross-site GET carries no credentials.
source "$(dirname "$0")/_common.sh"
curl -sS -G "$GATEWAY_URL/graphql" -H "Accept: application/graphql-response+json" \
  --data-urlencode "query=query(\$h: String!) { profile(handle: \$h) { handle displayName followerCount } }" \
  --data-urlencode "variables={\"h\": \"${1:-bob_builder}\"}" | python3 -m json.tool
