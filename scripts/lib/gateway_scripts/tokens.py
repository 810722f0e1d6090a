"""mint_token(): an HS256 access token, signed with the gateway's JWT_SECRET (or an embedded data
folder's dev-jwt-secret), with the claims the gateway's `token` command gives one.

Used where a script needs many tokens quickly (one per seeded user) without running
`social-gateway token` once for each.
"""

import base64
import hashlib
import hmac
import json
import os
import time


def b64url(raw):
    """base64url without padding, as JWTs are written."""
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def mint_token(secret, sub, ttl=3600, audience="authenticated", now=None):
    """A signed token for user `sub` (a profile id), valid for `ttl` seconds from now.

    secret: str or bytes. Claims: sub, role "authenticated", aud `audience`, iat, nbf (a second
    back, against clock granularity) and exp.
    """
    if isinstance(secret, str):
        secret = secret.encode()
    now = int(time.time()) if now is None else now
    head = b64url(json.dumps({"alg": "HS256", "typ": "JWT"}).encode())
    body = b64url(json.dumps({"sub": sub, "role": "authenticated", "aud": audience,
                              "iat": now, "nbf": now - 1, "exp": now + ttl}).encode())
    sig = b64url(hmac.new(secret, f"{head}.{body}".encode(), hashlib.sha256).digest())
    return f"{head}.{body}.{sig}"


def dev_secret(data_dir):
    """The secret an embedded-mode gateway made for DATA_DIR (DATA_DIR/dev-jwt-secret)."""
    with open(os.path.join(data_dir, "dev-jwt-secret")) as f:
        return f.read().strip().encode()
