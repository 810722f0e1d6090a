"""Phase 1, consistency: one writer makes W writes (toggleFollow and updateProfile through the proxy
with minted tokens, `update public.profiles set bio` in SQL) while reader processes read through
the proxy; each write's convergence time (both replicas serve it), stale reads by the readers, by
a read of both replicas before and after each write, and by a final sweep against SQL. Then each
replica's cache counters (the caches were in play)."""

import bisect
import http.client
import json
import os
import statistics
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

from .common import BIO_MUTATION, FIELDS, TOGGLE_MUTATION, Failure, log, metric, ms, pct, read_profile
from .readers import Readers

# Reserved at the end of the writes for the restart phase (it takes ~10 s when all goes well).
RESTART_RESERVE_SECONDS = 45


@dataclass
class Write:
    seq: int
    kind: str            # toggle | bio | sql
    profile: int         # index of the profile whose read changes
    field: str
    value: object
    t_commit: float
    t_seen: list = field(default_factory=list)   # per replica: monotonic time it first served the value, or None
    polls: list = field(default_factory=list)

    def converged_at(self, poll_timeout):
        """When both replicas served it (or, never converged, when polling gave up)."""
        if None in self.t_seen:
            return self.t_commit + poll_timeout
        return max(self.t_seen)


class History:
    """Per (profile, field): the values in commit order, each with when it converged. The writer is
    the only writer and waits for each write to converge, so commits and convergences both ascend."""

    def __init__(self, profiles):
        self.entries = {}   # (idx, field) -> ([converged_at...], [value...])
        for i, p in enumerate(profiles):
            for f in FIELDS:
                self.entries[(i, f)] = ([float("-inf")], [p.state.get(f)])

    def add(self, idx, fld, value, converged_at):
        times, values = self.entries[(idx, fld)]
        times.append(converged_at); values.append(value)

    def latest(self, idx, fld):
        return self.entries[(idx, fld)][1][-1]

    def is_stale(self, idx, fld, value, t_send):
        """Older than the newest write that had converged when the read was sent."""
        times, values = self.entries[(idx, fld)]
        k = bisect.bisect_right(times, t_send) - 1   # newest converged before t_send
        return value not in values[k:]


class Writer:
    def __init__(self, args, client, proxy, replicas, profiles, tokens, sql, history, rng):
        self.args, self.client, self.proxy, self.replicas = args, client, proxy, replicas
        self.profiles, self.tokens, self.sql, self.history, self.rng = profiles, tokens, sql, history, rng
        self.pool = ThreadPoolExecutor(max_workers=len(replicas))
        self.writes, self.errors, self.error_sample = [], 0, []
        self.stale_pre = self.stale_recheck = self.checks = 0
        self.stale_sample = []
        self.tainted = set()
        kinds = [("toggle", args.mix_toggle), ("bio", args.mix_bio), ("sql", args.mix_sql if sql else 0)]
        self.kinds = [k for k, w in kinds if w > 0]
        self.weights = [w for k, w in kinds if w > 0]
        if not self.kinds:
            raise Failure("no kind of write left to make (check --mix-*)")

    def _read_both(self, handle):
        return list(self.pool.map(lambda r: read_profile(self.client, r, handle), self.replicas))

    def _check(self, idx, answers, what):
        for r, (ok, value, _) in zip(self.replicas, answers):
            self.checks += 1
            if not ok:
                self._error(f"{what} read of {self.profiles[idx].handle} at {r}: {value}")
                continue
            for f in FIELDS:
                if value[f] != self.history.latest(idx, f):
                    if what == "pre":
                        self.stale_pre += 1
                    else:
                        self.stale_recheck += 1
                    if len(self.stale_sample) < 5:
                        self.stale_sample.append(f"{what}: {r} served {self.profiles[idx].handle}.{f}={value[f]!r}, "
                                                 f"newest {self.history.latest(idx, f)!r}")

    def _error(self, text):
        self.errors += 1
        if len(self.error_sample) < 5:
            self.error_sample.append(text)

    def _poll(self, replica, handle, fld, expected, t_commit):
        polls = 0
        while True:
            try:
                ok, value, _ = read_profile(self.client, replica, handle)
            except (OSError, http.client.HTTPException):
                ok, value = False, None
            t = time.monotonic()
            polls += 1
            if ok and value[fld] == expected:
                return t, polls
            if t - t_commit > self.args.poll_timeout:
                return None, polls
            if self.args.poll_interval > 0:
                time.sleep(self.args.poll_interval)

    def one(self, seq, hot):
        kind = self.rng.choices(self.kinds, self.weights)[0]
        a = self.rng.choice([i for i in hot if i not in self.tainted] or [0])
        if kind == "toggle":
            b = self.rng.choice([i for i in hot if i != a and i not in self.tainted])
            target, fld = b, "followerCount"
        else:
            target, fld = a, "bio"
        handle = self.profiles[target].handle
        # Pre-read on both replicas: the old answer is now cached, so the write must evict it.
        self._check(target, self._read_both(handle), "pre")
        marker = f"ct {seq} {uuid.uuid4().hex[:12]}"
        try:
            if kind == "toggle":
                status, doc, _ = self.client.post(self.proxy, TOGGLE_MUTATION, {"id": self.profiles[b].id}, self.tokens[a])
                t_commit = time.monotonic()
                value = (((doc or {}).get("data") or {}).get("toggleFollow") or {}).get("profile") or {}
                value = value.get("followerCount")
                ok = status == 200 and not (doc or {}).get("errors") and isinstance(value, int)
            elif kind == "bio":
                status, doc, _ = self.client.post(self.proxy, BIO_MUTATION, {"bio": marker}, self.tokens[a])
                t_commit = time.monotonic()
                value = ((((doc or {}).get("data") or {}).get("updateProfile") or {}).get("profile") or {}).get("bio")
                ok = status == 200 and not (doc or {}).get("errors") and value == marker
            else:
                with self.sql.cursor() as cur:   # autocommit: execute returns after COMMIT
                    cur.execute("update public.profiles set bio = %s where id = %s", (marker, self.profiles[a].id))
                    rows = cur.rowcount
                t_commit = time.monotonic()
                status, doc, value, ok = None, None, marker, rows == 1
        except (OSError, http.client.HTTPException) as e:
            ok, status, doc = False, None, repr(e)
        if not ok:
            # The state is unknown now: leave the profile out of every later check.
            self._error(f"{kind} write {seq}: {status} {json.dumps(doc)[:300] if not isinstance(doc, str) else doc}")
            self.tainted.add(target)
            return
        w = Write(seq, kind, target, fld, value, t_commit)
        seen = list(self.pool.map(lambda r: self._poll(r, handle, fld, value, t_commit), self.replicas))
        w.t_seen = [t for t, _ in seen]
        w.polls = [n for _, n in seen]
        self.writes.append(w)
        self.history.add(target, fld, value, w.converged_at(self.args.poll_timeout))
        if None not in w.t_seen:
            self._check(target, self._read_both(handle), "recheck")

    def run(self, count, hot, stop_by):
        for seq in range(count):
            if time.monotonic() > stop_by:
                log(f"time is short: stopping the writes after {seq} of {count}")
                break
            self.one(seq, hot)
        self.pool.shutdown()


