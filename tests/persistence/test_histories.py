"""Signed hand histories and ``paiju verify``: a real hand verifies; each forged or changed
part is caught by its own check, naming the record where it is found."""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from paiju.cli.__main__ import main
from paiju.persistence.histories import Histories, describe, signed
from paiju.persistence.memory import MemoryStore
from paiju.persistence.signing import HistoryKey, key_path, load_or_create
from paiju.persistence.sqlite import SqliteStore
from paiju.persistence.store import Store
from paiju.persistence.verify import verify_history, verify_room
from paiju.table.commands import Act, Join, Ready, SendSeed
from paiju.table.effects import Effect
from paiju.table.ledger import GENESIS_PREV, Entry, link
from paiju.table.records import RoomCreated
from paiju.table.table import HAND_OVER, Table, TableSettings
from tests.persistence.writer import write_effects
from tests.table.fake_engine import FirstLegalBot, RaceEngine

KEY = HistoryKey.ephemeral()


@pytest.fixture(autouse=True)
def _race(race_variant: None) -> None:
    """The histories of the tests' race variant are checked through the registry."""


def play(store: Store, hands: int = 2) -> Table:
    """A race room of ann and bob: ann sends her own seeds; ``hands`` hands are played."""
    engine = RaceEngine()
    created = RoomCreated("r1", "race", {"seats": 2, "target": 6, "hands": 3}, "room-seed",
                          {}, 1.0, "fair-v1")
    table = Table("r1", engine, engine.normalize_options(created.options), created.seed,
                  TableSettings(timers={}, between_hands=1.0), lambda s, lv: FirstLegalBot())
    effects: list[Effect] = table.open_room(created)
    effects += table.handle(None, Join("ann"), 0.0) + table.handle(None, Join("bob"), 0.0)
    effects += table.handle(0, SendSeed(0, "ann-0"), 0.0)
    effects += table.handle(0, Ready(), 0.0) + table.handle(1, Ready(), 0.0)
    now = 0.0
    while len(table.hand_scores) < hands:
        if table.phase == HAND_OVER:
            now += 1.0
            effects += table.tick(now)
            continue
        if 0 not in table.match.client_seeds:
            effects += table.handle(0, SendSeed(table.seed_hand(), f"ann-{table.seed_hand()}"),
                                    now)
        seat = min(table.decisions.waiting)
        legal = sorted(table.engine.legal_actions(table.state, seat))
        effects += table.handle(seat, Act(table.shown_version(seat), legal[-1]), now)
    write_effects(store, "r1", effects)
    return table


def history(hand: int = 0) -> dict[str, Any]:
    store = MemoryStore()
    play(store)
    found = Histories(store, KEY).get("r1", hand)
    assert found is not None
    return found


def checks(verdicts: list[Any]) -> list[tuple[str, bool]]:
    return [(v.check, v.ok) for v in verdicts]


def forge(original: dict[str, Any], edit: Callable[[list[Entry]], None]) -> dict[str, Any]:
    """What a dishonest server could send: records edited, the chain rehashed and relinked,
    the document rebuilt from the edited records and signed again with the real key."""
    document = original["history"]
    entries = [Entry(*e) for e in document["chain"]["entries"]]
    edit(entries)
    prev = entries[0].prev
    relinked = []
    for e in entries:
        entry = Entry(e.n, e.kind, e.body, prev, link(prev, e.n, e.kind, e.body))
        relinked.append(entry)
        prev = entry.hash
    again = describe(document["room"], document["variant"], document["options"],
                     document["hand"], relinked, document["public_key"])
    return signed(again, KEY)


def edit_body(kind: str, change: Callable[[dict[str, Any]], None], which: int = 0
              ) -> Callable[[list[Entry]], None]:
    def edit(entries: list[Entry]) -> None:
        index = [i for i, e in enumerate(entries) if e.kind == kind][which]
        data = json.loads(entries[index].body)
        change(data)
        e = entries[index]
        entries[index] = Entry(e.n, e.kind, json.dumps(data, sort_keys=True,
                                                        separators=(",", ":")), e.prev, e.hash)
    return edit


