"""``paiju cluster status`` and ``paiju node drain NODE``: they read and write the cluster's
Redis directly (the ``store`` setting), so they work whichever nodes are up."""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

from paiju.cli.common import add_command, config_from, out, with_config


def _client(args: argparse.Namespace) -> Any:
    import redis

    url = args.store or config_from(args).store
    if not url:
        raise ValueError("no cluster: set store to the Redis URL (--store or --set store=...)")
    client = redis.Redis.from_url(url, decode_responses=True, socket_timeout=3)
    try:
        client.ping()
    except redis.exceptions.RedisError as exc:
        raise ValueError(f"cannot reach the Redis store {url}: {exc}") from None
    return client


def status(client: Any) -> dict[str, Any]:
    """Nodes (heartbeat age, rooms, draining), and each live room's owner and lease."""
    from paiju.persistence.redisstore import key
    from paiju.server.nodes import leases, nodes

    now = time.time()
    live = sorted(str(r) for r in client.smembers(key("live")))
    held = leases(client, live)
    return {
        "nodes": [
            {"node": n.node, "url": n.url, "rooms": n.rooms, "draining": n.draining,
             "heartbeat_age": round(max(0.0, now - n.beat), 3)}
            for n in nodes(client)
        ],
        "rooms": [
            {"room": room, "node": held[room].node, "epoch": held[room].epoch,
             "lease_left": held[room].left, "held_for": round(held[room].held_for, 3)}
            if room in held else
            {"room": room, "node": None, "epoch": None, "lease_left": None, "held_for": None}
            for room in live
        ],
    }


def cmd_status(args: argparse.Namespace) -> int:
    from rich.table import Table

    found = status(_client(args))
    if args.json:
        print(json.dumps(found, indent=2))
        return 0
    nodes = Table("node", "url", "rooms", "heartbeat age (s)", "draining",
                  title="paiju cluster", title_justify="left")
    for n in found["nodes"]:
        nodes.add_row(n["node"], n["url"], str(n["rooms"]), f"{n['heartbeat_age']:.1f}",
                      "yes" if n["draining"] else "")
    out().print(nodes)
    rooms = Table("room", "owner", "epoch", "lease left (s)", "held for (s)",
                  title="live rooms", title_justify="left")
    for r in found["rooms"]:
        left, held = r["lease_left"], r["held_for"]
        rooms.add_row(r["room"], r["node"] or "(none: being claimed)", str(r["epoch"] or ""),
                      "" if left is None else f"{left:.1f}", "" if held is None else f"{held:.1f}")
    out().print(rooms)
    return 0


def cmd_drain(args: argparse.Namespace) -> int:
    from paiju.server.nodes import nodes, request_drain

    client = _client(args)
    known = {n.node for n in nodes(client)}
    if args.node not in known:
        print(f"paiju: no live node {args.node!r}; nodes: {', '.join(sorted(known)) or 'none'}")
        return 1
    request_drain(client, args.node, at_once=args.now)
    if args.wait:
        deadline = time.monotonic() + args.wait
        while args.node in {n.node for n in nodes(client)}:
            if time.monotonic() > deadline:
                print(f"paiju: node {args.node} still runs after {args.wait:g} s")
                return 1
            time.sleep(0.1)
        print(f"node {args.node}: drained, its rooms moved, stopped")
    else:
        print(f"node {args.node}: asked to drain (its rooms move to the others, then it stops)")
    return 0


def add_cluster_commands(sub: Any) -> None:
    cluster = add_command(sub, "cluster", "the Redis cluster's state",
                          "paiju cluster status --store redis://127.0.0.1:6379/0")
    cluster_sub = cluster.add_subparsers(dest="cluster_command", required=True)
    show = add_command(cluster_sub, "status",
                       "nodes with their heartbeat age and rooms, each live room's owner, "
                       "epoch and lease", "paiju cluster status --json")
    with_config(show)
    show.add_argument("--store", help="the cluster's Redis URL (setting store)")
    show.add_argument("--json", action="store_true", help="print JSON")
    show.set_defaults(func=cmd_status)

    node = add_command(sub, "node", "one node of the cluster",
                       "paiju node drain host-1234-ab12 --wait 60")
    node_sub = node.add_subparsers(dest="node_command", required=True)
    drain = add_command(node_sub, "drain",
                        "move a node's rooms to the other nodes, each at the end of its hand "
                        "(--now: at once, restored there from their log), players redirected; "
                        "then stop it",
                        "paiju node drain host-1234-ab12 --store redis://127.0.0.1:6379/0")
    with_config(drain)
    drain.add_argument("node", help="the node's id (paiju cluster status lists them)")
    drain.add_argument("--store", help="the cluster's Redis URL (setting store)")
    drain.add_argument("--now", action="store_true",
                       help="move every room at once, mid-hand (default: at each hand's end)")
    drain.add_argument("--wait", type=float, default=0.0,
                       help="seconds to wait until the node has left (default: do not wait)")
    drain.set_defaults(func=cmd_drain)
