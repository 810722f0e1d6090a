"""Processes a script starts: each one stopped by its pid, never by name.

start        Popen with its output to a log file, optionally ended with this process (die_with_parent)
stop         a signal (TERM by default), then KILL after a grace period
wait_ready   poll GET base/healthz or /readyz until it answers as wanted, or the process exits
Children     every process a run starts, stopped in reverse order at the end
tail         the last lines of a log, for a failure message
BENCH_RATE_LIMITS  the per-viewer rate limits a benchmark's server runs under
"""

import ctypes
import signal
import subprocess
import time
import urllib.request

# The per-viewer rate limits a benchmark runs its server under: the defaults before issue 51, far
# above what a replica serves, since a benchmark drives a replica from a few tokens and measures
# the replica, not its limit (bash scripts: bench_rate_limits in scripts/lib/common.sh; the
# defaults and why: docs/performance/2026-12-02-rate-limit-defaults.md).
BENCH_RATE_LIMITS = {
    "RATE_LIMIT_QUERY_CAPACITY": "10000000", "RATE_LIMIT_QUERY_PER_SECOND": "5000000",
    "RATE_LIMIT_MUTATION_CAPACITY": "200000", "RATE_LIMIT_MUTATION_PER_SECOND": "100000",
}

# Loaded here, not in the forked child: dlopen after a fork of a threaded process may deadlock.
_libc = ctypes.CDLL(None, use_errno=True)


def die_with_parent():
    """preexec_fn: the child gets SIGTERM when this process dies, even by SIGKILL (PR_SET_PDEATHSIG)."""
    _libc.prctl(1, signal.SIGTERM)


def start(argv, env=None, log_path=None, stdin=None, stdout=None, cwd=None, with_parent=True):
    """Starts argv; stdout and stderr are appended to log_path (or dropped). with_parent: the child
    is ended with this process, however it ends."""
    out = open(log_path, "ab") if log_path else subprocess.DEVNULL
    try:
        return subprocess.Popen(argv, env=env, cwd=cwd, stdin=stdin or subprocess.DEVNULL,
                                stdout=stdout or out, stderr=out,
                                preexec_fn=die_with_parent if with_parent else None)
    finally:
        if log_path:
            out.close()


def stop(proc, sig=signal.SIGTERM, grace=10, name=None, log=None):
    """Sends sig to proc (by its pid) and waits up to grace seconds, then kills it. log(text), when
    given, hears of the kill."""
    if proc.poll() is not None:
        return
    try:
        proc.send_signal(sig)
        proc.wait(timeout=grace)
    except subprocess.TimeoutExpired:
        if log:
            log(f"{name or proc.pid} did not stop in {grace} s: killing it")
        proc.kill()
        proc.wait(timeout=5)
    except ProcessLookupError:
        pass


class NotReady(Exception):
    """wait_ready gave up: `exited` tells whether the process ended (its code in returncode)."""

    def __init__(self, message, exited):
        super().__init__(message)
        self.exited = exited


def _get(url, timeout):
    with urllib.request.urlopen(url, timeout=timeout) as response:
        return response.status, response.read()


def wait_ready(url, proc=None, timeout=30, ready=None, interval=0.1, get=None):
    """Polls GET url (e.g. http://127.0.0.1:PORT/readyz) until ready(status, body) (default: any
    2xx answer). Raises NotReady when proc exits first or timeout seconds pass.

    get(url) -> (status, body) replaces urllib (a keep-alive client's request, say); an OSError
    from it counts as not ready yet.
    """
    deadline = time.monotonic() + timeout
    get = get or (lambda u: _get(u, 2))
    while True:
        if proc is not None and proc.poll() is not None:
            raise NotReady(f"exited ({proc.returncode}) before it was ready", exited=True)
        try:
            status, body = get(url)
            if ready(status, body) if ready else 200 <= status < 300:
                return
        except OSError:
            pass
        if time.monotonic() >= deadline:
            raise NotReady(f"was not ready ({url}) in {timeout:g} s", exited=False)
        time.sleep(interval)


def tail(path, lines=30):
    """The last lines of a text file, or a note that it is missing."""
    try:
        with open(path, errors="replace") as f:
            return "".join(f.readlines()[-lines:])
    except OSError:
        return f"(no {path})"


class Children:
    """Every process a run starts (name, Popen, stop signal, grace), stopped in reverse order."""

    def __init__(self, log=None):
        self.procs = []
        self.log = log

    def start(self, name, argv, env=None, log_path=None, stdin=None, stdout=None, stop_signal=signal.SIGTERM, grace=10):
        proc = start(argv, env=env, log_path=log_path, stdin=stdin, stdout=stdout)
        self.procs.append((name, proc, stop_signal, grace))
        return proc

    def stop(self, proc):
        for i, (name, p, sig, grace) in enumerate(self.procs):
            if p is proc:
                self.procs.pop(i)
                stop(p, sig, grace, name=name, log=self.log)
                return

    def stop_all(self, keep=None):
        for _name, p, _sig, _grace in reversed([x for x in self.procs if x[1] is not keep]):
            self.stop(p)
