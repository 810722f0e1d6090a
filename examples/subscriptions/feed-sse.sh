#!/usr/bin/env bash
# Subscription.feedPosts over server-sent events (graphql-sse): each new post of the profiles you follow, and your own, as an `event: next`.
# Usage: examples/subscriptions/feed-sse.sh   (TOKEN=... or AS=bob_builder; GATEWAY_URL as in examples/curl)
# Then, elsewhere: AS=bob_builder examples/curl/create-post.sh
source "$(dirname "$0")/_common.sh"
signed_in
subscribe 'text/event-stream' 'subscription { feedPosts { id author { handle } content createdAt } }'
