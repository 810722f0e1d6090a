#!/usr/bin/env bash
# Post.likers: who liked a post, newest like first. A liker you may not see whole (a private
# profile you do not follow, or across a block) is counted in totalCount (= likeCount) but not
# listed. Anonymous callers see the public likers of public posts. Default: alice_wonder's first
# demo post; pass endCursor as the second argument for the next page.
# Usage: examples/curl/post-likers.sh [post-id] [after]
source "$(dirname "$0")/_common.sh"
signed_in   # as AS (default alice_wonder); the likers shown depend on whom the viewer sees
after="${2:+\"$2\"}"
gql "query(\$id: ID!, \$after: String) { post(id: \$id) { id likeCount likers(first: 10, after: \$after) { totalCount pageInfo { hasNextPage endCursor } edges { likedAt node { id handle displayName avatarURL } } } } }" "{\"id\": \"${1:-b1057000-0000-4000-8000-000000000001}\", \"after\": ${after:-null}}"
