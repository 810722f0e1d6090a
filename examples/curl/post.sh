#!/usr/bin/env bash
# Query.post: one post by id with its comments, oldest first (null when it does not exist or its
# author's profile is private to someone else). Default: alice_wonder's first demo post.
# Usage: examples/curl/post.sh [post-id]
source "$(dirname "$0")/_common.sh"
signed_in   # viewerHasLiked is false for anonymous viewers
gql "query(\$id: ID!) { post(id: \$id) { id author { handle } content imageURLs likeCount commentCount viewerHasLiked createdAt updatedAt comments(first: 10) { totalCount nodes { id author { handle } content createdAt } pageInfo { hasNextPage endCursor } } } }" "{\"id\": \"${1:-b1057000-0000-4000-8000-000000000001}\"}"
