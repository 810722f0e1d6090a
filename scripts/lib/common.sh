# shellcheck shell=bash
# What the bash scripts of scripts/ share: source it, do not run it.
#
#   source "$(dirname "$0")/lib/common.sh"
#   build_release >&2            # swift build -c release --product social-gateway
#                                # (under flock "$SWIFT_BUILD_LOCK" when that is set)
#   binary="$(release_binary)"   # .build/release/social-gateway, as swift build says
#   port="$(free_port)"          # a free TCP port on 127.0.0.1
#   start_gateway "$work/server.log" "$binary" serve --host 127.0.0.1 --port "$port" ...
#                                # in the background; sets server_pid
#   wait_healthz "http://127.0.0.1:$port"      # until GET /healthz answers, or the server exits
#   stop_gateway                 # TERM to $server_pid (only that pid), then wait for it
#   bench_rate_limits            # exports a benchmark's per-viewer rate limits (see below)
#
# It also exports PYTHONPATH with scripts/lib, so a Python heredoc can
# `from gateway_scripts.tokens import mint_token` (scripts/lib/gateway_scripts).

SCRIPTS_LIB="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
export PYTHONPATH="$SCRIPTS_LIB${PYTHONPATH:+:$PYTHONPATH}"
server_pid="${server_pid:-}"

free_port() { python3 "$SCRIPTS_LIB/gateway_scripts/ports.py"; }

# bench_rate_limits: exports the per-viewer rate limits a benchmark runs its server under, far
# above what a replica serves (10,000,000 units of burst and 5,000,000 a second for reads,
# 200,000 and 100,000 for writes: the defaults before issue 51), because a benchmark drives a
# whole replica from one token or address and measures the replica, not its limit. The defaults
# protect the other viewers instead (docs/performance/2026-12-02-rate-limit-defaults.md). A value
# already in the environment wins. The Python scripts use gateway_scripts.process.BENCH_RATE_LIMITS.
bench_rate_limits() {
  export RATE_LIMIT_QUERY_CAPACITY="${RATE_LIMIT_QUERY_CAPACITY:-10000000}"
  export RATE_LIMIT_QUERY_PER_SECOND="${RATE_LIMIT_QUERY_PER_SECOND:-5000000}"
  export RATE_LIMIT_MUTATION_CAPACITY="${RATE_LIMIT_MUTATION_CAPACITY:-200000}"
  export RATE_LIMIT_MUTATION_PER_SECOND="${RATE_LIMIT_MUTATION_PER_SECOND:-100000}"
}

# build_release: the release gateway, serialized with other builds when SWIFT_BUILD_LOCK names a
# lock file (a shared machine).
build_release() {
  local build=(swift build -c release --product social-gateway)
  if [ -n "${SWIFT_BUILD_LOCK:-}" ]; then build=(flock "$SWIFT_BUILD_LOCK" "${build[@]}"); fi
  "${build[@]}"
}

release_binary() { echo "$(swift build -c release --show-bin-path)/social-gateway"; }

# start_gateway LOG COMMAND [ARGS...]: COMMAND ARGS in the background, output to LOG; sets
# server_pid. Environment for it goes before the call: `LOG_LEVEL=warning start_gateway ...`.
start_gateway() {
  local log="$1"; shift
  "$@" > "$log" 2>&1 &
  server_pid=$!
}

# wait_healthz BASE_URL [LOG] [TRIES (600, 0.1 s apart)]: until GET BASE_URL/healthz answers 2xx;
# exits 1 (the log printed) when the server ends first.
wait_healthz() {
  local base="$1" log="${2:-}" tries="${3:-600}"
  for _ in $(seq 1 "$tries"); do
    curl -fsS "$base/healthz" >/dev/null 2>&1 && return 0
    if ! kill -0 "$server_pid" 2>/dev/null; then
      [ -z "$log" ] || cat "$log" >&2
      exit 1
    fi
    sleep 0.1
  done
}

# stop_gateway: TERM to server_pid (this script's server, by its pid) and wait for it.
stop_gateway() {
  if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
  server_pid=""
}
