"""The PostgreSQL cluster of a run (scripts/lib/postgres.sh in a keeper shell), its seed data, and
psycopg (installed by scripts/setup, never here)."""

import json
import os
import subprocess
import uuid

from gateway_scripts.process import tail as _tail

from .common import REPO, Failure, Profile, log


def import_psycopg():
    """psycopg 3 (scripts/setup installs it with pip)."""
    try:
        import psycopg
    except ImportError:
        raise Failure("psycopg is not installed: run scripts/setup") from None
    return psycopg


# A bash keeper holds the cluster: it stops it (EXIT trap: pg_stop) when its stdin closes (this
# process ended, however it ended), on TERM, or when its own timeout runs out.
PG_KEEPER = r'''
set -euo pipefail
source "$1/scripts/lib/postgres.sh"
PG_LOG_PREFIX=cluster-test
pg_require >&2 || exit 1
trap pg_stop EXIT
trap 'exit 143' TERM INT HUP
pg_start "$(mktemp -d /tmp/cluster-test-pg.XXXXXX)" >&2 || exit 1
pg_apply_schema postgres >&2 || exit 1
# The writer follows far more than a person: the database's follow limits (migration 003000) lifted.
pg_psql postgres -c "alter database postgres set social_gateway.follows_per_hour = 0" \
  -c "alter database postgres set social_gateway.follows_per_day = 0" >&2 || exit 1
echo "ready $PGPORT $PG_DIR $("$PG_BIN/postgres" --version | awk '{print $3}')"
read -r _ || true
'''


class Postgres:
    def __init__(self, children, work, bound_seconds):
        self.children, self.work, self.bound = children, work, bound_seconds
        self.port = self.dir = self.version = None
        self.proc = None

    def start(self):
        """Starts the cluster and applies the schema (scripts/lib/postgres.sh in a keeper shell)."""
        self.proc = self.children.start(
            "postgres", ["timeout", "--kill-after=5", str(int(self.bound)), "bash", "-c", PG_KEEPER, "keeper", REPO],
            log_path=os.path.join(self.work, "postgres-keeper.log"), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            grace=20)
        line = self.proc.stdout.readline().decode().split()
        if not line or line[0] != "ready":
            self.proc.wait(timeout=30)
            raise Failure("PostgreSQL did not start:\n" + _tail(os.path.join(self.work, "postgres-keeper.log")))
        self.port, self.dir, self.version = int(line[1]), line[2], line[3]

    def url(self, role="postgres", db="postgres"):
        return f"postgres://{role}@127.0.0.1:{self.port}/{db}"

    def _lib(self, function):
        """Runs `function DIR` of scripts/lib/postgres.sh (its output appended to postgres-restart.log)."""
        log_path = os.path.join(self.work, "postgres-restart.log")
        with open(log_path, "ab") as out:
            done = subprocess.run(["bash", "-c", 'source "$1/scripts/lib/postgres.sh"; PG_LOG_PREFIX=cluster-test; '
                                   f'{function} "$2"', "restart", REPO, self.dir],
                                  stdin=subprocess.DEVNULL, stdout=out, stderr=out, timeout=60)
        if done.returncode != 0:
            raise Failure(f"{function} failed:\n{_tail(log_path)}\n{_tail(os.path.join(self.dir, 'server.log'), 10)}")

    def server_stop(self):
        """The fault: `pg_ctl stop -m fast` (every session ended, new ones refused), data dir kept."""
        self._lib("pg_server_stop")

    def server_start(self):
        """Back on the same port and data dir (the gateways' DATABASE_URL stays valid); returns once
        the server accepts connections."""
        self._lib("pg_server_start")

    def stop(self):
        if self.proc and self.proc.poll() is None:
            self.proc.stdin.close()   # the keeper's `read` ends: pg_stop
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                log("the PostgreSQL keeper did not stop in 20 s: stopping it")
            self.children.stop(self.proc)


def seed_profiles(conn, count, handle_format, follows_per_profile, rng):
    """N users in auth.users (the handle_new_user trigger makes profiles + profile_private rows),
    each following the next `follows_per_profile` by index (the counter triggers count them)."""
    ids = [str(uuid.UUID(int=rng.getrandbits(128), version=4)) for _ in range(count)]
    handles = [handle_format.format(i + 1) for i in range(count)]
    with conn.cursor() as cur:
        with cur.copy("copy auth.users (id, email, raw_user_meta_data) from stdin") as copy:
            for uid, handle in zip(ids, handles):
                copy.write_row((uid, f"{handle}@example.com", json.dumps({"handle": handle})))
        followers, followees = [], []
        for i in range(count):
            for k in range(1, follows_per_profile + 1):
                j = (i + k * k) % count
                if j != i:
                    followers.append(ids[i]); followees.append(ids[j])
        cur.execute("insert into public.follows (follower_id, followee_id) "
                    "select * from unnest(%s::uuid[], %s::uuid[]) on conflict do nothing", (followers, followees))
    conn.commit()
    return profiles_from_sql(conn, handles)


def profiles_from_sql(conn, handles):
    with conn.cursor() as cur:
        cur.execute("select id::text, handle, bio, follower_count from public.profiles "
                    "where handle = any(%s) and is_public", (handles,))
        rows = {r[1]: r for r in cur.fetchall()}
    conn.commit()
    return [Profile(rows[h][0], h, {"bio": rows[h][2], "followerCount": rows[h][3]}) for h in handles if h in rows]


def check_authenticator(psycopg, url):
    """What the store will do: connect as authenticator and act as anon / authenticated."""
    with psycopg.connect(url, connect_timeout=10) as conn:
        with conn.cursor() as cur:
            cur.execute("set role anon")
            cur.execute("select count(*) from public.profiles")
            anon_sees = cur.fetchone()[0]
            cur.execute("reset role")
            cur.execute("set role authenticated")
            cur.execute("select current_user")
            assert cur.fetchone()[0] == "authenticated"
    return anon_sees
