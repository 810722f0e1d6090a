#!/usr/bin/env bash
# Mutation.updatePost: change one of your own posts (absent fields are kept; imageURLs replaces
# the list, [] removes them). Someone else's post is FORBIDDEN, an unknown or hidden one NOT_FOUND:
# try AS=bob_builder examples/curl/update-post.sh b1057000-0000-4000-8000-000000000001
# Usage: examples/curl/update-post.sh POST_ID [content]   (create-post.sh prints an id)
source "$(dirname "$0")/_common.sh"
signed_in
id="${1:?usage: update-post.sh POST_ID [content]}"
content="$(python3 -c 'import json,sys; print(json.dumps(sys.argv[1]))' "${2:-Edited: project sent after 12 sessions, finally!}")"
gql "mutation(\$input: UpdatePostInput!) { updatePost(input: \$input) { post { id content imageURLs createdAt updatedAt } } }" "{\"input\": {\"id\": \"$id\", \"content\": $content}}"
