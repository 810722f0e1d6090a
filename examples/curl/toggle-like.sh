#!/usr/bin/env bash
# Mutation.toggleLike: like the post if you do not yet, else take the like back; liked and
# likeCount are the state right after the change (exact under concurrent likes).
# Default: carol_creator's "Sketching route ideas" demo post.
# Usage: examples/curl/toggle-like.sh [post-id]
source "$(dirname "$0")/_common.sh"
signed_in
gql "mutation(\$id: ID!) { toggleLike(postId: \$id) { liked likeCount post { id likeCount viewerHasLiked } } }" "{\"id\": \"${1:-b1057000-0000-4000-8000-000000000003}\"}"