def test_a_full_hand_verifies() -> None:
    found = history(1)
    document = found["history"]
    assert document["deal"]["client_seeds"][0] == {"seat": 0, "seed": "ann-1",
                                                   "origin": "client"}
    assert document["deal"]["client_seeds"][1]["origin"] == "server"
    assert document["actions"] and document["chain"]["head"] == document["chain"]["entries"][
        -1][4]
    verdicts = verify_history(found, KEY.public_hex)
    assert all(v.ok for v in verdicts), [v.line() for v in verdicts]
    assert [v.check for v in verdicts] == [
        "document", "signature", "chain", "records", "commitment", "client seeds",
        "deal, actions and scores",
    ]


def test_no_history_for_a_hand_not_over_or_a_room_unknown() -> None:
    store = MemoryStore()
    play(store, hands=2)
    histories = Histories(store, KEY)
    assert histories.get("r1", 1) is not None
    assert histories.get("r1", 2) is None  # dealt, in progress
    assert histories.get("r1", 9) is None and histories.get("nope", 0) is None


def test_a_changed_signature_is_caught() -> None:
    found = history()
    sig = found["signature"]
    found["signature"] = ("0" if sig[0] != "0" else "1") + sig[1:]
    assert checks(verify_history(found))[-1] == ("signature", False)


def test_a_document_signed_by_another_key_is_caught_when_the_key_is_known() -> None:
    found = signed(history()["history"] | {"public_key": HistoryKey.ephemeral().public_hex},
                   KEY)
    assert checks(verify_history(found, KEY.public_hex))[-1] == ("signature", False)


def test_a_changed_action_is_caught_by_the_chain() -> None:
    found = history()
    entries = found["history"]["chain"]["entries"]
    index = next(i for i, e in enumerate(entries) if e[1] == "action")
    entries[index][2] = entries[index][2].replace('"seat":', '"seat":1')
    found = signed(found["history"], KEY)  # even signed again: the hash no longer matches
    verdicts = verify_history(found)
    assert checks(verdicts)[-1] == ("chain", False) and verdicts[-1].record == entries[index][0]


def test_an_action_changed_only_in_the_summary_is_caught() -> None:
    found = history()
    found["history"]["actions"][0]["action"] = "add 2"
    found = signed(found["history"], KEY)
    assert checks(verify_history(found))[-1] == ("records", False)


def test_an_illegal_action_is_caught_by_the_replay_naming_its_record() -> None:
    def illegal(data: dict[str, Any]) -> None:
        data["action"] = "add 1"  # the first action is a vote: "go" only

    forged = forge(history(), edit_body("action", illegal))
    verdicts = verify_history(forged)
    assert checks(verdicts)[-1] == ("deal, actions and scores", False)
    first_action = next(e for e in forged["history"]["chain"]["entries"] if e[1] == "action")
    assert verdicts[-1].record == first_action[0]


def test_one_changed_seed_byte_is_caught_by_the_commitment() -> None:
    def flip(data: dict[str, Any]) -> None:
        seed = data["hand_seed"]
        data["hand_seed"] = ("f" if seed[0] != "f" else "e") + seed[1:]

    assert checks(verify_history(forge(history(), edit_body("hand", flip))))[-1] == (
        "commitment", False
    )


def test_a_server_seed_the_server_chose_is_caught() -> None:
    def choose(data: dict[str, Any]) -> None:
        data["seeds"][1][0] = "a seed that suits the server"

    assert checks(verify_history(forge(history(), edit_body("deal", choose))))[-1] == (
        "client seeds", False
    )


def test_changed_scores_are_caught_by_the_replay() -> None:
    def swap(data: dict[str, Any]) -> None:
        data["scores"] = data["scores"][::-1]
        data["totals"] = data["totals"][::-1]

    verdicts = verify_history(forge(history(), edit_body("hand", swap)))
    assert checks(verdicts)[-1] == ("deal, actions and scores", False)
    assert "scores" in verdicts[-1].detail


def test_a_state_snapshot_that_is_not_what_the_actions_built_is_caught() -> None:
    def stale(data: dict[str, Any]) -> None:
        data["state"]["F"][4] = 99  # the race total

    found = history()
    assert any(e[1] == "snapshot" and '"state":{' in e[2] for e in found["history"]["chain"][
        "entries"])
    verdicts = verify_history(forge(found, edit_body("snapshot", stale, which=1)))
    assert checks(verdicts)[-1] == ("deal, actions and scores", False)
    assert "state" in verdicts[-1].detail


