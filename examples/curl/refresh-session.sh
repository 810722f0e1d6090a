#!/usr/bin/env bash
# Mutation.refreshSession: trade a refresh token for the next session (a new access token and a
# new refresh token). Each refresh token works once: using an old one again ends its session
# ("Your session expired. Please log in again.", UNAUTHENTICATED), and the newest one with it.
# Usage: examples/curl/refresh-session.sh REFRESH_TOKEN   (sign-in.sh prints one)
source "$(dirname "$0")/_common.sh"
unset TOKEN
gql "mutation(\$r: String!) { refreshSession(refreshToken: \$r) { session { accessToken expiresAt refreshToken } account { email } } }" \
  "{\"r\": \"${1:?usage: refresh-session.sh REFRESH_TOKEN}\"}"
