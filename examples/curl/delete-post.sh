#!/usr/bin/env bash
# Mutation.deletePost: delete one of your own posts with its likes and comments. Someone else's
# post is FORBIDDEN, an unknown or hidden one NOT_FOUND.
# Usage: examples/curl/delete-post.sh POST_ID   (create-post.sh prints an id)
source "$(dirname "$0")/_common.sh"
signed_in
gql "mutation(\$id: ID!) { deletePost(id: \$id) { deletedPostId author { handle postCount } } }" "{\"id\": \"${1:?usage: delete-post.sh POST_ID}\"}"
