#!/usr/bin/env bash
# Mutation.like: like the post. Safe to repeat: liking a post you already like succeeds and
# changes nothing (one like, the same likeCount, no second notification to the author).
# Default: carol_creator's "Sketching route ideas" demo post.
# Usage: examples/curl/like.sh [post-id]
source "$(dirname "$0")/_common.sh"
signed_in
gql "mutation(\$id: ID!) { like(postId: \$id) { liked likeCount post { id likeCount viewerHasLiked } } }" "{\"id\": \"${1:-b1057000-0000-4000-8000-000000000003}\"}"
