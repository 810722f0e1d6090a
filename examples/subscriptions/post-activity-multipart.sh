#!/usr/bin/env bash
# Subscription.postActivity over Apollo's multipart protocol (what Apollo iOS, Kotlin and Client use): a post's new counts, and newComment when one was written.
# Usage: examples/subscriptions/post-activity-multipart.sh [post-id]   (default: alice_wonder's first demo post; TOKEN=... or AS=...)
# Then, elsewhere: AS=bob_builder examples/curl/toggle-like.sh b1057000-0000-4000-8000-000000000001
source "$(dirname "$0")/_common.sh"
signed_in
subscribe 'multipart/mixed;subscriptionSpec="1.0", application/json' \
  'subscription($id: ID!) { postActivity(postId: $id) { post { id likeCount commentCount } newComment { author { handle } content } } }' \
  "{\"id\": \"${1:-b1057000-0000-4000-8000-000000000001}\"}"
