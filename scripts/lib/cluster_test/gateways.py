"""The two gateway replicas of a run, each started here and ready once its /readyz says so."""

import os
import time

from gateway_scripts.ports import free_port
from gateway_scripts.process import BENCH_RATE_LIMITS, NotReady, tail as _tail, wait_ready as _wait_ready

from .common import Failure


def wait_ready(client, base, proc, deadline, what, log_path):
    """Until GET base/readyz answers 200 and, with a change feed, "cacheFeed":"listening"."""
    # With a change feed the body says whether the cache follows it yet; until it does
    # the cache answers nothing, which would measure an uncached replica.
    def ready(status, body):
        return status == 200 and (b"cacheFeed" not in body or b'"cacheFeed":"listening"' in body)

    def get(url):
        status, _, body = client.request(base, "GET", "/readyz")
        return status, body

    try:
        _wait_ready(base + "/readyz", proc, timeout=max(0.0, deadline - time.monotonic()), ready=ready, get=get)
    except NotReady as e:
        if e.exited:
            raise Failure(f"{what} exited ({proc.returncode}) before it was ready:\n{_tail(log_path)}") from None
        raise Failure(f"{what} was not ready (GET /readyz 200) in time:\n{_tail(log_path)}") from None


# `serve` picks the PostgreSQL store from DATABASE_URL (SUPABASE_URL unset),
# keeps its response cache in DATA_DIR/cache.sqlite (one folder per replica: the replicas learn of
# each other's writes only through LISTEN social_gateway_cache), verifies HS256 tokens with
# JWT_SECRET, and answers /readyz 200 once the store answers a read ({"cacheFeed":"listening"} once
# its cache follows the database's notifications).
def gateway_env(args, port, data_dir, database_url):
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("SUPABASE_", "DATABASE_")) and k not in ("PORT", "DATA_DIR", "HOST", "CACHE")}
    env.update(HOST="127.0.0.1", PORT=str(port), DATA_DIR=data_dir, JWT_SECRET=args.jwt_secret,
               CACHE="on", LOG_LEVEL=args.gateway_log_level, SHUTDOWN_GRACE_PERIOD="5",
               FOLLOWS_PER_HOUR="0", FOLLOWS_PER_DAY="0")
    # One writer and a few readers drive both replicas: the per-viewer limits would refuse them.
    for name, value in BENCH_RATE_LIMITS.items():
        env.setdefault(name, value)
    if database_url:
        env["DATABASE_URL"] = database_url
        if args.pool_size:
            env["DATABASE_POOL_SIZE"] = str(args.pool_size)
        if args.statement_timeout_ms:
            env["DATABASE_STATEMENT_TIMEOUT_MS"] = str(args.statement_timeout_ms)
    return env


def start_gateways(args, children, work, client, database_url, deadline):
    """Two replicas -> (their base URLs, their processes). postgres mode: one DATA_DIR each,
    DATABASE_URL. embedded mode (checks this harness with today's binary): one shared DATA_DIR, so
    both serve one SQLite store and one response cache (the cache's shared generation invalidates
    across processes)."""
    binary = args.gateway_binary
    if not (os.path.isfile(binary) and os.access(binary, os.X_OK)):
        raise Failure(f"no gateway binary at {binary} (build it first, or set GATEWAY_BINARY)")
    urls, procs = [], []
    for i in (1, 2):
        port = free_port()
        if args.gateway_mode == "postgres":
            data_dir, extra, db = os.path.join(work, f"gateway{i}"), [], database_url
        else:
            data_dir, extra, db = os.path.join(work, "gateway-shared"), ["--bench-seed-profiles", str(args.profiles)], None
        os.makedirs(data_dir, exist_ok=True)
        log_path = os.path.join(work, f"gateway{i}.log")
        proc = children.start(f"gateway{i}", [binary, "serve", *extra], env=gateway_env(args, port, data_dir, db),
                              log_path=log_path)
        base = f"http://127.0.0.1:{port}"
        # One at a time: in embedded mode the first seeds the shared store before the second opens it.
        wait_ready(client, base, proc, min(deadline, time.monotonic() + args.ready_timeout), f"gateway{i}", log_path)
        urls.append(base)
        procs.append(proc)
    return urls, procs
