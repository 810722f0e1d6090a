#!/usr/bin/env bash
# Notifications a client catches up on (issue 54), as a mobile app does when it comes back:
# 1. the newest page of notifications with unreadCount (to badge the icon),
# 2. everything up to and including the newest marked read (the user opened the list),
# 3. the live stream, resumed after the cursor the app last had (the first argument, else the
#    newest): the stored ones after it first, oldest first, then live ones, none twice. It listens
#    LISTEN_SECONDS (default 10): make events from another shell, e.g.
#    AS=bob_builder examples/curl/like.sh b1057000-0000-4000-8000-000000000004
# Usage: examples/curl/notifications-catch-up.sh [cursor]
source "$(dirname "$0")/_common.sh"
signed_in   # as AS (default alice_wonder)
gql 'query { notifications(first: 20) { totalCount unreadCount pageInfo { hasNextPage endCursor } edges { cursor node { __typename id isRead createdAt actor { handle } ... on LikeNotification { post { id content } } ... on CommentNotification { comment { content } } } } } }'
newest="$(gql 'query { notifications(first: 1) { edges { cursor } } }' | python3 -c \
  'import json,sys; e=json.load(sys.stdin)["data"]["notifications"]["edges"]; print(e[0]["cursor"] if e else "")')"
if [ -n "$newest" ]; then
  gql 'mutation($through: String!) { markNotificationsRead(through: $through) { markedCount unreadCount } }' "{\"through\": \"$newest\"}"
fi
after="${1:-$newest}"
body="$(python3 -c 'import json,sys; print(json.dumps({"query": "subscription($after: String) { notifications(after: $after) { __typename id cursor createdAt actor { handle } } }", "variables": {"after": sys.argv[1] or None}}))' "$after")"
curl -sS -N --max-time "${LISTEN_SECONDS:-10}" "$GATEWAY_URL/graphql" -H "Authorization: Bearer $TOKEN" \
  -H 'Content-Type: application/json' -H 'Accept: text/event-stream' --data-binary "$body" || true
