#!/usr/bin/env bash
# Query.stories: your story tray, the active (under 24 hours old) stories of the profiles you
# follow and your own, grouped by author: your own group first, then the freshest. Signed in only;
# never cached. Each demo user has a story from the server's start.
source "$(dirname "$0")/_common.sh"
signed_in
gql "{ stories { author { handle } stories { id mediaURL mediaType createdAt expiresAt } } }"
