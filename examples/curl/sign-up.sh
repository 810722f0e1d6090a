#!/usr/bin/env bash
# Mutation.signUp: create an account and its profile, and sign in (the answer holds the session).
# The email is trimmed and lower-cased; the password is 8 to 128 characters; the handle follows
# updateProfile's rule (a letter, then 2 to 29 letters, digits or underscores). A used email is
# EMAIL_TAKEN, a used handle HANDLE_TAKEN, a bad value BAD_USER_INPUT with extensions.field.
# The optional home ZIP (seed 000's createProfile(handle, homeZIP)) is owner-only; a malformed one
# is BAD_USER_INPUT "Invalid home ZIP: ..." (field homeZIP), and then no account is created.
# Sign-ups and password-reset requests: 5 a minute per client address, then TOO_MANY_REQUESTS.
# Usage: examples/curl/sign-up.sh [email] [password] [handle] [home-zip]
#   (defaults new.climber@example.com, first-ascent-42, new_climber, no ZIP; a second run is EMAIL_TAKEN)
source "$(dirname "$0")/_common.sh"
unset TOKEN
gql "mutation(\$email: String!, \$password: String!, \$handle: String!, \$homeZIP: String) { signUp(email: \$email, password: \$password, handle: \$handle, homeZIP: \$homeZIP) { session { accessToken expiresAt refreshToken } account { id email displayName accountCreatedAt isVerified settings { videoQuality autoplay } profile { handle isPublic } } } }" \
  "$(python3 -c 'import json,sys; print(json.dumps({k: v for k, v in zip(["email", "password", "handle", "homeZIP"], sys.argv[1:]) if v}))' "${1:-new.climber@example.com}" "${2:-first-ascent-42}" "${3:-new_climber}" "${4:-}")"
