"""Phase 3, restart-db: a profile's answer cached on both replicas, then PostgreSQL stops
(pg_ctl stop -m fast) and starts again on the same port and data dir. While it is down: reads,
a toggleFollow and /readyz straight to each replica, twice; after the start, an SQL update of
that profile (its notification lost), then each replica polled until reads are correct, the
cache feed listens again and the new value is served, never the cached one."""

import http.client
import json
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from gateway_scripts.client import Client

from .common import FIELDS, READ_QUERY, TOGGLE_MUTATION, Failure, log, metric, read_profile, seconds
from .postgres import import_psycopg


FEED_CONNECTED = "social_gateway_cache_feed_connected"
FEED_LOST = 'social_gateway_cache_feed_events_total{event="lost"}'
FEED_RECONNECTED = 'social_gateway_cache_feed_events_total{event="connected"}'


@dataclass
class Probe:
    replica: str
    kind: str            # read | toggle | readyz
    sent: float
    seconds: float       # until the answer (or the failure) came
    status: object       # HTTP status, None when no answer came
    outcome: str         # GraphQL: the errors' extensions.code values, else "data"; /readyz: its body;
                         # "no answer (...)" when the connection failed or timed out
    value: object = None   # a read that answered the profile: {field: value}
    sample: str = ""       # the answer as received: status, content type, body (shortened)


def graphql_outcome(doc):
    if not isinstance(doc, dict):
        return "not JSON"
    if doc.get("errors"):
        return ",".join(sorted({str(((e or {}).get("extensions") or {}).get("code") or "(no code)")
                                for e in doc["errors"] if isinstance(e, dict)})) or "(no code)"
    return "data" if doc.get("data") else "no data, no errors"


def probe(client, base, kind, arg=None):
    """One request, timed: a read of handle `arg`, a toggleFollow (`arg` = (token, profile id)) or
    GET /readyz."""
    t = time.monotonic()
    value, doc, hdrs = None, None, {}
    try:
        if kind == "readyz":
            status, hdrs, body = client.request(base, "GET", "/readyz")
            outcome = body.decode("utf-8", "replace").strip()[:100]
            doc = outcome
        elif kind == "read":
            status, doc, hdrs = client.post(base, READ_QUERY, {"h": arg})
            outcome = graphql_outcome(doc)
            p = (doc.get("data") or {}).get("profile") if outcome == "data" else None
            if p:
                value = {f: p.get(f) for f in FIELDS}
            elif outcome == "data":
                outcome = "data without the profile"
        else:
            status, doc, hdrs = client.post(base, TOGGLE_MUTATION, {"id": arg[1]}, arg[0])
            outcome = graphql_outcome(doc)
    except (OSError, http.client.HTTPException) as e:
        status, outcome = None, f"no answer ({type(e).__name__}: {e})"
    elapsed = time.monotonic() - t
    text = doc if isinstance(doc, str) else json.dumps(doc)
    sample = f"{status} ({hdrs.get('content-type', '-')}) {text[:300]}" if status is not None else outcome
    return Probe(base, kind, t, elapsed, status, outcome, value, sample)


def down_answer_ok(p):
    """While the database is down: a GraphQL request answers BACKEND_UNAVAILABLE, /readyz 503 unavailable."""
    if p.kind == "readyz":
        return p.status == 503 and '"status":"unavailable"' in p.outcome
    return p.outcome == "BACKEND_UNAVAILABLE"


def tally(probes):
    """'12x 503 BACKEND_UNAVAILABLE, 2x 200 data': what the probes got, most frequent first."""
    counts = {}
    for p in probes:
        key = f"{p.status if p.status is not None else '-'} {p.outcome}"
        counts[key] = counts.get(key, 0) + 1
    return ", ".join(f"{n}x {k}" for k, n in sorted(counts.items(), key=lambda kv: -kv[1]))


def scrape(client, base):
    """GET /metrics -> its text ("" when it does not answer 200)."""
    try:
        status, _, body = client.request(base, "GET", "/metrics")
    except (OSError, http.client.HTTPException):
        return ""
    return body.decode("utf-8", "replace") if status == 200 else ""


