#!/usr/bin/env bash
# Mutation.signIn: email and password for a session (default the demo account alice@example.com,
# password climb-on-demo: demo data only). Prints the session and the account.
# A wrong password and an unknown email get the same answer ("Invalid email or password",
# UNAUTHENTICATED); past 5 failures a minute for an email, or 20 tries a minute from one client
# address, TOO_MANY_REQUESTS with extensions.retryAfter (seconds). Under Accept:
# application/graphql-response+json, which gql sends, that answer is HTTP 429 with Retry-After
# (docs/SERVER.md, "Accounts and sessions", has a curl loop that shows it).
# Usage: examples/curl/sign-in.sh [email] [password]
# Keep the tokens for the other scripts:
#   TOKEN=$(examples/curl/sign-in.sh | python3 -c 'import json,sys; print(json.load(sys.stdin)["data"]["signIn"]["session"]["accessToken"])')
source "$(dirname "$0")/_common.sh"
unset TOKEN   # signing in needs no token
gql "mutation(\$email: String!, \$password: String!) { signIn(email: \$email, password: \$password) { session { accessToken tokenType expiresAt refreshToken } account { id email displayName isVerified profile { handle } } } }" \
  "$(python3 -c 'import json,sys; print(json.dumps({"email": sys.argv[1], "password": sys.argv[2]}))' "${1:-alice@example.com}" "${2:-climb-on-demo}")"
