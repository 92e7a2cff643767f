"""Restoring a room from SQLite: snapshot + tail, checked against the chain; tampering found."""

from __future__ import annotations

from pathlib import Path

import pytest

from paiju.persistence.restore import Damaged, check_chain, restore_room
from paiju.persistence.sqlite import SqliteStore
from paiju.table.commands import Act, Join, Ready
from paiju.table.effects import Effect
from paiju.table.records import RoomCreated
from paiju.table.table import HAND_OVER, PLAYING, Table, TableSettings
from tests.persistence.writer import write_effects
from tests.table.fake_engine import FirstLegalBot, RaceEngine

SETTINGS = TableSettings(timers={"claim": 20.0, "turn": 30.0}, between_hands=3.0)
OPTIONS = {"seats": 2, "target": 9, "hands": 4}


def make(created: RoomCreated) -> Table:
    engine = RaceEngine()
    return Table(created.room, engine, engine.normalize_options(created.options), created.seed,
                 SETTINGS, lambda seat, level: FirstLegalBot(), created.scheme)


def played(store: SqliteStore, hands: int) -> Table:
    """A room of ann and bob stored as it is played: ``hands`` hands, then one action."""
    created = RoomCreated("r1", "race", OPTIONS, "seed", {}, 1.0, "fair-v1")
    table = make(created)
    effects: list[Effect] = table.open_room(created)
    effects += table.handle(None, Join("ann"), 0.0) + table.handle(None, Join("bob"), 0.0)
    effects += table.handle(0, Ready(), 0.0) + table.handle(1, Ready(), 0.0)
    now = 0.0
    while table.hand < hands or table.phase != PLAYING or table.seq == 0:
        if table.phase == HAND_OVER:
            now += 3.0
            effects += table.tick(now)
            continue
        seat = min(table.decisions.waiting)
        legal = sorted(table.engine.legal_actions(table.state, seat))
        effects += table.handle(seat, Act(table.shown_version(seat), legal[0]), now)
        if table.hand == hands and table.seq > 0 and table.state.phase == "play":
            break
    write_effects(store, "r1", effects)
    return table


@pytest.fixture
def store(tmp_path: Path) -> SqliteStore:
    return SqliteStore(tmp_path / "db.sqlite3")


def test_a_room_comes_back_from_its_last_snapshot(store: SqliteStore) -> None:
    table = played(store, 2)
    first = store.restore_entries("r1")
    assert first[0].entry.n == 0 and first[1].entry.kind == "snapshot"
    assert first[1].entry.n > 10  # the records of hands 0 and 1 are not read
    back = restore_room(store, "r1", make, 500.0, 10_000.0).table
    assert (back.hand, back.state, back.totals, back.seq) == (
        table.hand, table.state, table.totals, table.seq
    )
    assert back.ledger.head == table.ledger.head and back.genesis == table.genesis


def test_a_changed_record_in_the_tail_is_refused(store: SqliteStore) -> None:
    played(store, 1)
    last = store.entries("r1")[-1].entry.n
    store._db.execute(
        "UPDATE entries SET body = replace(body, '\"seat\":0', '\"seat\":1') "
        "WHERE room_id = 'r1' AND n = ?", (last,),
    )
    with pytest.raises(Damaged) as caught:
        restore_room(store, "r1", make, 0.0, 0.0)
    assert caught.value.n == last and "hash" in caught.value.reason


def test_a_deleted_record_is_refused(store: SqliteStore) -> None:
    played(store, 1)
    rows = store.entries("r1")
    gone = rows[-2].entry.n
    store._db.execute("DELETE FROM entries WHERE room_id = 'r1' AND n = ?", (gone,))
    with pytest.raises(Damaged) as caught:
        restore_room(store, "r1", make, 0.0, 0.0)
    assert caught.value.n == gone and "missing" in caught.value.reason


def test_a_record_deleted_before_the_snapshot_is_found_by_the_whole_chain_check(
    store: SqliteStore,
) -> None:
    played(store, 2)
    store._db.execute("DELETE FROM entries WHERE room_id = 'r1' AND n = 5")
    restore_room(store, "r1", make, 0.0, 0.0)  # the tail alone still verifies
    with pytest.raises(Damaged) as caught:
        check_chain(store, "r1")
    assert caught.value.n == 5


