"""One hand bookkeeping: the table, replay and self-play deal and book a match alike."""

from __future__ import annotations

from paiju.bots.selfplay import play_match
from paiju.engines.registry import get_variant
from paiju.persistence.replay import replay_hands
from paiju.table.commands import Start
from paiju.table.effects import ActionRecord, Persist
from paiju.table.match import Match
from paiju.table.table import FINISHED, Table, TableSettings
from tests.table.fake_engine import FirstLegalBot, RaceEngine


def test_a_match_deals_books_and_ends() -> None:
    engine = RaceEngine()
    match = Match(engine, engine.normalize_options({"hands": 2}), "seed")
    assert match.totals == (0, 0) and not match.over()
    first = match.deal()
    assert match.deal() == first  # the same hand number deals the same hand
    done = first
    while not engine.is_terminal(done):
        seat = min(engine.to_act(done))
        done = engine.apply(done, seat, sorted(engine.legal_actions(done, seat))[0]).state
    scores = match.finish(done)
    assert match.hand == 0 and match.totals == scores and match.hand_scores == [scores]
    assert match.carry == engine.carry(done)
    match.advance()
    assert match.hand == 1 and match.info().carry == engine.carry(done)
    match.advance()
    assert match.over()
    match.restart()
    assert (match.hand, match.totals, match.hand_scores) == (0, (0, 0), [])


def test_table_replay_and_selfplay_agree_on_a_real_match() -> None:
    variant = get_variant("dragon")
    engine = variant.engine()
    options = engine.normalize_options({"seats": 3, "hands": 3})
    table = Table(
        "r",
        engine,
        options,
        "agree",
        TableSettings(timers={}, bot_delay=0.0, between_hands=0.0),
        lambda seat, level: FirstLegalBot(),
    )
    effects = table.handle(None, Start(), 0.0)
    while table.phase != FINISHED:
        effects += table.tick(0.0)
    log = [e.record for e in effects if isinstance(e, Persist)]
    log = [r for r in log if isinstance(r, ActionRecord)]
    replayed = [h.scores for h in replay_hands(engine, options, "agree", log)]
    assert replayed == table.hand_scores and len(replayed) == 3
    scores, _, actions = play_match(engine, options, "agree", [FirstLegalBot()] * 3)
    assert scores == table.hand_scores and actions == len(log)


def test_a_commitment_is_the_hand_seeds_whichever_hand_or_seed_asked_before() -> None:
    from paiju.core.fairness import SEEDED_V0, commitment, hand_seed_for

    engine = RaceEngine()
    match = Match(engine, engine.normalize_options({"hands": 3}), "seed")
    for hand in (0, 0, 1, 0, 2, 2):  # asked again, and back to an earlier hand
        assert match.commitment(hand) == commitment(hand_seed_for("seed", hand))
    match.seed = "other"
    assert match.commitment(2) == commitment(hand_seed_for("other", 2))
    match.revealed[2] = b"\x01" * 32  # a verifier's revealed seed outranks the room seed
    assert match.commitment(2) == commitment(b"\x01" * 32)
    old = Match(engine, engine.normalize_options({"hands": 3}), "seed", scheme=SEEDED_V0)
    assert old.commitment(0) is None
