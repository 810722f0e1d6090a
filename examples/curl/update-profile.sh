#!/usr/bin/env bash
# Mutation.updateProfile: change your own bio and home gym (absent fields are kept, null clears).
source "$(dirname "$0")/_common.sh"
signed_in
gql "mutation(\$input: UpdateProfileInput!) { updateProfile(input: \$input) { profile { handle bio homeGym updatedAt } } }" "{\"input\": {\"bio\": \"${1:-Crimps and coffee}\", \"homeGym\": \"Boulderwelt\"}}"