def feed_connected(text):
    """1/0 from social_gateway_cache_feed_connected, None when /metrics has no such line."""
    return metric(text, FEED_CONNECTED) if FEED_CONNECTED in text else None


def phase(run, deadline):
    """pg_ctl stop -m fast, requests to each replica while it is down, pg_ctl start on the same
    port, then how long until they answer again, and that none serves what its cache held."""
    a = run.args
    psycopg = import_psycopg()
    n = len(run.replicas)
    bound = a.statement_timeout_ms / 1000 + 1.5   # the longest any answer may take while it is down
    client = Client(timeout=bound + 3)           # a hang shows as "no answer", it does not stall the run
    m, c = run.profiles[-1], run.profiles[-2]   # m: its bio changes in SQL after the restart; c: unchanged
    others = run.profiles[-5:-2]
    toggle = (run.tokens[-3], run.profiles[-4].id)   # profiles[-3] (signed in) follows profiles[-4]
    with run.sql.cursor() as cur:
        cur.execute("select id::text, bio, follower_count from public.profiles where id = any(%s::uuid[])",
                    ([m.id, c.id],))
        truth = {r[0]: {"bio": r[1], "followerCount": r[2]} for r in cur.fetchall()}

    # m's current answer in each replica's cache (a hit proves it is there): after the restart
    # a replica that did not clear its cache would serve it, though SQL has changed it.
    cached = 0
    for r in run.replicas:
        hits = metric(scrape(client, r), "social_gateway_cache_hits_total")
        answers = [read_profile(client, r, m.handle) for _ in range(2)]
        if any(not ok or v != truth[m.id] for ok, v, _ in answers):
            raise Failure(f"before the restart {r} answers {m.handle} as {answers[-1][1]}, SQL has {truth[m.id]}")
        cached += metric(scrape(client, r), "social_gateway_cache_hits_total") > hits
    before = [scrape(client, r) for r in run.replicas]
    if any(feed_connected(t) != 1 for t in before):
        raise Failure(f"a replica's cache feed is not connected before the restart: "
                      f"{[feed_connected(t) for t in before]}")

    # --- down
    log("restart-db: pg_ctl stop -m fast")
    t_stop = time.monotonic()
    run.pg.server_stop()
    t_down = time.monotonic()
    # The feed's connection is ended with the server's sessions (or, at worst, its next
    # keep-alive fails): until a replica has noticed, its cache may still answer.
    lost_after = [None] * n
    while None in lost_after and time.monotonic() < t_down + 8:
        for i, r in enumerate(run.replicas):
            if lost_after[i] is None and feed_connected(scrape(client, r)) == 0:
                lost_after[i] = time.monotonic() - t_stop
        time.sleep(0.02)
    # Two rounds, every request to both replicas at once: just after the stop, and again once
    # the pools and feeds have been failing for restart_down_seconds (their backoff grown).
    jobs = []
    for r in run.replicas:
        jobs += ([(r, "read", m.handle), (r, "read", c.handle)] + [(r, "read", o.handle) for o in others]
                 + [(r, "toggle", toggle), (r, "readyz", None)])
    with ThreadPoolExecutor(max_workers=len(jobs)) as pool:
        down = list(pool.map(lambda j: probe(client, *j), jobs))
        time.sleep(max(0.0, t_down + a.restart_down_seconds - time.monotonic()))
        down += list(pool.map(lambda j: probe(client, *j), jobs))

    # --- up again
    log("restart-db: pg_ctl start (same port, same data dir)")
    t_start = time.monotonic()
    run.pg.server_start()
    t_up = time.monotonic()
    until = t_up + a.goal_recovery_s + 5
    read_ok, listening, marker_seen, feed_back = [None] * n, [None] * n, [None] * n, [None] * n
    recovery, marker_probes = [], [[] for _ in range(n)]
    poll = Client(timeout=bound + 3)

    def poll_reads(i):   # c, which did not change: answered as SQL has it
        while time.monotonic() < until:
            pr = probe(poll, run.replicas[i], "read", c.handle)
            recovery.append(pr)
            if pr.value == truth[c.id]:
                read_ok[i] = pr.sent + pr.seconds
                return
            time.sleep(0.05)

    def poll_ready(i):
        while time.monotonic() < until:
            pr = probe(poll, run.replicas[i], "readyz")
            recovery.append(pr)
            if pr.status == 200 and '"cacheFeed":"listening"' in pr.outcome:
                listening[i] = pr.sent + pr.seconds
                return
            time.sleep(0.05)

    def poll_feed(i):    # /metrics makes no store call: when the feed is back, whatever the pool does
        while time.monotonic() < until:
            if feed_connected(scrape(poll, run.replicas[i])) == 1:
                feed_back[i] = time.monotonic()
                return
            time.sleep(0.02)

    def poll_marker(i, marker, t_commit):   # m: the marker, and never its cached old bio
        while True:
            pr = probe(poll, run.replicas[i], "read", m.handle)
            marker_probes[i].append(pr)
            now = time.monotonic()
            if pr.value and pr.value["bio"] == marker and marker_seen[i] is None:
                marker_seen[i] = now
            # Until the replica has served it and followed its feed again for a second.
            if (marker_seen[i] is not None and listening[i] is not None
                    and now >= max(listening[i] + 1.0, t_commit + 2.0)) or now > until:
                return
            time.sleep(0.02)

    workers = ThreadPoolExecutor(max_workers=4 * n)
    futures = [workers.submit(fn, i) for fn in (poll_reads, poll_ready, poll_feed) for i in range(n)]
    # The SQL write right away, before the feeds are back if we are quick enough (their
    # backoff is 2 s by now): its notification is then lost, only the clear on reconnect helps.
    feeds_at_update = sum(feed_connected(scrape(client, r)) == 1 for r in run.replicas)
    conn = None
    while conn is None:
        try:
            conn = psycopg.connect(run.db_url, autocommit=True, connect_timeout=5)
        except psycopg.OperationalError as e:
            if time.monotonic() > until:
                raise Failure(f"no SQL connection after the restart: {e}")
            time.sleep(0.05)
    try:
        run.sql.close()
    except Exception:
        pass
    run.sql = conn
    marker = f"after restart {uuid.uuid4().hex[:12]}"
    with conn.cursor() as cur:
        cur.execute("update public.profiles set bio = %s where id = %s", (marker, m.id))
        updated = cur.rowcount
        t_commit = time.monotonic()
        cur.execute("select inet_server_port()")
        port = cur.fetchone()[0]
    feeds_after_commit = sum(feed_connected(scrape(client, r)) == 1 for r in run.replicas)
    if updated != 1:
        raise Failure(f"the SQL update after the restart changed {updated} rows")
    futures += [workers.submit(poll_marker, i, marker, t_commit) for i in range(n)]
    for f in futures:
        f.result(timeout=max(1.0, until - time.monotonic()) + 2 * bound + 5)
    workers.shutdown()
    # Last word: m on each replica and through nginx, then each replica's counters and process.
    final = [probe(client, r, "read", m.handle) for r in run.replicas + [run.proxy, run.proxy]]
    after = [scrape(client, r) for r in run.replicas]
    alive = [p.poll() is None for p in run.gateway_procs]

    # --- rows
    def by_replica(values, origin):
        return ", ".join(f"replica {i + 1} {seconds(None if v is None else v - origin)}" for i, v in enumerate(values))

    add = run.row
    add("db restart", f"stop -m fast {t_down - t_stop:.2f} s, down {t_up - t_down:.1f} s, start {t_up - t_start:.2f} s, "
                      f"port {port}", "same port", port == run.pg.port)
    add("  feed lost (connected 0)", by_replica([None if x is None else t_stop + x for x in lost_after], t_stop)
        + " after the stop", "both", None not in lost_after)
    for kind, label in (("read", "db down: reads"), ("toggle", "db down: toggleFollow"),
                        ("readyz", "db down: /readyz")):
        ps = [p for p in down if p.kind == kind]
        good = [p for p in ps if down_answer_ok(p) and p.seconds < bound]
        want = "BACKEND_UNAVAILABLE" if kind != "readyz" else "503 unavailable"
        add(label, f"{len(good)} of {len(ps)} {want} in time, answer in {min(p.seconds for p in ps):.3f}"
                   f"..{max(p.seconds for p in ps):.3f} s", f"all < {bound:g} s", len(good) == len(ps))
        add("  answers", tally(ps), "", None)
        log(f"  db down: {kind} e.g. {ps[0].sample} in {ps[0].seconds:.3f} s")
    add("reads correct again", by_replica(read_ok, t_up) + " after the start", f"< {a.goal_recovery_s:g} s",
        all(x is not None and x - t_up < a.goal_recovery_s for x in read_ok))
    add("cacheFeed listening", by_replica(listening, t_up) + " after the start (/readyz)",
        f"< {a.goal_recovery_s:g} s", all(x is not None and x - t_up < a.goal_recovery_s for x in listening))
    add("  feed connected", by_replica(feed_back, t_up) + " (/metrics, no store call)", "", None)
    add("  recovery answers", f"{tally(recovery)}; max {max((p.seconds for p in recovery), default=0):.3f} s", "", None)
    lost = [metric(t, FEED_LOST) - metric(b, FEED_LOST) for b, t in zip(before, after)]
    reconnected = [metric(t, FEED_RECONNECTED) - metric(b, FEED_RECONNECTED) for b, t in zip(before, after)]
    add("feed losses", ", ".join(f"replica {i + 1} +{lo:.0f} lost, +{rc:.0f} connected"
                                 for i, (lo, rc) in enumerate(zip(lost, reconnected))),
        ">= 1 each", all(x >= 1 for x in lost))
    add("old bio cached before", f"{cached} of {n} replicas (a cache hit on {m.handle})", f"{n} of {n}", cached == n)
    add("SQL update after start", f"{t_commit - t_up:.2f} s after; feeds listening then {feeds_at_update} of {n}, "
                                  f"after its commit {feeds_after_commit} of {n}", "", None)
    add("marker served", by_replica(marker_seen, t_commit) + " after the update", f"< {a.goal_recovery_s:g} s",
        all(x is not None and x - t_commit < a.goal_recovery_s for x in marker_seen))
    answered = [p for ps in marker_probes for p in ps if p.value]
    late = [p for p in answered if p.sent >= t_commit + 1.0]
    stale_late = [p for p in late if p.value["bio"] != marker]
    stale_early = [p for p in answered if p.sent < t_commit + 1.0 and p.value["bio"] != marker]
    final_stale = [p for p in final if not p.value or p.value["bio"] != marker]
    add("stale after restart", f"{len(stale_late)} of {len(late)} reads sent >= 1 s after the update "
                               f"({len(stale_early)} of {len(answered) - len(late)} before); final "
                               f"{len(final_stale)} of {len(final)}", "0",
        not stale_late and not final_stale and len(late) > 0)
    add("  marker reads", tally([p for ps in marker_probes for p in ps]), "", None)
    add("gateways alive", f"{sum(alive)} of {len(alive)}" + "".join(
        f"; gateway{i + 1} exited {p.returncode}" for i, p in enumerate(run.gateway_procs) if p.poll() is not None),
        f"{len(alive)} of {len(alive)}", all(alive))
    for p in (stale_late + stale_early + final_stale)[:3]:
        log(f"  e.g. stale: {p.replica} served {m.handle} bio={p.value and p.value['bio']!r} "
            f"{p.sent - t_commit:+.3f} s from the update, marker {marker!r}")
    for p in [p for p in down if p.seconds >= bound or not down_answer_ok(p)][:5]:
        log(f"  e.g. db down, not as expected: {p.kind} at {p.replica}: {p.sample} in {p.seconds:.3f} s")
