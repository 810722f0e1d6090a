#!/usr/bin/env bash
# Mutation.deleteComment: delete a comment you wrote, or any comment on your own post (others are
# FORBIDDEN). As alice_wonder, c0330000-0000-4000-8000-000000000001 (bob's comment on her post) may go.
# Usage: examples/curl/delete-comment.sh COMMENT_ID   (add-comment.sh and post.sh print ids)
source "$(dirname "$0")/_common.sh"
signed_in
gql "mutation(\$id: ID!) { deleteComment(id: \$id) { deletedCommentId post { id commentCount } } }" "{\"id\": \"${1:?usage: delete-comment.sh COMMENT_ID}\"}"
