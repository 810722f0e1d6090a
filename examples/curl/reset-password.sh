#!/usr/bin/env bash
# Mutation.resetPassword: complete a password reset with the token of its link (from the server's
# log in embedded mode, see request-password-reset.sh). The new password is 8 to 128 characters.
# Every session of the account ends and the answer is a new one. A used, expired or unknown token
# is "Your session expired. Please log in again." (UNAUTHENTICATED).
# Usage: examples/curl/reset-password.sh TOKEN [new-password]
#   (default climb-on-demo, which keeps the demo password as documented)
source "$(dirname "$0")/_common.sh"
unset TOKEN
gql "mutation(\$t: String!, \$p: String!) { resetPassword(token: \$t, newPassword: \$p) { session { accessToken expiresAt refreshToken } account { email isVerified } } }" \
  "$(python3 -c 'import json,sys; print(json.dumps({"t": sys.argv[1], "p": sys.argv[2]}))' "${1:?usage: reset-password.sh TOKEN [new-password]}" "${2:-climb-on-demo}")"
