"""HTTP and GraphQL clients for the gateway.

Client        keep-alive connections (http.client), one per thread and base URL: many requests
              from threads, as a load or a poller sends them.
post          one urllib request -> (status, body bytes), an HTTP error status returned, not raised
              (Connection: close, the body written whole before the answer is read).
post_graphql  one urllib GraphQL request -> the parsed answer; raises on an HTTP error status
              (urllib.error.HTTPError, an OSError) and on a dropped connection.
"""

import http.client
import json
import threading
import urllib.error
import urllib.parse
import urllib.request

ACCEPT = "application/graphql-response+json, application/json;q=0.9"


def graphql_body(query, variables=None):
    """The JSON body of a GraphQL POST, as bytes."""
    return json.dumps({"query": query, "variables": variables or {}}).encode()


class Client:
    """Keep-alive connections, one per thread and base URL ("http://127.0.0.1:PORT").

    retries: how many times a request is sent again on a new connection when the old one fails
    (a keep-alive connection the server closed meanwhile); 0 reports every failure.
    """

    def __init__(self, timeout=10, retries=1):
        self.local = threading.local()
        self.timeout = timeout
        self.retries = retries

    def _conn(self, base):
        conns = self.local.__dict__.setdefault("conns", {})
        if base not in conns:
            u = urllib.parse.urlsplit(base)
            conns[base] = http.client.HTTPConnection(u.hostname, u.port or 80, timeout=self.timeout)
        return conns[base]

    def _drop(self, base):
        conn = self.local.__dict__.get("conns", {}).pop(base, None)
        if conn is not None:
            conn.close()

    def request(self, base, method, path, body=None, headers=None):
        """-> (status, headers dict (lower-case names), body bytes). A connection the server
        closes (Connection: close) or that fails is dropped; the next request opens another."""
        for attempt in range(self.retries + 1):
            conn = self._conn(base)
            try:
                conn.request(method, path, body=body, headers=headers or {})
                resp = conn.getresponse()
                data = resp.read()
                hdrs = {k.lower(): v for k, v in resp.getheaders()}
                if hdrs.get("connection", "").lower() == "close":
                    self._drop(base)
                return resp.status, hdrs, data
            except (http.client.HTTPException, OSError):
                self._drop(base)
                if attempt == self.retries:
                    raise

    def post(self, base, query, variables=None, token=None):
        """A GraphQL POST to base/graphql -> (status, parsed JSON or None, response headers)."""
        headers = {"Content-Type": "application/json", "Accept": ACCEPT}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        status, hdrs, data = self.request(base, "POST", "/graphql",
                                          json.dumps({"query": query, "variables": variables or {}}), headers)
        try:
            return status, json.loads(data), hdrs
        except ValueError:
            return status, None, hdrs


def post(url, body, headers, timeout=60):
    """POST body to url with urllib -> (status, body bytes); an HTTP error status is returned."""
    request = urllib.request.Request(url, data=body, headers=headers, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def post_graphql(url, query, variables=None, token=None, timeout=10, headers=None):
    """A GraphQL POST to url (…/graphql) with urllib -> the parsed answer. Raises
    urllib.error.HTTPError on a non-2xx status, OSError / http.client.HTTPException when the
    connection fails."""
    hdrs = {"Content-Type": "application/json", **(headers or {})}
    if token:
        hdrs["Authorization"] = "Bearer " + token
    request = urllib.request.Request(url, data=graphql_body(query, variables), method="POST", headers=hdrs)
    with urllib.request.urlopen(request, timeout=timeout) as response:
        return json.loads(response.read())
