"""Helpers shared by the Python in scripts/: one concept per module.

  ports    free_port(): a free TCP port on 127.0.0.1
  client   Client (keep-alive GraphQL/HTTP, one connection per thread and base URL),
           post() / post_graphql() (one-shot urllib requests)
  tokens   mint_token(): an HS256 access token as the gateway's `token` command makes one
  process  start() / stop() a child by its pid, wait_ready() on /healthz or /readyz, Children

A script under scripts/ finds the package with

    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))

and a Python heredoc of a bash script with `PYTHONPATH="$here/lib"` (scripts/lib/common.sh sets
it). Standard library only.
"""

import os

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
