"""Phase 2, throughput: the reader load (wrk when installed, else the Python readers) for
--load-seconds through the proxy over the pair, then against one gateway alone."""

import json
import os
import re
import subprocess

from .common import READ_QUERY, Failure, log
from .readers import Readers


WRK_LUA = """\
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Accept"] = "application/graphql-response+json"
local handles = {handles}
local hot = {hot}
local query = {query}
local hot_share = {hot_share}
request = function()
  local h
  if #hot > 0 and math.random() < hot_share then h = handles[hot[math.random(#hot)]] else h = handles[math.random(#handles)] end
  return wrk.format(nil, "/graphql", nil, '{{"query":' .. query .. ',"variables":{{"h":"' .. h .. '"}}}}')
end
done = function(summary, latency, requests)
  io.write(string.format("WRKRESULT %d %d %d %d %d %d\\n", summary.requests, summary.errors.status,
    summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout,
    summary.duration, latency:percentile(50), latency:percentile(99)))
end
"""


def throughput(args, children, work, name, url, handles, hot):
    """-> dict(rps, errors, p50_ms, p99_ms, tool) of the reader load against url for args.load_seconds."""
    if args.load_tool == "wrk":
        lua = os.path.join(work, f"{name}.lua")
        with open(lua, "w") as f:
            f.write(WRK_LUA.format(handles="{" + ",".join(json.dumps(h) for h in handles) + "}",
                                   hot="{" + ",".join(str(i + 1) for i in hot) + "}",
                                   query=json.dumps(json.dumps(READ_QUERY)), hot_share=args.hot_read_share))
        threads = args.reader_procs
        conns = max(threads, args.reader_procs * args.reader_threads)
        out = subprocess.run(["wrk", f"-t{threads}", f"-c{conns}", f"-d{args.load_seconds}s", "-s", lua, url],
                             capture_output=True, text=True, timeout=args.load_seconds + 30)
        m = re.search(r"WRKRESULT (\d+) (\d+) (\d+) (\d+) (\d+) (\d+)", out.stdout)
        if not m:
            raise Failure(f"wrk failed:\n{out.stdout}\n{out.stderr}")
        n, status_err, sock_err, dur_us, p50, p99 = map(int, m.groups())
        return {"rps": (n - status_err - sock_err) / (dur_us / 1e6), "errors": status_err + sock_err,
                "p50_ms": p50 / 1000, "p99_ms": p99 / 1000, "tool": f"wrk {threads}t/{conns}c"}
    readers = Readers(args, children, work, name, url, handles, hot, args.load_seconds, record=False)
    r = readers.join(timeout=args.load_seconds + 30)
    return {"rps": (r["count"] - r["errors"]) / max(r["seconds"], 1e-9), "errors": r["errors"],
            "p50_ms": None, "p99_ms": None,
            "tool": f"python {args.reader_procs}x{args.reader_threads} threads"}


def phase(run):
    """The pair through the proxy, then one gateway alone: reads/s, latency, errors."""
    a = run.args
    handles = [p.handle for p in run.profiles]
    hot = sorted(run.rng.sample(range(len(run.profiles)), min(a.hot, len(run.profiles))))
    pair = throughput(a, run.children, run.work, "load-pair", run.proxy, handles, hot)
    one = throughput(a, run.children, run.work, "load-one", run.replicas[0], handles, hot)
    lat = (lambda r: f", p50 {r['p50_ms']:.1f} ms, p99 {r['p99_ms']:.1f} ms" if r["p50_ms"] is not None else "")
    run.row("reads/s, pair via nginx", f"{pair['rps']:.0f}{lat(pair)} ({pair['tool']}, {a.load_seconds:g} s)",
             "", None)
    run.row("reads/s, one gateway", f"{one['rps']:.0f}{lat(one)}", "", None)
    run.row("pair / one", f"{pair['rps'] / max(one['rps'], 1e-9):.2f}x", "", None)
    run.row("load errors", f"{pair['errors']} + {one['errors']}", "0", pair["errors"] + one["errors"] == 0)
    for label, r in (("pair", pair), ("one", one)):
        if r["errors"]:
            log(f"  {label}: {r['errors']} errors in the load phase")
