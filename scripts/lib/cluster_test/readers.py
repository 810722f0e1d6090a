"""Reader processes: threads asking the profile read for random handles (half of them on the hot,
written profiles), each read recorded with when it was sent, for the staleness analysis."""

import http.client
import json
import os
import random
import subprocess
import sys
import threading
import time

from gateway_scripts.client import Client
from gateway_scripts.process import tail as _tail

from .common import FIELDS, REPO, Failure, read_profile

# The entry point a reader process runs (`cluster-test --_reader CONFIG`).
ENTRY = os.path.join(REPO, "scripts", "cluster-test")


def reader_main(config_path):
    """`cluster-test --_reader CONFIG`: threads asking READ_QUERY for random handles until
    the stop file appears or the duration passes; writes the reads (or only counts) to `out`."""
    with open(config_path) as f:
        cfg = json.load(f)
    handles, hot = cfg["handles"], cfg["hot"]
    stop_at = time.monotonic() + cfg["duration"]
    client = Client(timeout=10)
    results = []

    def loop(seed):
        rng = random.Random(seed)
        reads, count, errors, error_sample = [], 0, 0, []
        while time.monotonic() < stop_at:
            if cfg["stop_file"] and (count & 31) == 0 and os.path.exists(cfg["stop_file"]):
                break
            idx = rng.choice(hot) if hot and rng.random() < cfg["hot_share"] else rng.randrange(len(handles))
            t_send = time.monotonic()
            try:
                ok, value, upstream = read_profile(client, cfg["url"], handles[idx])
            except (OSError, http.client.HTTPException) as e:
                ok, value, upstream = False, repr(e), None
            t_recv = time.monotonic()
            count += 1
            if not ok:
                errors += 1
                if len(error_sample) < 3:
                    error_sample.append(value)
            if cfg["record"]:
                reads.append([t_send, t_recv, idx, ok, [value.get(f) for f in FIELDS] if ok else None, upstream])
        results.append({"reads": reads, "count": count, "errors": errors, "error_sample": error_sample})

    started = time.monotonic()
    threads = [threading.Thread(target=loop, args=(cfg["seed"] * 1000 + i,)) for i in range(cfg["threads"])]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    out = {"reads": [r for res in results for r in res["reads"]],
           "count": sum(r["count"] for r in results), "errors": sum(r["errors"] for r in results),
           "error_sample": [e for r in results for e in r["error_sample"]][:5],
           "seconds": time.monotonic() - started}
    with open(cfg["out"], "w") as f:
        json.dump(out, f)
    return 0


class Readers:
    """`procs` reader processes of `threads` threads each against `url`."""

    def __init__(self, args, children, work, name, url, handles, hot, duration, record, stop_file=None):
        self.children, self.procs, self.outs = children, [], []
        for i in range(args.reader_procs):
            out = os.path.join(work, f"{name}-{i}.json")
            cfg = os.path.join(work, f"{name}-{i}.config.json")
            with open(cfg, "w") as f:
                json.dump({"url": url, "handles": handles, "hot": hot, "hot_share": args.hot_read_share,
                           "threads": args.reader_threads, "duration": duration, "stop_file": stop_file,
                           "record": record, "out": out, "seed": args.seed * 100 + i}, f)
            self.outs.append(out)
            self.procs.append(children.start(f"{name}-{i}", [sys.executable, ENTRY, "--_reader", cfg],
                                             log_path=os.path.join(work, f"{name}-{i}.log")))

    def join(self, timeout):
        merged = {"reads": [], "count": 0, "errors": 0, "error_sample": [], "seconds": 0.0}
        for proc, out in zip(self.procs, self.outs):
            try:
                proc.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.children.stop(proc)
            self.children.stop(proc)
            if proc.returncode != 0 or not os.path.exists(out):
                raise Failure(f"a reader process failed ({proc.returncode}):\n{_tail(out.replace('.json', '.log'))}")
            with open(out) as f:
                r = json.load(f)
            merged["reads"] += r["reads"]; merged["count"] += r["count"]; merged["errors"] += r["errors"]
            merged["error_sample"] += r["error_sample"]; merged["seconds"] = max(merged["seconds"], r["seconds"])
        return merged
