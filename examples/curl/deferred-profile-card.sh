#!/usr/bin/env bash
# Query.profile with its followers deferred (@defer): the card's header in the first part of a
# multipart/mixed answer, the follower list in the next, each printed as it arrives (curl -N).
# Usage: examples/curl/deferred-profile-card.sh [handle] [v0.1|v0.2]
#   v0.1 (default): Accept: multipart/mixed;deferSpec=20220824 (Apollo Router, Apollo iOS, Kotlin 4)
#   v0.2:           Accept: multipart/mixed;incrementalSpec=v0.2 (graphql-js 17, Apollo Client 4.1, Kotlin 5)
source "$(dirname "$0")/_common.sh"
signed_in   # follower lists need a signed-in viewer
case "${2:-v0.1}" in
  v0.2) accept='multipart/mixed;incrementalSpec=v0.2, application/json' ;;
  *) accept='multipart/mixed;deferSpec=20220824, application/json' ;;
esac
body="$(python3 -c 'import json,sys; print(json.dumps({"query": open(sys.argv[1]).read(), "variables": {"handle": sys.argv[2], "first": 5}}))' \
  "$(dirname "$0")/../deferred-profile-card.graphql" "${1:-alice_wonder}")"
curl -sS -N "$GATEWAY_URL/graphql" -H 'Content-Type: application/json' -H "Accept: $accept" \
  ${TOKEN:+-H "Authorization: Bearer $TOKEN"} --data-binary "$body"
echo