def analyse_reads(reads, history, tainted):
    stale, checked, sample = 0, 0, []
    for t_send, _t_recv, idx, ok, values, _up in reads:
        if not ok or idx in tainted:
            continue
        checked += 1
        for f, v in zip(FIELDS, values):
            if history.is_stale(idx, f, v, t_send):
                stale += 1
                if len(sample) < 5:
                    sample.append(f"profile #{idx} {f}={v!r} read at t={t_send:.4f}")
                break
    return stale, checked, sample


def final_sweep(client, replicas, profiles, written, history, sql, tainted):
    """Every written profile on every replica against the truth (SQL when there, else the history)."""
    truth = {}
    if sql is not None:
        with sql.cursor() as cur:
            cur.execute("select id::text, bio, follower_count from public.profiles where id = any(%s::uuid[])",
                        ([profiles[i].id for i in written],))
            truth = {r[0]: {"bio": r[1], "followerCount": r[2]} for r in cur.fetchall()}
    stale = checked = 0
    sample = []
    for i in sorted(written - tainted):
        want = truth.get(profiles[i].id) or {f: history.latest(i, f) for f in FIELDS}
        for r in replicas:
            ok, value, _ = read_profile(client, r, profiles[i].handle)
            checked += 1
            if not ok or any(value[f] != want[f] for f in FIELDS):
                stale += 1
                if len(sample) < 5:
                    sample.append(f"{r} {profiles[i].handle}: {value} want {want}")
    return stale, checked, sample


def phase(run, deadline):
    """Writes under the reader load, then the staleness analysis and the report's rows."""
    a = run.args
    hot = sorted(run.rng.sample(range(len(run.profiles)), min(a.hot, len(run.profiles))))
    handles = [p.handle for p in run.profiles]
    history = History(run.profiles)
    stop_file = os.path.join(run.work, "stop-readers")
    readers = Readers(a, run.children, run.work, "consistency", run.proxy, handles, hot,
                      duration=max(1.0, deadline - time.monotonic()), record=True, stop_file=stop_file)
    time.sleep(0.5)   # let the readers get going
    writer = Writer(a, run.client, run.proxy, run.replicas, run.profiles, run.tokens, run.sql, history, run.rng)
    t0 = time.monotonic()
    # Leave time for the load phases and the teardown.
    writer.run(a.writes, hot, stop_by=deadline - 2 * a.load_seconds - 15
               - (RESTART_RESERVE_SECONDS if a.restart_phase else 0))
    write_seconds = time.monotonic() - t0
    open(stop_file, "w").close()
    reads = readers.join(timeout=30)
    stale_readers, checked, reader_sample = analyse_reads(reads["reads"], history, writer.tainted)
    written = {w.profile for w in writer.writes}
    stale_final, final_checked, final_sample = final_sweep(run.client, run.replicas, run.profiles, written,
                                                           history, run.sql, writer.tainted)
    report(run, writer, write_seconds, reads, stale_readers, checked, reader_sample,
           stale_final, final_checked, final_sample)


