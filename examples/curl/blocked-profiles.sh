#!/usr/bin/env bash
# Query.blockedProfiles: the profiles you block, newest first, as cards.
source "$(dirname "$0")/_common.sh"
signed_in
gql 'query { blockedProfiles(first: 20) { totalCount edges { blockedAt node { id handle displayName } } } }'
