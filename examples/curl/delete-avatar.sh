#!/usr/bin/env bash
# Mutation.deleteAvatar: remove the viewer's avatar and its file (nothing changes without one).
source "$(dirname "$0")/_common.sh"
signed_in
gql "mutation { deleteAvatar { profile { handle avatarURL } } }"
