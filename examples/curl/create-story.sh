#!/usr/bin/env bash
# Mutation.createStory: a multipart request (GraphQL multipart request spec) with a JPEG or PNG
# image or an MP4 or QuickTime video of at most 15 MB, recognised by its bytes (not its name).
# The story lives 24 hours. Without a file this writes a 2x2 orange PNG to a temporary file.
# Usage: examples/curl/create-story.sh [photo.jpg|photo.png|clip.mp4|clip.mov]
# The GraphQL-Preflight header is required: multipart is a "simple" browser request (CSRF).
source "$(dirname "$0")/_common.sh"
signed_in
file="${1:-}"
if [ -z "$file" ]; then
  file="$(mktemp "${TMPDIR:-/tmp}/story.XXXXXX.png")"
  trap 'rm -f "$file"' EXIT
  echo 'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAEElEQVR42mP438AARAwQCgAt7gX9Yz7BCwAAAABJRU5ErkJggg==' | base64 -d > "$file"
fi
curl -sS "$GATEWAY_URL/graphql" \
  -H "Authorization: Bearer $TOKEN" -H "GraphQL-Preflight: 1" -H "Accept: application/graphql-response+json" \
  -F 'operations={"query": "mutation($file: Upload!) { createStory(file: $file) { story { id author { handle } mediaURL mediaType createdAt expiresAt } } }", "variables": {"file": null}}' \
  -F 'map={"0": ["variables.file"]}' \
  -F "0=@$file" | python3 -m json.tool
