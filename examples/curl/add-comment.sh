#!/usr/bin/env bash
# Mutation.addComment: comment on a post you can see; the text is trimmed, then 1 to 500
# characters. Default: alice_wonder's first demo post.
# Usage: examples/curl/add-comment.sh [post-id] [text]
source "$(dirname "$0")/_common.sh"
signed_in
content="$(python3 -c 'import json,sys; print(json.dumps(sys.argv[1]))' "${2:-What a view, see you at the crag!}")"
gql "mutation(\$id: ID!, \$content: String!) { addComment(postId: \$id, content: \$content) { comment { id author { handle } content createdAt } post { id commentCount } } }" "{\"id\": \"${1:-b1057000-0000-4000-8000-000000000001}\", \"content\": $content}"
