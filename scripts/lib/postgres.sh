# shellcheck shell=bash
# A throwaway PostgreSQL (Debian's) for tests and local clusters: source it, do not run it.
#
#   source scripts/lib/postgres.sh
#   pg_require                  # finds Debian's server (scripts/setup installs it); sets PG_BIN
#   pg_start [DIR]              # initdb + start in DIR (default: a new /tmp/pg.XXXXXX); sets PG_DIR
#   trap pg_stop EXIT           # immediate stop, then DIR is removed (idempotent)
#   pg_server_stop [DIR]        # a fault: `pg_ctl stop -m fast`, DIR (data, port) kept
#   pg_server_start [DIR]       # ... and back, same data dir, same port (clients' URLs stay valid)
#   pg_apply_schema postgres    # supabase/tests/auth_stub.sql + supabase/migrations/*.sql, in order
#   psql "$(pg_url postgres)" -c 'select 1'      # or: pg_psql postgres -c 'select 1'
#
# The cluster listens on a unix socket in DIR and on 127.0.0.1:$PGPORT (a free port), trust
# authentication for both (initdb --auth=trust: anyone on this machine may connect as any role,
# which is why it listens on loopback only), fsync off, max_connections $PG_MAX_CONNECTIONS
# (default 100). When we are root the cluster belongs to `postgres` (PostgreSQL refuses to run as
# root). pg_start exports PGHOST (the socket directory) and PGPORT, so psql/pg_isready find it.
#
# Functions return non-zero after printing "<PG_LOG_PREFIX>: FAIL ..." on stderr, so callers write
# `pg_start "$DIR" || exit 1` (bash's set -e does not apply inside a function called with ||).
# PG_LOG_PREFIX defaults to the calling script's name.
#
# pg_start also writes DIR/pg.env (PG_BIN, PG_DIR, PGPORT), so another shell can stop the
# cluster with `source scripts/lib/postgres.sh; pg_stop DIR` (what scripts/cluster-test does), or
# restart its server with pg_server_stop DIR / pg_server_start DIR.

PG_REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
PG_LOG_PREFIX="${PG_LOG_PREFIX:-$(basename "$0")}"
PG_MAX_CONNECTIONS="${PG_MAX_CONNECTIONS:-100}"
PG_DIR="${PG_DIR:-}"
PG_BIN="${PG_BIN:-}"

pg_bin() { ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1; }

# pg_require: finds Debian's PostgreSQL server (scripts/setup installs it; nothing is installed
# here); sets PG_BIN.
pg_require() {
  PG_BIN="$(pg_bin)"
  [ -n "$PG_BIN" ] && [ -x "$PG_BIN/initdb" ] \
    || { echo "$PG_LOG_PREFIX: FAIL no PostgreSQL server found (run scripts/setup)" >&2; return 1; }
  # The migrations create pg_trgm (the search's trigram indexes): Debian's postgresql-<major>
  # ships it; a server built without contrib does not.
  local major; major="$(basename "$(dirname "$PG_BIN")")"
  [ -f "/usr/share/postgresql/$major/extension/pg_trgm.control" ] \
    || { echo "$PG_LOG_PREFIX: FAIL PostgreSQL $major has no pg_trgm extension (install postgresql-contrib)" >&2; return 1; }
}

# PostgreSQL refuses to run as root: the cluster belongs to `postgres` when we are root.
pg_owner() { if [ "$(id -u)" -eq 0 ]; then echo postgres; else id -un; fi; }
pg_as_owner() {
  if [ "$(id -u)" -eq 0 ]; then su -s /bin/sh postgres -c "$*"; else sh -c "$*"; fi
}

pg_free_port() { python3 "$PG_REPO_ROOT/scripts/lib/gateway_scripts/ports.py"; }

# pg_start [DIR]: a new cluster in DIR/data (DIR is created if missing, and removed by pg_stop),
# its log in DIR/server.log; exports PGHOST=DIR and PGPORT.
pg_start() {
  [ -n "$PG_BIN" ] || pg_require || return 1
  PG_DIR="${1:-}"
  if [ -z "$PG_DIR" ]; then PG_DIR="$(mktemp -d /tmp/pg.XXXXXX)" || return 1; fi
  mkdir -p "$PG_DIR" || return 1
  PG_DIR="$(cd "$PG_DIR" && pwd)"
  local owner; owner="$(pg_owner)"
  chmod 755 "$PG_DIR"
  install -d -o "$owner" -m 700 "$PG_DIR/data" || return 1
  install -o "$owner" -m 600 /dev/null "$PG_DIR/server.log" || return 1
  pg_as_owner "'$PG_BIN/initdb' -D '$PG_DIR/data' -U postgres --auth=trust -E UTF8 --locale=C.UTF-8" \
    >"$PG_DIR/initdb.log" 2>&1 \
    || { cat "$PG_DIR/initdb.log" >&2; echo "$PG_LOG_PREFIX: FAIL initdb" >&2; return 1; }
  chown "$owner" "$PG_DIR"
  # A free port can be taken between the probe and the bind: a few tries.
  local attempt port
  for attempt in 1 2 3; do
    port="$(pg_free_port)" || return 1
    printf 'PG_BIN=%q\nPG_DIR=%q\nPGPORT=%q\n' "$PG_BIN" "$PG_DIR" "$port" > "$PG_DIR/pg.env"
    pg_ctl_start "$PG_BIN" "$PG_DIR" "$port"
    case $? in
      0) export PGHOST="$PG_DIR" PGPORT="$port"; return 0 ;;
      2) echo "$PG_LOG_PREFIX: port $port was taken (try $attempt), another one" >&2 ;;
      *) break ;;
    esac
  done
  cat "$PG_DIR/server.log" >&2; echo "$PG_LOG_PREFIX: FAIL the server did not start" >&2; return 1
}

