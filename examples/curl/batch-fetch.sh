#!/usr/bin/env bash
# Batch: several profile graphs in one round trip (a JSON array of operations; at most 20 by default).
# The answer is an array in the same order.
# Usage: examples/curl/batch-fetch.sh [handle...]   (default: the three demo users)
source "$(dirname "$0")/_common.sh"
signed_in   # search and follower lists need a signed-in viewer
[ $# -gt 0 ] || set -- alice_wonder bob_builder carol_creator
query='query($h: String!) { profile(handle: $h) { handle followerCount followers(first: 3) { nodes { handle } } following(first: 3) { nodes { handle } } } }'
body="$(python3 -c 'import json,sys; print(json.dumps([{"query": sys.argv[1], "variables": {"h": h}} for h in sys.argv[2:]]))' "$query" "$@")"
curl -sS "$GATEWAY_URL/graphql" -H "Content-Type: application/json" -H "Accept: application/graphql-response+json" \
  -H "Authorization: Bearer $TOKEN" --data-binary "$body" | python3 -m json.tool
