#!/usr/bin/env bash
# Mutation.createPost with images uploaded in the same request (GraphQL multipart request spec):
# each a JPEG or PNG of at most 5 MB and 4096 pixels a side, recognised by its bytes; at most 4
# images with the links of imageURLs. They are stored in the post-images bucket and listed in
# imageURLs after the links; deletePost deletes them. Without files this writes a 2x2 orange PNG.
# Usage: examples/curl/create-post-with-images.sh [photo.jpg|photo.png ...]
# The GraphQL-Preflight header is required: multipart is a "simple" browser request (CSRF).
source "$(dirname "$0")/_common.sh"
signed_in
files=("$@")
if [ "${#files[@]}" -eq 0 ]; then
  file="$(mktemp "${TMPDIR:-/tmp}/post-image.XXXXXX.png")"
  trap 'rm -f "$file"' EXIT
  echo 'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAEElEQVR42mP438AARAwQCgAt7gX9Yz7BCwAAAABJRU5ErkJggg==' | base64 -d > "$file"
  files=("$file")
fi
nulls="" map="" parts=()
for i in "${!files[@]}"; do
  nulls+="${nulls:+, }null"
  map+="${map:+, }\"$i\": [\"variables.input.images.$i\"]"
  parts+=(-F "$i=@${files[$i]}")
done
curl -sS "$GATEWAY_URL/graphql" \
  -H "Authorization: Bearer $TOKEN" -H "GraphQL-Preflight: 1" -H "Accept: application/graphql-response+json" \
  -F "operations={\"query\": \"mutation(\$input: CreatePostInput!) { createPost(input: \$input) { post { id content imageURLs author { handle } } } }\", \"variables\": {\"input\": {\"content\": \"A photo from today\", \"images\": [$nulls]}}}" \
  -F "map={$map}" \
  "${parts[@]}" | python3 -m json.tool
