#!/usr/bin/env bash
# Mutation.updateProfile { isPublic }: make your profile private (default) or public again
# (`set-private.sh false`). Private: your approved followers see it, other signed-in viewers its
# card, and a follow becomes a request you answer. Turning public approves every pending request.
source "$(dirname "$0")/_common.sh"
signed_in
private="${1:-true}"
public=$([ "$private" = "false" ] && echo true || echo false)
gql "mutation { updateProfile(input: { isPublic: $public }) { profile { handle isPublic followerCount } } }"
