#!/usr/bin/env bash
# Profile's owner-only fields (seed 000): your home ZIP, grade scales and premium status. Only
# the owner sees them; ask for alice_wonder's as bob (AS=bob_builder) and they are null. The
# first argument, when given, becomes your new home ZIP (null clears it).
source "$(dirname "$0")/_common.sh"
signed_in
if [ -n "${1:-}" ]; then
  gql "mutation(\$zip: String) { updateProfile(input: { homeZIP: \$zip }) { profile { handle homeZIP } } }" "{\"zip\": \"$1\"}"
fi
gql "{ profile(handle: \"alice_wonder\") { handle homeZIP preferredGradeScaleBoulder preferredGradeScaleRoute premium { expiresAt productId originalTransactionId } } }"
