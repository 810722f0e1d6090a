#!/usr/bin/env bash
# Query.account: the signed-in user's account (email, display name: the stored one or the email's
# local part, creation time, verified) and settings, with the profile. Signed in only; never cached.
# Usage: examples/curl/account.sh   (AS=bob_builder to switch demo user, or TOKEN=<accessToken>)
source "$(dirname "$0")/_common.sh"
signed_in
gql "{ account { id email displayName accountCreatedAt isVerified settings { videoQuality autoplay } profile { handle displayName } } }"
