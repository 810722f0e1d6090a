#!/usr/bin/env python3
"""Subscription.notifications over WebSocket (graphql-transport-ws) with gql: prints each new follower, like and comment as it happens.

Usage: examples/subscriptions/notifications-ws.py   (TOKEN=... or AS=bob_builder; GATEWAY_URL as in examples/curl)
Then, elsewhere: AS=bob_builder examples/curl/add-comment.sh   (a comment on alice_wonder's post)
Needs gql 4 and websockets (scripts/setup installs them; or pip install 'gql[websockets]>=4,<5').
"""
import asyncio, json, os, sys, urllib.request

from gql import Client, gql
from gql.transport.websockets import WebsocketsTransport

GATEWAY_URL = os.environ.get("GATEWAY_URL", "http://127.0.0.1:8080")
NOTIFICATIONS = gql("""
  subscription {
    notifications {
      __typename createdAt actor { handle }
      ... on LikeNotification { post { id content } }
      ... on CommentNotification { post { id } comment { content } }
    }
  }""")


def token():
    """TOKEN, or (embedded mode) a dev token for AS (default alice_wonder) from /playground/demo-tokens."""
    if os.environ.get("TOKEN"):
        return os.environ["TOKEN"]
    handle = os.environ.get("AS", "alice_wonder")
    with urllib.request.urlopen(GATEWAY_URL + "/playground/demo-tokens", timeout=10) as response:
        return next(u["token"] for u in json.load(response)["users"] if u["handle"] == handle)


async def main():
    transport = WebsocketsTransport(
        url=GATEWAY_URL.replace("http", "ws", 1) + "/graphql",
        subprotocols=[WebsocketsTransport.GRAPHQLWS_SUBPROTOCOL],   # graphql-transport-ws
        init_payload={"Authorization": "Bearer " + token()})        # sent in connection_init
    async with Client(transport=transport) as session:
        print("listening for notifications (Ctrl+C to stop)", file=sys.stderr, flush=True)
        async for data in session.subscribe(NOTIFICATIONS):
            print(json.dumps(data["notifications"]), flush=True)


if __name__ == "__main__":
    try:
        asyncio.run(main())
    except KeyboardInterrupt:
        pass