def test_a_record_rehashed_after_a_change_breaks_the_next_link(store: SqliteStore) -> None:
    from paiju.table.ledger import link

    played(store, 1)
    rows = store.entries("r1")
    target = rows[-2].entry
    body = target.body.replace('"version":', '"version":1')
    assert body != target.body
    new_hash = link(target.prev, target.n, target.kind, body)
    store._db.execute(
        "UPDATE entries SET body = ?, hash = ? WHERE room_id = 'r1' AND n = ?",
        (body, new_hash, target.n),
    )
    with pytest.raises(Damaged) as caught:
        restore_room(store, "r1", make, 0.0, 0.0)
    assert caught.value.n == target.n + 1 and "link" in caught.value.reason


def test_a_missing_snapshot_is_refused(store: SqliteStore) -> None:
    played(store, 2)
    snap = store._db.execute("SELECT snapshot_n FROM rooms WHERE room_id = 'r1'").fetchone()[0]
    store._db.execute("DELETE FROM entries WHERE room_id = 'r1' AND n = ?", (snap,))
    with pytest.raises(Damaged, match="snapshot is missing"):
        restore_room(store, "r1", make, 0.0, 0.0)


def during_hand(store: SqliteStore, actions: int) -> Table:
    """A room of ann and bob stored as it is played: ``actions`` actions of hand 0."""
    created = RoomCreated("r1", "race", OPTIONS, "seed", {}, 1.0, "fair-v1")
    table = make(created)
    effects: list[Effect] = table.open_room(created)
    effects += table.handle(None, Join("ann"), 0.0) + table.handle(None, Join("bob"), 0.0)
    effects += table.handle(0, Ready(), 0.0) + table.handle(1, Ready(), 0.0)
    for _ in range(actions):
        seat = min(table.decisions.waiting)
        legal = sorted(table.engine.legal_actions(table.state, seat))
        effects += table.handle(seat, Act(table.shown_version(seat), legal[0]), 0.0)
    write_effects(store, "r1", effects)
    return table


def snapshots(store: SqliteStore) -> tuple[int, list[int]]:
    """The room's ``snapshot_n`` and the numbers of its snapshot entries."""
    pointer = store._db.execute("SELECT snapshot_n FROM rooms WHERE room_id = 'r1'").fetchone()
    found = [e.entry.n for e in store.entries("r1") if e.entry.kind == "snapshot"]
    return int(pointer[0]), found


def test_a_restore_during_a_hand_reads_from_the_hands_last_snapshot(store: SqliteStore
                                                                    ) -> None:
    table = during_hand(store, 5)  # snapshots: the hand's first, after actions 2 and 4
    pointer, found = snapshots(store)
    assert len(found) == 3 and pointer == found[0]  # the row moves at the hand's start only
    read = [e.entry.n for e in store.restore_entries("r1")]
    assert read == [0, *range(found[-1], store.entries("r1")[-1].entry.n + 1)]
    assert store.entries("r1")[read[1]].entry.kind == "snapshot"
    back = restore_room(store, "r1", make, 0.0, 0.0).table
    assert (back.state, back.seq, back.ledger.head) == (table.state, table.seq,
                                                        table.ledger.head)


def test_a_database_pointing_at_its_last_snapshot_reads_the_same(store: SqliteStore) -> None:
    # Older releases moved snapshot_n with every snapshot.
    during_hand(store, 5)
    before = store.restore_entries("r1")
    last = snapshots(store)[1][-1]
    store._db.execute("UPDATE rooms SET snapshot_n = ? WHERE room_id = 'r1'", (last,))
    assert store.restore_entries("r1") == before


def test_a_missing_last_snapshot_during_a_hand_is_refused(store: SqliteStore) -> None:
    during_hand(store, 5)
    last = snapshots(store)[1][-1]
    store._db.execute("DELETE FROM entries WHERE room_id = 'r1' AND n = ?", (last,))
    with pytest.raises(Damaged) as caught:
        restore_room(store, "r1", make, 0.0, 0.0)
    assert caught.value.n == last and "missing" in caught.value.reason
