#!/usr/bin/env bash
# Mutation.createPost: write a post as the viewer. Content is trimmed, then 1 to 2000 characters;
# at most 4 image URLs, http or https only (BAD_USER_INPUT with the field otherwise).
# Usage: examples/curl/create-post.sh [content] [image-url...]
source "$(dirname "$0")/_common.sh"
signed_in
input="$(python3 -c 'import json,sys; print(json.dumps({"content": sys.argv[1], "imageURLs": sys.argv[2:]}))' "${1:-Project sent after 12 sessions!}" "${@:2}")"
gql "mutation(\$input: CreatePostInput!) { createPost(input: \$input) { post { id author { handle postCount } content imageURLs likeCount commentCount createdAt } } }" "{\"input\": $input}"
