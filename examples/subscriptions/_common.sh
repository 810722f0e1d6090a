# Shared by the subscription examples: examples/curl/_common.sh (GATEWAY_URL, TOKEN or AS,
# signed_in), and subscribe, which streams a subscription's events with curl.
source "$(dirname "${BASH_SOURCE[0]}")/../curl/_common.sh"

# subscribe ACCEPT QUERY [VARIABLES_JSON]: POSTs the subscription with the Accept header that picks
# the transport and prints the stream as it arrives (-N: no buffering) until Ctrl+C.
subscribe() {
  local body
  body="$(python3 -c 'import json,sys; print(json.dumps({"query": sys.argv[1], "variables": json.loads(sys.argv[2])}))' "$2" "${3:-{\}}")"
  curl -N -sS "$GATEWAY_URL/graphql" \
    -H 'Content-Type: application/json' \
    -H "Accept: $1" \
    -H "Authorization: Bearer $TOKEN" \
    --data-binary "$body"
}