def report(run, w, write_seconds, reads, stale_readers, checked, reader_sample,
           stale_final, final_checked, final_sample):
    a = run.args
    inf = float("inf")
    conv = [(max(x.t_seen) - x.t_commit) if None not in x.t_seen else inf for x in w.writes]
    finite = [c for c in conv if c != inf]
    never = len(conv) - len(finite)
    kinds = {k: sum(1 for x in w.writes if x.kind == k) for k in ("toggle", "bio", "sql")}
    add = run.row
    add("writes", f"{len(w.writes)} in {write_seconds:.1f} s (toggleFollow {kinds['toggle']}, updateProfile "
                  f"{kinds['bio']}, SQL {kinds['sql']})", f">= {a.writes}", len(w.writes) >= a.writes)
    add("write errors", str(w.errors), "0", w.errors == 0)
    add("never converged", f"{never} (polled {a.poll_timeout:g} s)", "0", never == 0)
    p99, mx = pct(conv, 99), max(conv, default=float("nan"))
    add("convergence p50", ms(pct(conv, 50)), "", None)
    add("convergence p99", ms(p99), f"< {a.goal_p99_ms:g} ms", p99 < a.goal_p99_ms / 1000)
    add("convergence max", ms(mx), f"< {a.goal_max_ms:g} ms", mx < a.goal_max_ms / 1000)
    for k in ("toggle", "bio", "sql"):
        ck = [c for x, c in zip(w.writes, conv) if x.kind == k]
        if ck:
            add(f"  {k}", f"p50 {ms(pct(ck, 50))}, p99 {ms(pct(ck, 99))}, max {ms(max(ck))}", "", None)
    for i, r in enumerate(run.replicas):   # each replica alone: the one that served a mutation
        per = [(x.t_seen[i] - x.t_commit) for x in w.writes if x.t_seen[i] is not None]
        polls = [x.polls[i] for x in w.writes]
        add(f"  replica {i + 1}", f"p50 {ms(pct(per, 50))}, p99 {ms(pct(per, 99))}, "
                                  f"mean polls {statistics.fmean(polls) if polls else 0:.1f}  ({r})", "", None)
    add("stale reads (readers)", f"{stale_readers} of {checked}", "0", stale_readers == 0)
    add("stale pre-reads", f"{w.stale_pre} of {w.checks}", "0", w.stale_pre == 0)
    add("stale rechecks", f"{w.stale_recheck} (after each convergence)", "0", w.stale_recheck == 0)
    add("stale final sweep", f"{stale_final} of {final_checked}" + (" (vs SQL)" if run.sql else ""), "0",
        stale_final == 0)
    add("reader errors", f"{reads['errors']} of {reads['count']}", "0", reads["errors"] == 0)
    split = {}
    for r in reads["reads"]:
        split[r[5]] = split.get(r[5], 0) + 1
    if any(split):
        total = sum(split.values())
        add("reader split", ", ".join(f"{k}: {v * 100 / total:.1f}%" for k, v in sorted(split.items(), key=str)),
            "", None)
    add("reader reads/s", f"{reads['count'] / max(reads['seconds'], 1e-9):.0f} (during the writes)", "", None)
    for s in w.error_sample + w.stale_sample + reader_sample + final_sample + reads["error_sample"]:
        log(f"  e.g. {s}")


def cache_report(run):
    """The caches were really in play: each replica's own counters (GET /metrics)."""
    for i, base in enumerate(run.replicas):
        try:
            status, _, body = run.client.request(base, "GET", "/metrics")
        except OSError as e:
            run.row(f"replica {i + 1} cache", f"no /metrics: {e}", "hits > 0", False)
            continue
        text = body.decode("utf-8", "replace") if status == 200 else ""
        hits, misses = metric(text, "social_gateway_cache_hits_total"), metric(text, "social_gateway_cache_misses_total")
        changed = metric(text, 'social_gateway_cache_feed_events_total{event="changed"}')
        lost = metric(text, 'social_gateway_cache_feed_events_total{event="lost"}')
        # Without hits the run would prove nothing: an uncached replica is never stale.
        run.row(f"replica {i + 1} cache", f"{hits:.0f} hits, {misses:.0f} misses, {changed:.0f} notifications, "
                                          f"{lost:.0f} feed losses", "hits > 0", hits > 0)