def test_verify_room_checks_every_record_and_names_a_deleted_one(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "db.sqlite3")
    play(store, hands=3)
    verdicts = verify_room(store, "r1")
    assert all(v.ok for v in verdicts), [v.line() for v in verdicts]
    store._db.execute("DELETE FROM entries WHERE room_id = 'r1' AND n = 12")
    verdicts = verify_room(store, "r1")
    assert checks(verdicts) == [("chain", False)] and verdicts[0].record == 12


def test_verify_room_reports_its_progress_record_by_record(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import paiju.persistence.verify as verify

    monkeypatch.setattr(verify, "PROGRESS_EVERY", 8)
    store = SqliteStore(tmp_path / "db.sqlite3")
    play(store, hands=3)
    told: list[tuple[int, int]] = []
    assert all(v.ok for v in verify_room(store, "r1", lambda d, t: told.append((d, t))))
    records = len(store.entries("r1")) - 1
    assert records > 2 * verify.PROGRESS_EVERY  # long enough for reports before the last
    assert told[-1] == (records, records)
    assert [d for d, _ in told] == sorted({d for d, _ in told})  # forward, never repeated
    assert all(t == records and 0 < d <= t for d, t in told) and len(told) >= 3


def test_paiju_verify_prints_a_verdict_per_check_and_fails_non_zero(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(history()))
    assert main(["verify", str(path), "--key", KEY.public_hex]) == 0
    out = capsys.readouterr().out
    assert out.count("ok  ") == 7 and out.strip().endswith("verified")
    bad = history()
    bad["signature"] = "00" * 64
    path.write_text(json.dumps(bad))
    assert main(["verify", str(path)]) == 1
    captured = capsys.readouterr()
    assert "FAIL  signature" in captured.out and "verification failed" in captured.err
    db = tmp_path / "db.sqlite3"
    store = SqliteStore(db)
    play(store)
    store._db.execute("UPDATE entries SET body = replace(body, 'ann', 'eve') WHERE n = 3")
    store.close()
    assert main(["verify", "--room", "r1", "--database", str(db)]) == 1
    assert "record 3" in capsys.readouterr().out
    assert main(["verify", "--room", "nope", "--database", str(db)]) == 1
    good = tmp_path / "good.sqlite3"
    play(SqliteStore(good))
    assert main(["verify", "--room", "r1", "--database", str(good), "--quiet"]) == 0
    assert capsys.readouterr().out.strip().endswith("verified")


def test_the_key_is_made_once_with_mode_0600_and_kept(tmp_path: Path) -> None:
    path = key_path(str(tmp_path / "var" / "paiju.sqlite3"))
    assert path == tmp_path / "var" / "history-key.pem"
    first = load_or_create(path)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    os.chmod(path, 0o644)
    again = load_or_create(path)
    assert again.public_hex == first.public_hex
    assert stat.S_IMODE(path.stat().st_mode) == 0o600  # tightened
    link_path = tmp_path / "link.pem"
    link_path.symlink_to(path)
    with pytest.raises(ValueError, match="cannot use"):
        load_or_create(link_path)
    (tmp_path / "junk.pem").write_text("not a key")
    with pytest.raises(ValueError, match="cannot use"):
        load_or_create(tmp_path / "junk.pem")


def test_a_history_holds_its_hands_records_linked_from_its_snapshot() -> None:
    entries = history()["history"]["chain"]["entries"]
    assert entries[0][1] == "snapshot" and entries[0][3] != GENESIS_PREV
    assert entries[-1][1] == "hand"
    assert any(e[1] == "deal" for e in entries) and all(
        entries[i + 1][3] == entries[i][4] for i in range(len(entries) - 1)
    )


def test_requests_for_hands_not_over_read_a_room_once_until_it_changes() -> None:
    class Counting(MemoryStore):
        reads = 0

        def chain(self, room_id: str) -> list[Entry]:
            Counting.reads += 1
            return super().chain(room_id)

    store = Counting()
    table = play(store, hands=1)
    histories = Histories(store, KEY)
    for _ in range(20):
        assert histories.get("r1", 5) is None
    assert Counting.reads == 1
    write_effects(store, "r1", table.tick(1_000.0))  # the next hand is dealt: new records
    assert histories.get("r1", 5) is None and Counting.reads == 2
