"""What the Redis store does beyond the shared conformance tests: it keeps everything across
a reconnect and a Redis restart (AOF), a retried write is applied once, a gap is refused,
a fenced node writes only under the lease it holds, and an unreachable Redis is retried for
the store's budget and then reported."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
import redis

from paiju.persistence.redisstore import LeaseLost, RedisStore, StoreUnavailable, key
from paiju.persistence.store import actions
from paiju.table.records import ActionRecord, RoomStatus
from tests import redisd
from tests.persistence.writer import Writer, created
from tests.redisd import RedisServer


def test_everything_survives_a_reconnect_and_a_redis_restart(redis_server: RedisServer,
                                                               redis_url: str) -> None:
    first = RedisStore(redis_url)
    writer = Writer(first, "r1")
    writer.add(created())
    writer.add(ActionRecord(0, 1, 0, "go", "player", 3), {0: 99.5})
    first.save_token("h0", "r1", 0)
    first.close()
    redis_server.stop()
    redis_server.start()
    again = RedisStore(redis_url)
    assert [r.room_id for r in again.list_rooms()] == ["r1"]
    assert [a.action for a in actions(again, "r1")] == ["go"]
    assert again.entries("r1")[1].deadlines == {0: 99.5}
    assert again.find_token("h0") == ("r1", 0)
    assert again.last_entry("r1") == 1 and again.last_entry("nope") is None
    assert again.live_rooms() == {"r1"}


def test_a_retried_write_is_applied_once_and_a_gap_is_refused(redis_url: str) -> None:
    store = RedisStore(redis_url)
    writer = Writer(store, "r1")
    writer.add(created())
    record = ActionRecord(0, 1, 0, "go", "player", 3)
    entry = writer.ledger.append(record.kind, {"x": 1})
    store.append("r1", record, entry, {})
    store.append("r1", record, entry, {})  # the reply was lost: the same write again
    assert store.last_entry("r1") == 1
    skipped = writer.ledger.append(record.kind, {"x": 2})
    skipped = writer.ledger.append(record.kind, {"x": 3})
    with pytest.raises(redis.exceptions.ResponseError, match="GAP"):
        store.append("r1", record, skipped, {})
    assert store.last_entry("r1") == 1


def test_finished_and_closed_rooms_leave_the_live_set(redis_url: str) -> None:
    store = RedisStore(redis_url)
    for room in ("a", "b"):
        Writer(store, room).add(created(room))
    writer = Writer(store, "c")
    writer.add(created("c"))
    writer.add(RoomStatus("playing", (0, 0), (), 1))
    assert store.live_rooms() == {"a", "b", "c"}
    writer.add(RoomStatus("finished", (0, 0), (), 2))
    assert store.live_rooms() == {"a", "b"}


def test_a_fenced_node_writes_only_under_the_lease_it_holds(redis_url: str) -> None:
    store = RedisStore(redis_url, node="n1")
    with pytest.raises(LeaseLost):  # no lease claimed at all: nothing is even sent
        Writer(store, "r1").add(created())
    raw = redis.Redis.from_url(redis_url, decode_responses=True)
    raw.hset(key("lease", "r1"), mapping={"node": "n1", "epoch": "1"})
    store.fence["r1"] = 1
    writer = Writer(store, "r1")
    writer.add(created())
    writer.add(RoomStatus("playing", (0, 0), (), 1))
    # another node claimed the room with a later epoch: this node's next write is refused
    raw.hset(key("lease", "r1"), mapping={"node": "n2", "epoch": "2"})
    with pytest.raises(LeaseLost):
        writer.add(RoomStatus("hand_over", (0, 0), (), 2))
    assert store.last_entry("r1") == 1 and "r1" not in store.fence
    # the same node id with a stale epoch is refused too (it claimed, lost, claimed again)
    raw.hset(key("lease", "r1"), mapping={"node": "n1", "epoch": "3"})
    store.fence["r1"] = 1
    with pytest.raises(LeaseLost):
        writer.add(RoomStatus("hand_over", (0, 0), (), 2))
    assert store.last_entry("r1") == 1


def test_an_unreachable_redis_is_retried_then_reported(redis_server: RedisServer,
                                                       redis_url: str) -> None:
    store = RedisStore(redis_url, retry_for=0.4, timeout=0.2)
    Writer(store, "r1").add(created())
    redis_server.stop()
    try:
        start = time.monotonic()
        with pytest.raises(StoreUnavailable):
            store.get_room("r1")
        assert 0.2 <= time.monotonic() - start < 3.0
    finally:
        redis_server.start()
    assert store.get_room("r1") is not None  # and it reconnects by itself


@pytest.mark.parametrize(("ci", "outcome"), [("true", pytest.fail.Exception),
                                             ("", pytest.skip.Exception)])
def test_a_missing_redis_server_fails_under_ci_and_skips_elsewhere(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, ci: str, outcome: type[Exception]
) -> None:
    monkeypatch.setenv("CI", ci)
    monkeypatch.delenv("PAIJU_REDIS_SERVER", raising=False)
    monkeypatch.setattr(redisd.shutil, "which", lambda name: None)
    monkeypatch.setattr(redisd, "DEBIAN_BINARY", tmp_path / "nowhere")
    with pytest.raises(outcome, match="redis-server is missing"):
        redisd.redis_binary()
