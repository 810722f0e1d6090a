"""What every phase of scripts/cluster-test shares: the documents it sends, the profile read,
its log, its failures, and the figures' formats."""

import json
import math
import sys
from dataclasses import dataclass, field

from gateway_scripts import REPO  # noqa: F401  (the repository, for the phases' paths)

NAME = "cluster-test"

# The read every reader, pre-read, poll and sweep asks: the same document and variables, so they
# all hit (and must see the invalidation of) the same cache entries.
READ_QUERY = "query R($h: String!) { profile(handle: $h) { id bio followerCount } }"
TOGGLE_MUTATION = ("mutation T($id: ID!) { toggleFollow(profileId: $id) "
                   "{ following profile { id followerCount } } }")
BIO_MUTATION = "mutation U($bio: String) { updateProfile(input: { bio: $bio }) { profile { id bio } } }"
FIELDS = ("bio", "followerCount")   # what the writes change and the reads compare


def log(msg):
    print(f"{NAME}: {msg}", file=sys.stderr, flush=True)


class Failure(Exception):
    """A set-up step failed: reported as is, then everything is stopped."""


class TimeUp(Exception):
    pass


@dataclass
class Profile:
    id: str
    handle: str
    state: dict = field(default_factory=dict)   # field -> current value as last read / written


def read_profile(client, base, handle):
    """One reader read -> (ok, {field: value} or error text, upstream)."""
    status, doc, hdrs = client.post(base, READ_QUERY, {"h": handle})
    upstream = hdrs.get("x-upstream")
    if status != 200 or not doc or doc.get("errors") or not (doc.get("data") or {}).get("profile"):
        return False, f"{status} {json.dumps(doc)[:200]}", upstream
    p = doc["data"]["profile"]
    return True, {f: p.get(f) for f in FIELDS}, upstream


def metric(text, name):
    """The sum of the Prometheus samples whose line starts with name (labels included in name)."""
    total = 0.0
    for line in text.splitlines():
        if line.startswith(name):
            try:
                total += float(line.rsplit(" ", 1)[1])
            except ValueError:
                pass
    return total


def pct(values, q):
    if not values:
        return float("nan")
    s = sorted(values)   # nearest rank
    return s[min(len(s) - 1, max(0, math.ceil(q / 100 * len(s)) - 1))]


def ms(x):
    return "-" if x is None else ("never" if x == float("inf") else f"{x * 1000:.1f} ms")


def seconds(x):
    return "never" if x is None else f"{x:.2f} s"