# pg_ctl_start BIN DIR PORT: starts the server of DIR/data on PORT (and the socket in DIR), waiting
# until it accepts connections; its log is appended to DIR/server.log. Returns 2 when the port
# was taken (the bind failed), 1 on any other failure.
pg_ctl_start() {
  local bin="$1" dir="$2" port="$3" logged
  logged="$(stat -c %s "$dir/server.log" 2>/dev/null || echo 0)"
  if pg_as_owner "'$bin/pg_ctl' -D '$dir/data' -l '$dir/server.log' -w -t 30 -o \"-k '$dir' -c listen_addresses=127.0.0.1 -p $port -c fsync=off -c max_connections=$PG_MAX_CONNECTIONS\" start" >/dev/null; then
    return 0
  fi
  # Only what this attempt logged: a restarted server's log holds earlier runs too.
  tail -c +"$((logged + 1))" "$dir/server.log" 2>/dev/null | grep -q 'could not bind\|already in use' && return 2
  return 1
}

# pg_server_stop [DIR]: stops the server as a fault would (-m fast: sessions are ended, clients see
# their connections close and new ones refused; committed data is kept), keeping DIR so that
# pg_server_start DIR brings the same cluster back. Works in another shell (reads DIR/pg.env).
pg_server_stop() {
  local dir="${1:-$PG_DIR}" bin
  [ -f "$dir/pg.env" ] || { echo "$PG_LOG_PREFIX: FAIL no cluster in '$dir' (no pg.env)" >&2; return 1; }
  bin="$(. "$dir/pg.env"; echo "$PG_BIN")"
  pg_as_owner "'$bin/pg_ctl' -D '$dir/data' -m fast -w -t 30 stop" >/dev/null \
    || { echo "$PG_LOG_PREFIX: FAIL pg_ctl stop -m fast" >&2; return 1; }
}

# pg_server_start [DIR]: starts the stopped server of DIR again, on the port it had (DIR/pg.env),
# so clients' URLs stay valid. While the server was down the port was free: should something else
# hold it now, a few tries a second apart, then FAIL (never another port).
pg_server_start() {
  local dir="${1:-$PG_DIR}" bin port attempt rc
  [ -f "$dir/pg.env" ] || { echo "$PG_LOG_PREFIX: FAIL no cluster in '$dir' (no pg.env)" >&2; return 1; }
  bin="$(. "$dir/pg.env"; echo "$PG_BIN")"
  port="$(. "$dir/pg.env"; echo "$PGPORT")"
  for attempt in 1 2 3 4 5; do
    pg_ctl_start "$bin" "$dir" "$port"
    rc=$?
    [ "$rc" -eq 0 ] && return 0
    [ "$rc" -eq 2 ] || break
    echo "$PG_LOG_PREFIX: port $port is held by something else (try $attempt), again in 1 s" >&2
    sleep 1
  done
  tail -n 30 "$dir/server.log" >&2; echo "$PG_LOG_PREFIX: FAIL the server did not start again on port $port" >&2
  return 1
}

# pg_stop [DIR]: stops the cluster at once (-m immediate: nothing to keep) and removes its folder.
# With DIR, works in a shell other than the one that started it (reads DIR/pg.env).
pg_stop() {
  local dir="${1:-$PG_DIR}" bin="$PG_BIN"
  [ -n "$dir" ] && [ -d "$dir" ] || return 0
  if [ -f "$dir/pg.env" ]; then bin="$(. "$dir/pg.env"; echo "$PG_BIN")"; fi
  if [ -n "$bin" ] && [ -d "$dir/data" ]; then
    pg_as_owner "'$bin/pg_ctl' -D '$dir/data' -m immediate stop" >/dev/null 2>&1 || true
  fi
  rm -rf "$dir"
  [ "$dir" != "$PG_DIR" ] || PG_DIR=""
}

