"""nginx in front of the replicas: Debian's (scripts/setup installs it), a foreground child with its
own prefix, config and logs in the run's folder; round-robin, keep-alive upstream connections."""

import os
import shutil
import signal
import subprocess
import time
import urllib.parse

from gateway_scripts.ports import free_port

from .common import Failure
from .gateways import wait_ready


def find_nginx():
    """The nginx binary (scripts/setup installs Debian's; it is not installed here)."""
    path = shutil.which("nginx") or ("/usr/sbin/nginx" if os.access("/usr/sbin/nginx", os.X_OK) else None)
    if not path:
        raise Failure("nginx is not installed: run scripts/setup")
    return path


NGINX_CONF = """\
daemon off;
master_process on;
worker_processes {workers};
pid {dir}/nginx.pid;
error_log {dir}/error.log warn;
events {{ worker_connections 4096; }}
http {{
  access_log off;
  client_body_temp_path {dir}/client_body;
  proxy_temp_path {dir}/proxy;
  fastcgi_temp_path {dir}/fastcgi;
  uwsgi_temp_path {dir}/uwsgi;
  scgi_temp_path {dir}/scgi;
  upstream gateways {{
{servers}
    keepalive 64;
  }}
  server {{
    listen 127.0.0.1:{port};
    location / {{
      proxy_pass http://gateways;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $host;
      proxy_next_upstream off;
      add_header X-Upstream $upstream_addr always;
    }}
  }}
}}
"""


def start_nginx(args, children, work, client, upstreams, deadline):
    binary = find_nginx()
    ndir = os.path.join(work, "nginx")
    os.makedirs(ndir, exist_ok=True)
    os.chmod(work, 0o755); os.chmod(ndir, 0o755)   # workers run as nobody when we are root
    port = free_port()
    servers = "\n".join(f"    server {urllib.parse.urlsplit(u).netloc};" for u in upstreams)
    conf = os.path.join(ndir, "nginx.conf")
    with open(conf, "w") as f:
        f.write(NGINX_CONF.format(dir=ndir, port=port, servers=servers, workers=args.nginx_workers))
    cmd = [binary, "-p", ndir, "-c", conf, "-e", os.path.join(ndir, "error.log")]
    test = subprocess.run(cmd + ["-t", "-q"], capture_output=True, text=True, timeout=30)
    if test.returncode != 0:
        raise Failure(f"nginx -t refused the config:\n{test.stderr}")
    log_path = os.path.join(ndir, "stderr.log")
    proc = children.start("nginx", cmd, log_path=log_path, stop_signal=signal.SIGQUIT, grace=5)
    base = f"http://127.0.0.1:{port}"
    wait_ready(client, base, proc, min(deadline, time.monotonic() + 15), "nginx",
               os.path.join(ndir, "error.log"))
    # Round-robin: 2 x 10 requests must reach each upstream 10 times.
    seen = {}
    for _ in range(20):
        _, hdrs, _ = client.request(base, "GET", "/healthz")
        seen[hdrs.get("x-upstream")] = seen.get(hdrs.get("x-upstream"), 0) + 1
    expected = {urllib.parse.urlsplit(u).netloc for u in upstreams}
    if set(seen) != expected or len(set(seen.values())) != 1:
        raise Failure(f"nginx does not round-robin over {sorted(expected)}: {seen}")
    return base, seen
