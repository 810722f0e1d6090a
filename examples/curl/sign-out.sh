#!/usr/bin/env bash
# Mutation.signOut: end the session of the access token sent; its refresh token stops working.
# The access token itself stays valid until it expires (at most an hour), as with Supabase.
# Usage: TOKEN=<accessToken> examples/curl/sign-out.sh
#   Without TOKEN: signs in as EMAIL/PASSWORD (default the demo alice), signs out, then shows that
#   the session's refresh token no longer works.
source "$(dirname "$0")/_common.sh"
if [ -n "${TOKEN:-}" ]; then
  gql "mutation { signOut }"
  exit
fi
answer="$(python3 -c 'import json,sys; print(json.dumps({"query": "mutation($e: String!, $p: String!) { signIn(email: $e, password: $p) { session { accessToken refreshToken } } }", "variables": {"e": sys.argv[1], "p": sys.argv[2]}}))' "${EMAIL:-alice@example.com}" "${PASSWORD:-climb-on-demo}" |
  curl -sS "$GATEWAY_URL/graphql" -H 'Content-Type: application/json' --data-binary @-)"
session="$(python3 -c 'import json,sys; s = (json.loads(sys.argv[1]).get("data") or {}).get("signIn"); print(s["session"]["accessToken"], s["session"]["refreshToken"]) if s else sys.exit(1)' "$answer")" \
  || { echo "$answer" | python3 -m json.tool; exit 1; }
read -r TOKEN refresh <<<"$session"
echo "# signOut"
gql "mutation { signOut }"
echo "# refreshSession with the signed-out session's refresh token"
unset TOKEN
gql "mutation(\$r: String!) { refreshSession(refreshToken: \$r) { session { accessToken } } }" "{\"r\": \"$refresh\"}"
