#!/usr/bin/env bash
# Mutation.changePassword: seed 002's checks, in this order, each BAD_USER_INPUT with its field:
# "Enter your current password", "Enter a new password", "Password must be at least 8 characters",
# "New password must be different", "Passwords don't match"; then a wrong current password is
# "Current password is incorrect.". On success every session of the account ends (refresh tokens
# stop working) and the answer is a new session.
# Usage: examples/curl/change-password.sh [current] [new] [confirm]
#   Defaults: climb-on-demo, climb-on-demo-2, the new one; change the demo password back with
#   examples/curl/change-password.sh climb-on-demo-2 climb-on-demo
source "$(dirname "$0")/_common.sh"
signed_in
current="${1-climb-on-demo}"; new="${2-climb-on-demo-2}"; confirm="${3-$new}"
gql "mutation(\$c: String!, \$n: String!, \$k: String!) { changePassword(currentPassword: \$c, newPassword: \$n, confirmPassword: \$k) { session { accessToken expiresAt refreshToken } account { email } } }" \
  "$(python3 -c 'import json,sys; print(json.dumps(dict(zip("cnk", sys.argv[1:]))))' "$current" "$new" "$confirm")"
