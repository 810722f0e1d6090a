"""scripts/cluster-test's command line: its options, --self-test, and the run's order of phases
(set-up, consistency, cache counters, subscriptions across replicas, throughput, restart-db, summary), bounded by --timeout."""

import argparse
import base64
import glob
import hashlib
import hmac
import json
import os
import shutil
import signal
import subprocess
import time
import uuid

from gateway_scripts.tokens import b64url, mint_token

from . import consistency, restart_db, subscriptions, throughput
from .common import REPO, NAME, Failure, Profile, TimeUp, log, pct
from .consistency import History, Write, analyse_reads
from .nginx import find_nginx
from .postgres import import_psycopg
from .readers import reader_main
from .run import Run


def check_installed(args):
    """What scripts/setup installs and this run needs: psycopg, PostgreSQL, nginx."""
    if args.database_url or (args.gateway_mode == "postgres" and not args.replica_urls):
        import_psycopg()
    if (args.gateway_mode == "postgres" and not args.replica_urls and not args.database_url
            and not glob.glob("/usr/lib/postgresql/*/bin/initdb")):
        raise Failure("PostgreSQL is not installed: run scripts/setup")
    if not args.proxy_url:
        find_nginx()


def parse_args(argv, description):
    p = argparse.ArgumentParser(prog="scripts/cluster-test", description=description,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--_reader", help=argparse.SUPPRESS)
    p.add_argument("--quick", action="store_true", help="CI-sized: 200 writes, 5 s load phases (restart-db too)")
    p.add_argument("--setup-only", action="store_true", help="start and seed everything, check it, stop")
    x = p.add_mutually_exclusive_group()
    x.add_argument("--restart-db", action="store_true",
                   help="only the database-restart phase after the set-up (by default it runs after the "
                        "throughput phase whenever the database is started here)")
    x.add_argument("--no-restart-db", action="store_true", help="skip the database-restart phase")
    p.add_argument("--self-test", action="store_true", help="check the measuring logic on made-up data, start nothing")
    p.add_argument("--timeout", type=float, default=180, help="seconds for the whole run")
    p.add_argument("--seed", type=int, default=1, help="random seed")
    p.add_argument("--keep-work", action="store_true", help="keep the temp folder (logs, configs, reads)")
    g = p.add_argument_group("what is started")
    g.add_argument("--gateway-binary", default=os.environ.get("GATEWAY_BINARY",
                                                              os.path.join(REPO, ".build/release/social-gateway")))
    g.add_argument("--gateway-mode", choices=["postgres", "embedded"], default="postgres",
                   help="postgres: the real thing; embedded: two embedded-mode gateways on one DATA_DIR, to check "
                        "this harness with today's binary (no SQL writes)")
    g.add_argument("--gateway-log-level", default="warning")
    g.add_argument("--pool-size", type=int, default=0, help="DATABASE_POOL_SIZE per gateway (default: theirs)")
    g.add_argument("--statement-timeout-ms", type=int, default=1000,
                   help="DATABASE_STATEMENT_TIMEOUT_MS of started gateways (theirs is 5000); while the database "
                        "is down every answer must come within it + 1.5 s")
    g.add_argument("--nginx-workers", type=int, default=1)
    g.add_argument("--ready-timeout", type=float, default=30, help="seconds for a gateway to answer /readyz 200")
    g.add_argument("--jwt-secret", default=None, help="HS256 secret (default: a random one for started gateways)")
    g = p.add_argument_group("given instead of started")
    g.add_argument("--replica-urls", help="comma-separated base URLs of running gateways (no gateways started)")
    g.add_argument("--proxy-url", help="base URL of a running balancer (no nginx started)")
    g.add_argument("--database-url", help="superuser URL of the gateways' database (SQL writes and the final "
                                          "sweep's truth); without it and without a started cluster no SQL writes")
    g = p.add_argument_group("data and load")
    g.add_argument("--profiles", type=int, default=1000)
    g.add_argument("--handle-format", default=None, help="handles by number from 1: 'user{:04d}' (default), "
                                                         "'user{}' for the embedded --bench-seed-profiles ones")
    g.add_argument("--follows-per-profile", type=int, default=3)
    g.add_argument("--writes", type=int, default=None, help="default 1000 (200 with --quick)")
    g.add_argument("--mix-toggle", type=float, default=4, help="weight of toggleFollow writes")
    g.add_argument("--mix-bio", type=float, default=3, help="weight of updateProfile(bio) writes")
    g.add_argument("--mix-sql", type=float, default=3, help="weight of SQL bio updates (needs a database)")
    g.add_argument("--hot", type=int, default=50, help="profiles the writer writes, at least 2 (readers favour them)")
    g.add_argument("--hot-read-share", type=float, default=0.5, help="share of reads on the hot profiles")
    g.add_argument("--reader-procs", type=int, default=2)
    g.add_argument("--reader-threads", type=int, default=4, help="threads per reader process")
    g.add_argument("--poll-timeout", type=float, default=2.0, help="seconds to wait for a replica to converge")
    g.add_argument("--poll-interval", type=float, default=0.0005, help="seconds between polls of one replica")
    g.add_argument("--load-seconds", type=int, default=None, help="each load phase (default 10; 5 with --quick)")
    g.add_argument("--load-tool", choices=["wrk", "python"], default=None, help="default wrk when installed")
    g.add_argument("--goal-p99-ms", type=float, default=50)
    g.add_argument("--goal-max-ms", type=float, default=1000)
    g = p.add_argument_group("database restart")
    g.add_argument("--restart-down-seconds", type=float, default=3,
                   help="how long the database stays down at least (a second round of requests at its end)")
    g.add_argument("--goal-recovery-s", type=float, default=10,
                   help="after the start: reads correct again, feeds listening, the SQL write served")
    a = p.parse_args(argv)
    a.writes = a.writes if a.writes is not None else (200 if a.quick else 1000)
    a.load_seconds = a.load_seconds if a.load_seconds is not None else (5 if a.quick else 10)
    a.load_tool = a.load_tool or ("wrk" if shutil.which("wrk") else "python")
    if a.handle_format is None:
        a.handle_format = "user{}" if a.gateway_mode == "embedded" else "user{:04d}"
    if a.jwt_secret is None:
        if a.replica_urls:
            p.error("--replica-urls needs --jwt-secret (the gateways' JWT_SECRET) to sign the writes' tokens")
        a.jwt_secret = uuid.uuid4().hex + uuid.uuid4().hex   # 64 bytes
    # The restart needs the cluster and the gateways started here.
    own_cluster = a.gateway_mode == "postgres" and not a.replica_urls and not a.database_url
    if a.restart_db and not own_cluster:
        p.error("--restart-db needs the database and gateways started here (postgres mode, no --replica-urls "
                "or --database-url)")
    if a.restart_db and a.setup_only:
        p.error("--restart-db and --setup-only do not go together")
    a.restart_phase = own_cluster and not a.no_restart_db and not a.setup_only
    if a.restart_phase and a.statement_timeout_ms <= 0:
        p.error("--statement-timeout-ms must be positive")
    if a.hot < 2:
        p.error("--hot must be at least 2 (a toggle needs two profiles)")
    if len(a.jwt_secret.encode()) < 32:
        p.error("--jwt-secret must be at least 32 bytes")
    return a


def self_test():
    """--self-test: the measuring logic on made-up histories (no servers)."""
    h = History([Profile("id0", "user0001", {"bio": None, "followerCount": 3})])
    h.add(0, "bio", "m1", converged_at=10.0)
    h.add(0, "bio", "m2", converged_at=20.0)
    h.add(0, "followerCount", 4, converged_at=12.0)
    h.add(0, "followerCount", 3, converged_at=22.0)
    cases = [  # (field, value read, sent at, stale?)
        ("bio", None, 5.0, False), ("bio", "m1", 5.0, False), ("bio", "m2", 5.0, False),   # before: any
        ("bio", None, 10.5, True), ("bio", "m1", 10.5, False), ("bio", "m2", 10.5, False),  # m1 converged
        ("bio", "m1", 20.5, True), ("bio", "m2", 20.5, False), ("bio", None, 99.0, True),
        ("followerCount", 3, 11.0, False), ("followerCount", 3, 12.5, False),   # 3 again later: same value
        ("followerCount", 4, 21.0, False), ("followerCount", 4, 22.5, True), ("followerCount", 5, 1.0, True),
    ]
    for fld, value, t, want in cases:
        got = h.is_stale(0, fld, value, t)
        assert got == want, f"is_stale({fld}, {value!r}, t={t}) = {got}, expected {want}"
    stale, checked, _ = analyse_reads([[10.5, 10.6, 0, True, [None, 3], None], [10.5, 10.6, 0, True, ["m1", 3], None],
                                       [10.5, 10.6, 0, False, None, None]], h, tainted=set())
    assert (stale, checked) == (1, 2), (stale, checked)
    assert pct([5, 1, 4, 2, 3], 50) == 3 and pct(list(range(1, 101)), 99) == 99 and pct([7], 99) == 7
    w = Write(0, "bio", 0, "bio", "x", t_commit=1.0, t_seen=[1.002, None])
    assert w.converged_at(2.0) == 3.0
    head, body, sig = mint_token("s" * 32, "a11ce000-0000-4000-8000-000000000001").split(".")
    claims = json.loads(base64.urlsafe_b64decode(body + "=" * (-len(body) % 4)))
    assert claims["sub"] == "a11ce000-0000-4000-8000-000000000001" and claims["aud"] == "authenticated"
    assert claims["role"] == "authenticated" and claims["exp"] > time.time()
    expected = b64url(hmac.new(b"s" * 32, f"{head}.{body}".encode(), hashlib.sha256).digest())
    assert sig == expected
    print(f"{NAME}: self-test passed ({len(cases)} staleness cases, percentiles, tokens)")
    return 0


def main(argv, description):
    """The whole run -> the exit status (0: every goal met)."""
    args = parse_args(argv, description)
    if args._reader:
        return reader_main(args._reader)
    if args.self_test:
        return self_test()
    run = Run(args)

    def on_signal(signum, _frame):
        raise TimeUp(f"signal {signum}")

    def on_alarm(_signum, _frame):
        raise TimeUp(f"the run took more than {args.timeout:g} s")

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    status = 1
    try:
        # What scripts/setup installs, checked before the run's clock starts.
        check_installed(args)
        signal.signal(signal.SIGALRM, on_alarm)
        signal.alarm(int(args.timeout))
        deadline = time.monotonic() + args.timeout
        t = time.monotonic()
        run.setup(deadline)
        run.info["setup"] = f"{time.monotonic() - t:.1f} s; work folder {run.work}"
        if args.setup_only:
            run.smoke()
            run.print_summary()
            status = 0 if not run.failed else 1
        else:
            if not args.restart_db:   # --restart-db: that phase alone
                consistency.phase(run, deadline)
                if args.gateway_mode == "postgres":
                    consistency.cache_report(run)
                    subscriptions.phase(run)
                throughput.phase(run)
            if args.restart_phase:
                restart_db.phase(run, deadline)
            run.print_summary()
            status = 0 if not run.failed else 1
    except (Failure, TimeUp, subprocess.CalledProcessError, subprocess.TimeoutExpired) as e:
        log(f"FAIL {e}")
        if run.rows:
            run.print_summary()
        status = 1
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        run.teardown()
    return status
