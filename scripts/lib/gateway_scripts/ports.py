"""free_port(): a TCP port free on 127.0.0.1 right now (the kernel's pick for a bind to port 0).

Run as a program it prints one, for bash (scripts/lib/common.sh's free_port):

    python3 scripts/lib/gateway_scripts/ports.py
"""

import socket


def free_port(host="127.0.0.1"):
    """A port nothing listens on at the moment; the caller binds it soon after (it may be taken
    in between, which on a loopback-only test machine does not happen in practice)."""
    with socket.socket() as s:
        s.bind((host, 0))
        return s.getsockname()[1]


if __name__ == "__main__":
    print(free_port())
