#!/usr/bin/env bash
# Mutation.updateSettings: the viewer's video quality (AUTO, HIGH, MEDIUM, LOW; AUTO by default)
# and autoplay (true by default). An absent field is kept. Answers the account.
# Usage: examples/curl/update-settings.sh [videoQuality] [autoplay]   (defaults HIGH false)
source "$(dirname "$0")/_common.sh"
signed_in
gql "mutation(\$input: UpdateSettingsInput!) { updateSettings(input: \$input) { email settings { videoQuality autoplay } } }" \
  "{\"input\": {\"videoQuality\": \"${1:-HIGH}\", \"autoplay\": ${2:-false}}}"
