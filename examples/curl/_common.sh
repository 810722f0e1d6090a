# Shared by the curl examples: where the gateway is, and who you are.
#   GATEWAY_URL  default http://127.0.0.1:8080 (start it with scripts/serve)
#   TOKEN        a bearer token; if unset, signed-in examples fetch a dev token for AS
#                (default alice_wonder) from the embedded mode's /playground/demo-tokens.
#                Elsewhere: TOKEN=$(social-gateway token bob_builder), or a Supabase access token.
GATEWAY_URL="${GATEWAY_URL:-http://127.0.0.1:8080}"

# gql QUERY [VARIABLES_JSON]: POSTs a GraphQL request and pretty-prints the answer.
gql() {
  local body
  body="$(python3 -c 'import json,sys; print(json.dumps({"query": sys.argv[1], "variables": json.loads(sys.argv[2])}))' "$1" "${2:-{\}}")"
  curl -sS "$GATEWAY_URL/graphql" \
    -H 'Content-Type: application/json' \
    -H 'Accept: application/graphql-response+json, application/json;q=0.9' \
    ${TOKEN:+-H "Authorization: Bearer $TOKEN"} \
    --data-binary "$body" | python3 -m json.tool
}

# signed_in: sets TOKEN for AS (default alice_wonder) unless it is set already.
signed_in() {
  if [ -z "${TOKEN:-}" ]; then
    TOKEN="$(curl -fsS "$GATEWAY_URL/playground/demo-tokens" | python3 -c \
      'import json,sys; print(next(u["token"] for u in json.load(sys.stdin)["users"] if u["handle"] == sys.argv[1]))' "${AS:-alice_wonder}")"
  fi
}

# The demo users' fixed ids.
ALICE=a11ce000-0000-4000-8000-000000000001
BOB=b0b00000-0000-4000-8000-000000000002
CAROL=ca201000-0000-4000-8000-000000000003
