#!/usr/bin/env bash
# Mutation.requestPasswordReset: answers true whether the email has an account or not.
# Embedded mode sends no mail: the server logs the one-time link at notice level, e.g.
#   ... email=alice@example.com link=http://127.0.0.1:8080/#reset-password?token=... password reset requested ...
# The token is valid an hour, once: pass it to reset-password.sh. On Supabase, Supabase Auth mails
# the link, and its token_hash is what resetPassword takes.
# Sign-ups and reset requests: 5 a minute per client address, then TOO_MANY_REQUESTS.
# Usage: examples/curl/request-password-reset.sh [email]   (default alice@example.com)
#   SERVER_LOG=path/to/the/server's/log also prints the newest token from that log.
source "$(dirname "$0")/_common.sh"
unset TOKEN
gql "mutation(\$email: String!) { requestPasswordReset(email: \$email) }" \
  "$(python3 -c 'import json,sys; print(json.dumps({"email": sys.argv[1]}))' "${1:-alice@example.com}")"
if [ -n "${SERVER_LOG:-}" ]; then
  sleep 0.2
  grep -o 'reset-password?token=[A-Za-z0-9_-]*' "$SERVER_LOG" | tail -1 | sed 's/.*token=/token: /'
fi
