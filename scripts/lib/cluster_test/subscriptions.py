"""The subscriptions phase: a subscriber on one replica hears of a write made through the other.

For each round a profile subscribes to `feedPosts` over graphql-transport-ws on replica B (the
`websockets` library, installed by scripts/setup), then writes a post through replica A; the event
must arrive on B (the write reaches B only through PostgreSQL's LISTEN/NOTIFY). Rounds alternate
the direction. Reported: how many events arrived, and the time from the write's answer to the
event (p50 / p99 / max)."""
import json
import time
import uuid

from .common import Failure, log, ms, pct

POST_MUTATION = "mutation($c: String!) { createPost(input: {content: $c}) { post { id } } }"
FEED_SUBSCRIPTION = "subscription { feedPosts { id content } }"


def ws_url(base):
    return base.replace("http://", "ws://", 1).rstrip("/") + "/graphql"


def subscribe(url, token):
    from websockets.sync.client import connect  # noqa: PLC0415 - only this phase needs it
    socket = connect(url, subprotocols=["graphql-transport-ws"], open_timeout=5, close_timeout=2)
    socket.send(json.dumps({"type": "connection_init", "payload": {"Authorization": f"Bearer {token}"}}))
    ack = json.loads(socket.recv(timeout=5))
    if ack.get("type") != "connection_ack":
        raise Failure(f"subscriptions: {url} answered connection_init with {ack}")
    socket.send(json.dumps({"id": "feed", "type": "subscribe", "payload": {"query": FEED_SUBSCRIPTION}}))
    return socket


def phase(run, rounds=20):
    if len(run.replicas) < 2:
        return
    latencies, delivered = [], 0
    for n in range(rounds):
        reader, writer = run.replicas[n % 2], run.replicas[(n + 1) % 2]
        token = run.tokens[n % len(run.tokens)]
        socket = subscribe(ws_url(reader), token)
        try:
            time.sleep(0.05)  # the subscribe message is read before the write commits
            text = f"cluster-test {uuid.uuid4()}"
            status, doc, _ = run.client.post(writer, POST_MUTATION, {"c": text}, token)
            answered = time.monotonic()
            if status != 200 or doc.get("errors"):
                raise Failure(f"subscriptions: createPost through {writer}: {status} {doc}")
            stop = answered + 5
            while time.monotonic() < stop:
                try:
                    message = json.loads(socket.recv(timeout=max(0.01, stop - time.monotonic())))
                except TimeoutError:
                    break
                if message.get("type") == "next" and message["payload"]["data"]["feedPosts"]["content"] == text:
                    latencies.append(time.monotonic() - answered)
                    delivered += 1
                    break
        finally:
            socket.close()
    log(f"subscriptions: {delivered}/{rounds} posts written through one replica reached a subscriber on the other")
    run.row("subscription events across replicas (delivered)", f"{delivered}/{rounds}", "all", delivered == rounds)
    if latencies:
        run.row("  write answered -> event on the other replica: p50 / p99 / max",
                f"{ms(pct(latencies, 50))} / {ms(pct(latencies, 99))} / {ms(max(latencies))}", "p99 < 250 ms",
                pct(latencies, 99) < 0.25)