# pg_url [ROLE] [DB]: a TCP URL for clients that take one (the gateway's DATABASE_URL, postgres-nio,
# psycopg, psql); default the `authenticator` login role of supabase/tests/auth_stub.sql on `postgres`.
pg_url() { echo "postgres://${1:-authenticator}@127.0.0.1:$PGPORT/${2:-postgres}"; }

# pg_psql DB [psql args...]: psql as the superuser over the socket, no psqlrc, stop on errors.
pg_psql() {
  local db="$1"; shift
  psql -X -q -h "$PG_DIR" -p "$PGPORT" -U postgres -d "$db" -v ON_ERROR_STOP=1 --no-psqlrc "$@"
}

# pg_schema_files: the files that make the schema, in the order they apply (one per line).
pg_schema_files() {
  echo "$PG_REPO_ROOT/supabase/tests/auth_stub.sql"
  local migration
  for migration in "$PG_REPO_ROOT"/supabase/migrations/*.sql; do echo "$migration"; done
}

# pg_apply_schema DB [RUNNER]: applies pg_schema_files to DB (which must exist), stopping at the
# first error. RUNNER, if given, is called as `RUNNER LABEL FILE` for each file instead of the
# quiet default (labels: "auth stub", "migration <file name>"); it must apply FILE to DB.
# The auth stub creates cluster-wide roles: apply the schema to one database per cluster (or
# to a template database and clone it: CREATE DATABASE x TEMPLATE social_template).
pg_apply_schema() {
  local db="$1" runner="${2:-}" file label
  while IFS= read -r file; do
    case "$file" in
      */auth_stub.sql) label="auth stub" ;;
      *) label="migration $(basename "$file")" ;;
    esac
    if [ -n "$runner" ]; then
      "$runner" "$label" "$file" || return 1
    elif ! pg_psql "$db" -f "$file" >"$PG_DIR/schema.log" 2>&1; then
      sed 's/^/       /' "$PG_DIR/schema.log" >&2
      echo "$PG_LOG_PREFIX: FAIL ($label)" >&2
      return 1
    fi
  done < <(pg_schema_files)
}

# pg_schema_snapshot DB: the schema the migrations left in DB, as one text that is the same on
# every run (what supabase/schema/current.sql holds; scripts/schema-snapshot writes it and
# test-supabase-sql checks it). First `pg_dump --schema-only --no-owner` of the schemas the
# migrations own (public, social_private): every table, index, function body, trigger, policy
# and grant, with pg_dump's per-run `\restrict` key and version lines left out. Then what the
# migrations add to Supabase's own schemas: triggers on auth.users, policies on storage.objects
# (the statements alone: those tables are Supabase's, here the auth stub's), the buckets' rows.
# Uses the server's own pg_dump ($PG_BIN), whose major version must match.
pg_schema_snapshot() {
  local db="$1"
  local dump=("$PG_BIN/pg_dump" -h "$PG_DIR" -p "$PGPORT" -U postgres -d "$db" --schema-only --no-owner)
  "${dump[@]}" -n public -n social_private | grep -v -E '^\\(un)?restrict |^-- Dumped (from|by) ' || return 1
  echo '--'
  echo '-- What the migrations add to the schemas of Supabase (auth, storage): triggers, policies, buckets'
  echo '--'
  echo
  "${dump[@]}" -t auth.users -t storage.objects \
    | awk '/^CREATE (TRIGGER|POLICY) / { on = 1 } on { print } on && /;$/ { on = 0; print "" }' || return 1
  pg_psql "$db" -At -c "select format('INSERT INTO storage.buckets (id, name, public, file_size_limit, allowed_mime_types) VALUES (%L, %L, %L, %s, %L);',
      id, name, public, coalesce(file_size_limit::text, 'NULL'), allowed_mime_types) from storage.buckets order by id" || return 1
}

# The committed snapshot (relative to the repository) and pg_schema_current_sql DB: its whole
# text for DB, a header and pg_schema_snapshot.
PG_SCHEMA_CURRENT=supabase/schema/current.sql
pg_schema_current_sql() {
  local major; major="$("$PG_BIN/postgres" --version | awk '{print $3}' | cut -d. -f1)"
  cat <<HEADER
-- $PG_SCHEMA_CURRENT: GENERATED by scripts/schema-snapshot from a database migrated with
-- supabase/migrations (supabase/tests/auth_stub.sql, then every migration in name order, on
-- PostgreSQL $major). Do not edit: add a migration, then run scripts/schema-snapshot.
-- scripts/test-supabase-sql fails while this file differs from what the migrations produce.
--
-- The live definition of everything the migrations made, each in one place: the public and
-- social_private schemas whole (pg_dump --schema-only --no-owner; every object is owned by the
-- role that ran the migrations, postgres on Supabase), then the triggers, policies and buckets
-- they add to Supabase's auth and storage schemas. The visibility rule is
-- social_private.sees_profile.

HEADER
  pg_schema_snapshot "$1"
}
