"""What SQLite has acknowledged is stored: an entry appended alone (one statement, no
explicit transaction), entries appended alone together (one statement of several rows) or
with others (one transaction) are found after the writing process is killed with SIGKILL
before it closes the database; the deadlines read back as written."""

from __future__ import annotations

import json
import math
import signal
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from paiju.persistence.sqlite import SqliteStore, deadlines_text
from paiju.table.records import ActionRecord, Snapshot
from tests.persistence.writer import Writer, created

WRITE_THEN_DIE = textwrap.dedent("""
    import os, signal, sys
    from paiju.persistence.sqlite import SqliteStore
    from paiju.table.records import ActionRecord, Snapshot
    from tests.persistence.writer import Writer, created

    store = SqliteStore(sys.argv[1])
    writer = Writer(store, "r1")
    writer.add(created())
    for seq in range(1, 301):  # alone: one INSERT each, committed by itself
        writer.add(ActionRecord(0, seq, seq % 2, "go", "player", seq), {0: 1e9 + seq})
    action = ActionRecord(0, 301, 1, "go", "player", 301)
    snapshot = Snapshot(0, (0, 0), {}, (), 301, 301, ())
    items = [(r, writer.ledger.append(r.kind, {"record": r.kind}), {}) for r in (action, snapshot)]
    store.append_many("r1", items)  # together: one transaction
    action = ActionRecord(0, 302, 0, "go", "player", 302)
    during = Snapshot(0, (0, 0), {}, (), 302, 302, (), state=[1, None])
    items = [(r, writer.ledger.append(r.kind, {"record": r.kind}), {}) for r in (action, during)]
    store.append_many("r1", items)  # entries alone: one INSERT of both rows
    print("acknowledged", flush=True)
    os.kill(os.getpid(), signal.SIGKILL)  # no close: the log is not checkpointed
""")


def test_acknowledged_entries_survive_a_kill_9_of_the_writer(tmp_path: Path) -> None:
    path = tmp_path / "db.sqlite3"
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run([sys.executable, "-c", WRITE_THEN_DIE, str(path)], cwd=root,
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == -signal.SIGKILL, done.stderr
    assert done.stdout.strip() == "acknowledged"
    assert Path(f"{path}-wal").exists()  # what was committed is still in the log
    store = SqliteStore(path)
    entries = store.entries("r1")
    assert [e.entry.n for e in entries] == list(range(305))
    assert entries[300].deadlines == {0: 1e9 + 300}
    assert [e.entry.kind for e in entries[-4:]] == ["action", "snapshot"] * 2
    assert [e.entry.n for e in store.restore_entries("r1")] == [0, 304]
    store.close()


def test_deadlines_are_written_as_the_standard_library_reads_them() -> None:
    assert deadlines_text({}) == "{}"
    written = deadlines_text({0: 1764052000.123456, 3: 1e9, 2: 5})
    assert json.loads(written) == {"0": 1764052000.123456, "3": 1e9, "2": 5}
    # a time that is not finite is written so that it reads back (orjson would write null)
    assert json.loads(deadlines_text({1: math.inf})) == {"1": math.inf}


def test_a_commit_that_fails_is_rolled_back_and_the_next_lone_write_is_stored(
    tmp_path: Path,
) -> None:
    # A deferred foreign key makes COMMIT itself fail (the entries name a room that does not
    # exist), which leaves SQLite's transaction open unless the store ends it.
    path = tmp_path / "db.sqlite3"
    store = SqliteStore(path)
    writer = Writer(store, "r1")
    writer.add(created())
    ghost = Writer(store, "ghost")
    items = [(r, ghost.ledger.append(r.kind, {"record": r.kind}), {})
             for r in (ActionRecord(0, 1, 0, "go", "player", 1),
                       Snapshot(0, (0, 0), {}, (), 1, 1, ()))]
    store._db.execute("PRAGMA defer_foreign_keys = ON")
    with pytest.raises(sqlite3.IntegrityError):
        store.append_many("ghost", items)
    assert not store._db.in_transaction
    writer.add(ActionRecord(0, 1, 0, "go", "player", 1))  # alone: autocommit
    other = SqliteStore(path)  # another connection sees only what was committed
    assert [e.entry.n for e in other.entries("r1")] == [0, 1]
    assert other.entries("ghost") == []
    other.close()
    store.close()


def test_a_transaction_block_whose_commit_fails_is_rolled_back(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "db.sqlite3")
    store._db.execute("PRAGMA defer_foreign_keys = ON")
    with pytest.raises(sqlite3.IntegrityError), store._transaction():
        store._db.execute("INSERT INTO tokens VALUES ('t', 'no-such-room', 0)")
    assert not store._db.in_transaction
    assert store.find_token("t") is None
    store.close()


def test_entries_written_in_one_statement_are_stored_all_or_none(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "db.sqlite3")
    writer = Writer(store, "r1")
    writer.add(created())
    writer.add(ActionRecord(0, 1, 0, "go", "player", 1))
    stored = store.entries("r1")[-1].entry
    action = ActionRecord(0, 2, 1, "go", "player", 2)
    during = Snapshot(0, (0, 0), {}, (), 2, 2, (), state=[2])
    fresh = writer.ledger.append(action.kind, {"record": action.kind})
    # the second row takes a number already stored: neither is written
    with pytest.raises(sqlite3.IntegrityError):
        store.append_many("r1", [(action, fresh, {1: 5.0}), (during, stored, {})])
    assert not store._db.in_transaction
    assert [e.entry.n for e in store.entries("r1")] == [0, 1]
    after = writer.ledger.append(during.kind, {"record": during.kind})
    store.append_many("r1", [(action, fresh, {1: 5.0}), (during, after, {})])
    again = SqliteStore(tmp_path / "db.sqlite3")  # another connection: committed
    read = again.entries("r1")
    assert [(e.entry, e.deadlines) for e in read[2:]] == [(fresh, {1: 5.0}), (after, {})]
    assert again._db.execute("SELECT snapshot_n FROM rooms").fetchone()[0] == 0
    again.close()
    store.close()
