#!/usr/bin/env bash
# Mutation.uploadAvatar: a multipart request (GraphQL multipart request spec) with a JPEG or PNG of at most 5 MB.
# Usage: examples/curl/upload-avatar.sh path/to/photo.jpg
# The GraphQL-Preflight header is required: multipart is a "simple" browser request (CSRF).
source "$(dirname "$0")/_common.sh"
signed_in
file="${1:?usage: upload-avatar.sh photo.jpg|photo.png}"
curl -sS "$GATEWAY_URL/graphql" \
  -H "Authorization: Bearer $TOKEN" -H "GraphQL-Preflight: 1" -H "Accept: application/graphql-response+json" \
  -F 'operations={"query": "mutation($file: Upload!) { uploadAvatar(file: $file) { avatarURL profile { handle avatarURL } } }", "variables": {"file": null}}' \
  -F 'map={"0": ["variables.file"]}' \
  -F "0=@$file" | python3 -m json.tool
