#!/usr/bin/env bash
# Mutation.unlike: take your like back. Safe to repeat: unliking a post you do not like succeeds
# and changes nothing (liked false, the same likeCount).
# Default: carol_creator's "Sketching route ideas" demo post.
# Usage: examples/curl/unlike.sh [post-id]
source "$(dirname "$0")/_common.sh"
signed_in
gql "mutation(\$id: ID!) { unlike(postId: \$id) { liked likeCount post { id likeCount viewerHasLiked } } }" "{\"id\": \"${1:-b1057000-0000-4000-8000-000000000003}\"}"
