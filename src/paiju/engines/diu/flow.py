"""The turn flow of rules §3.1: deal, the head's first discard, discard and draw polls,
takes, 丢 and the end of the stock. Pure functions over ``DiuState``.

Hidden information in a poll (A12, S14). By default every polled seat is asked in the seed's
order and offered every call its own hand allows (``offer_calls = "hand"``), even when it can
only pass (``silent_seats = "ask"``): what a seat is offered, and whether it is asked at all,
then depend only on its own hand and public facts, and the number of answers does not depend
on anyone's hand (no viewer can count them anyway: views carry no version). A call that is
not strictly higher than the standing call is refused at the fold and counts as a pass (S8,
A8). Two options trade that for speed or the literal seed: ``silent_seats = "skip"`` answers
``pass`` for a seat that can only pass (so how fast the poll moves on shows whether an earlier
seat could call), and ``offer_calls = "above_standing"`` offers only calls above the standing
one (so a seat learns the standing call's level, like the seed's ``call_in_desktop_card``).
"""

from __future__ import annotations

from collections import Counter
from functools import cache
from typing import Any

from paiju.core.errors import NotYourTurn
from paiju.core.rng import Rng
from paiju.core.seats import Seat
from paiju.engines.base import Event
from paiju.engines.diu import arbitration as arb
from paiju.engines.diu import combos
from paiju.engines.diu.cards import ALL_TOKENS, profile, sort_cards
from paiju.engines.diu.deck import deal, shuffle
from paiju.engines.diu.schema import (
    CardSourceEvent,
    DiuEvent,
    DrawEvent,
    HandOverEvent,
    SeatCardEvent,
    TakeEvent,
)
from paiju.engines.diu.sealed import new_secret, seal_stock
from paiju.engines.diu.state import Action, Config, DiuState, evolve

PASS = Action("pass")
_FOURS = ("kuai_shui", "ying_shui")  # four-card melds: the taker draws a supplement card


def deal_hand(config: Config, rng: Rng, hand_no: int, head: Seat) -> DiuState:
    """A new hand: roles from ``head`` (A), shuffle and deal (A1, A2), A to discard (S17)."""
    n = config.players
    active = tuple((head + i) % n for i in range(3))
    idle = (head + 3) % n if n == 4 else None
    deck = profile(config.deck_profile).deck(config.wild_count)
    order = shuffle(deck, rng, config.shuffle, config.riffle_passes, config.riffle_max_offset)
    by_role, stock = deal(order, config.deal_sizes)
    hands: list[tuple[str, ...]] = [() for _ in range(n)]
    for role, seat in enumerate(active):
        hands[seat] = sort_cards(by_role[role])
    salt = rng.randbelow(1 << 32)
    secret = new_secret(rng) if config.prefetch_mode == "encrypted" else ""
    sealed = seal_stock(tuple(stock), secret) if secret else ()
    return DiuState(
        version=0,
        config=config,
        hand_no=hand_no,
        head=head,
        active=active,
        idle=idle,
        hands=tuple(hands),
        melds=((),) * n,
        stock=tuple(stock),
        drawn=0,
        dead=(),
        phase="discard",
        actor=head,
        takes=(0,) * n,
        salt=salt,
        prefetch_secret=secret,
        sealed=sealed,
    )


def question(state: DiuState, seat: Seat) -> str:
    """What ``seat`` is asked now: discard | call | reask | take | diu_pick | '' (nothing).
    Once per state and seat: every viewer's view, the seat's timer and its options ask."""
    key = ("question", seat)
    found: str | None = state.derived.get(key)
    if found is None:
        found = state.derived[key] = _question(state, seat)
    return found


def _question(state: DiuState, seat: Seat) -> str:
    if state.phase == "discard":
        return "discard" if seat == state.actor else ""
    poll = state.poll
    # ``to_act`` is the poll's awaited seats in a poll, worked out once per state
    if state.phase != "poll" or poll is None or seat not in to_act(state):
        return ""
    return "diu_pick" if seat in state.picking else arb.current_question(poll)


def to_act(state: DiuState) -> frozenset[Seat]:
    """The seats the hand waits for (once per state: every check, list and view asks)."""
    found: frozenset[Seat] | None = state.derived.get("to_act")
    if found is None:
        found = state.derived["to_act"] = _to_act(state)
    return found


def _to_act(state: DiuState) -> frozenset[Seat]:
    if state.phase == "discard" and state.actor is not None:
        return frozenset((state.actor,))
    if state.phase == "poll" and state.poll is not None:
        return frozenset(arb.awaiting(state.poll))
    return frozenset()


def public_to_act(state: DiuState) -> frozenset[Seat]:
    """The waiting seats every viewer may know: the seat to discard, and the seat the poll
    result assigned the card to (S14). Who is asked to call or re-asked about 丢 stays
    hidden (only the asked seat knows it is asked), so it cannot tell who can claim."""
    if state.phase == "discard" and state.actor is not None:
        return frozenset((state.actor,))
    poll = state.poll
    if state.phase == "poll" and poll is not None and poll.stage == "take":
        return frozenset(arb.awaiting(poll))
    return frozenset()


def offered_calls(state: DiuState, seat: Seat) -> tuple[str, ...]:
    """The calls ``seat`` is offered on the polled card: allowed by its hand, its 吃 right
    and the source (丢 on discards); with ``offer_calls = "above_standing"`` (sequential
    mode only) also higher than the standing call."""
    poll, card = state.poll, state.card
    assert poll is not None and card is not None
    cfg = state.config
    calls = combos.available_calls(
        cfg.combo,
        card,
        state.hands[seat],
        state.melds[seat],
        chi_right=arb.has_chi_right(cfg.poll, poll.source, poll.by, poll.active, seat),
        diu_ok=arb.diu_allowed(poll),
    )
    if cfg.offer_above_standing and not cfg.poll.parallel:
        standing = arb.standing_level(poll)
        calls = tuple(c for c in calls if combos.LEVELS[c] > standing)
    return calls


def legal(state: DiuState, seat: Seat) -> frozenset[Action]:
    """Every action ``seat`` may take now (the one source of legality), once per state."""
    key = ("legal", seat)
    found: frozenset[Action] | None = state.derived.get(key)
    if found is None:
        found = state.derived[key] = _legal(state, seat)
    return found


def _legal(state: DiuState, seat: Seat) -> frozenset[Action]:
    q = question(state, seat)
    if not q:
        return frozenset()
    hand, card = state.hands[seat], state.card
    if q == "discard":
        return frozenset(map(_DISCARDS.__getitem__, set(hand)))
    assert card is not None and state.poll is not None
    if q == "call":
        return _answers(offered_calls(state, seat))
    if q == "reask":
        diu = combos.can_diu(state.config.combo, card, hand, len(state.melds[seat]))
        return _answers(("diu",) if diu else ())
    if q == "diu_pick":
        pairs = combos.diu_pairs(state.config.combo, card, hand, len(state.melds[seat]))
        return frozenset((PASS, *(Action("diu", cards=p) for p in pairs)))
    claim = state.poll.claims[-1][1]
    takes = combos.takes_for(state.config.combo, card, hand, state.melds[seat]).get(claim, ())
    return frozenset((PASS, *(Action("take", cards=t.cards, meld=t.upgrade) for t in takes)))


#: Each card's discard, made once: a seat to discard is offered one per distinct card of
#: its hand, each a new ``Action`` before (a fifth of the actions are discards).
_DISCARDS = {card: Action("discard", cards=(card,)) for card in ALL_TOKENS}


@cache  # (at most one entry per subset of ``combos.CALLS``: 64)
def _answers(calls: tuple[str, ...]) -> frozenset[Action]:
    """``pass`` and a ``call`` of each of ``calls``: what a polled seat may answer. The
    same few lists recur on every poll, so each is made once."""
    return frozenset((PASS, *(Action("call", call=c) for c in calls)))


_CODES = {
    "discard": "card_not_in_hand",
    "call": "call_not_allowed",
    "reask": "call_not_allowed",
    "diu_pick": "diu_not_complete",
    "take": "take_must_match_call",
}


def illegal_code(state: DiuState, seat: Seat) -> str:
    """The rule-naming code of an action the asked ``seat`` may not take now."""
    return _CODES[question(state, seat)]


def apply_action(state: DiuState, seat: Seat, action: Action) -> tuple[DiuState, list[Event]]:
    """Apply a legal action (the engine's ``check_action`` has checked it)."""
    q = question(state, seat)
    state = evolve(state, version=state.version + 1)
    events: list[Event] = []
    if q == "discard":
        return _discard(state, seat, action.cards[0], events)
    if action.kind == "call" and action.call == "diu":
        return evolve(state, picking=(*state.picking, seat)), events
    if action.kind == "call":
        return _answer(state, seat, action.call, None, events)
    if q == "diu_pick":
        state = evolve(state, picking=tuple(s for s in state.picking if s != seat))
        if action.kind == "diu":
            state = evolve(state, diu_cards=(*state.diu_cards, (seat, action.cards)))
            return _answer(state, seat, "diu", None, events)
        return _answer(state, seat, "pass", None, events)
    if q == "take" and action.kind == "take":
        return _answer(state, seat, "take", action, events)
    return _answer(state, seat, "pass", None, events)


def _answer(
    state: DiuState, seat: Seat, response: str, take: Action | None, events: list[Event]
) -> tuple[DiuState, list[Event]]:
    assert state.poll is not None
    state = evolve(state, poll=arb.answer(state.poll, seat, response))
    return _settle(state, take, events)


def _settle(
    state: DiuState, take: Action | None, events: list[Event]
) -> tuple[DiuState, list[Event]]:
    """Auto-pass seats with no choice (``silent_seats = "skip"`` only), and resolve the
    poll once it is done."""
    while True:
        poll = state.poll
        assert poll is not None
        if poll.done:
            return _resolve(state, take, events)
        if poll.stage == "take" and poll.source == "draw" and state.drawn >= len(state.stock):
            # A10: the last stock card's poll ended without 丢; the card is not taken.
            card = poll_card(state)
            events.append(Event("dead", CardSourceEvent(card=card, source="draw", by=poll.by)))
            return _exhausted(evolve(state, dead=(*state.dead, card)), events)
        if not state.config.skip_silent_seats:  # every asked seat answers itself
            return state, events
        silent = [s for s in arb.awaiting(poll) if legal(state, s) == {PASS}]
        if not silent:
            return state, events
        state = evolve(state, poll=arb.answer(poll, silent[0], "pass"))


def _resolve(
    state: DiuState, take: Action | None, events: list[Event]
) -> tuple[DiuState, list[Event]]:
    poll, card = state.poll, state.card
    assert poll is not None and card is not None
    if poll.game_over and poll.winner is not None:
        return _finish_diu(state, poll.winner, events)
    if poll.winner is not None and poll.claim is not None and take is not None:
        return _execute_take(state, poll.winner, poll.claim, take, events)
    events.append(Event("dead", CardSourceEvent(card=card, source=poll.source, by=poll.by)))
    state = evolve(state, dead=(*state.dead, card), last=(("dead", card),))
    return _next_draw(state, poll.by, events)


def _discard(
    state: DiuState, seat: Seat, card: str, events: list[Event]
) -> tuple[DiuState, list[Event]]:
    hand = list(state.hands[seat])
    hand.remove(card)
    state = _set_hand(state, seat, tuple(hand))
    events.append(Event("discard", SeatCardEvent(seat=seat, card=card)))
    poll = arb.start_poll(state.config.poll, "discard", seat, state.active)
    state = evolve(state, phase="poll", actor=None, card=card, poll=poll, picking=())
    return _settle(state, None, events)


def _next_draw(state: DiuState, after: Seat, events: list[Event]) -> tuple[DiuState, list[Event]]:
    """The seat after ``after`` draws and the draw poll starts (S19, S20); 流局 if no stock."""
    if state.drawn >= len(state.stock):
        return _exhausted(state, events)
    act = state.active
    seat = act[(act.index(after) + 1) % len(act)]
    card = state.stock[state.drawn]
    events.append(Event("draw", DrawEvent(seat=seat, card=card, index=state.drawn)))
    poll = arb.start_poll(state.config.poll, "draw", seat, act)
    state = evolve(
        state, drawn=state.drawn + 1, phase="poll", actor=None, card=card, poll=poll, picking=()
    )
    return _settle(state, None, events)


def poll_card(state: DiuState) -> str:
    """The card being polled (``AssertionError`` outside a poll)."""
    assert state.card is not None
    return state.card


def _exhausted(state: DiuState, events: list[Event]) -> tuple[DiuState, list[Event]]:
    """A10 流局: the hand ends with no score once the last stock card's poll has ended
    without a 丢 (a claimed last card is not taken: the caller moves it to ``dead``), or when
    a draw is due and the stock is empty (the last card went as a supplement)."""
    events.append(Event("hand_over", HandOverEvent(reason="exhausted")))
    return evolve(
        state,
        phase="over",
        actor=None,
        card=None,
        poll=None,
        picking=(),
        end_reason="exhausted",
        final_scores=(0,) * state.config.players,
    ), events


def _execute_take(
    state: DiuState, seat: Seat, claim: str, take: Action, events: list[Event]
) -> tuple[DiuState, list[Event]]:
    """Lay the meld (S14, S18), draw a supplement after a four, then the taker discards."""
    card = state.card
    assert card is not None
    left = list(state.hands[seat])
    for c in take.cards:
        left.remove(c)
    melds = list(state.melds[seat])
    if take.meld >= 0:
        melds[take.meld] = sort_cards((*melds[take.meld], card))
    else:
        melds.append(sort_cards((card, *take.cards)))
    state = _set_hand(state, seat, tuple(left))
    all_melds = list(state.melds)
    all_melds[seat] = tuple(melds)
    takes = list(state.takes)
    takes[seat] += 1
    events.append(
        Event(
            "take",
            TakeEvent(
                seat=seat,
                card=card,
                claim=claim,
                meld=list(melds[take.meld if take.meld >= 0 else -1]),
            ),
        )
    )
    state = evolve(
        state,
        melds=tuple(all_melds),
        takes=tuple(takes),
        phase="discard",
        actor=seat,
        card=None,
        poll=None,
        picking=(),
        last=(("take", card), ("seat", seat), ("claim", claim)),
    )
    if claim in _FOURS and state.drawn < len(state.stock):
        extra = state.stock[state.drawn]
        private = frozenset((seat,))
        events.append(Event("supplement", SeatCardEvent(seat=seat, card=extra), private))
        state = _set_hand(state, seat, sort_cards((*state.hands[seat], extra)))
        state = evolve(
            state, drawn=state.drawn + 1, private_draws=(*state.private_draws, (state.drawn, seat))
        )
    return state, events


def _finish_diu(state: DiuState, seat: Seat, events: list[Event]) -> tuple[DiuState, list[Event]]:
    pair = dict(state.diu_cards)[seat]
    left = list(state.hands[seat])
    for c in pair:
        left.remove(c)
    state = _set_hand(state, seat, tuple(left))
    points = diu_points(state, seat)
    scores = [0] * state.config.players
    for s in state.active:
        if s != seat:
            scores[s] -= points
            scores[seat] += points
    events.append(
        Event("diu", DiuEvent(seat=seat, card=poll_card(state), cards=list(pair), points=points))
    )
    return evolve(
        state,
        phase="over",
        actor=None,
        poll=None,
        picking=(),
        winner=seat,
        end_reason="diu",
        final_scores=tuple(scores),
    ), events


def diu_points(state: DiuState, seat: Seat) -> int:
    """Q9 default: one unit per meld of the winning hand (exposed + the 丢 meld + the rest)."""
    cfg = state.config
    if cfg.scoring == "flat":
        return cfg.score_unit
    return cfg.score_unit * (len(state.melds[seat]) + 1 + len(state.hands[seat]) // 3)


def _set_hand(state: DiuState, seat: Seat, hand: tuple[str, ...]) -> DiuState:
    hands = list(state.hands)
    hands[seat] = hand
    return evolve(state, hands=tuple(hands))


def timeout(state: DiuState, seat: Seat) -> Action:
    """A6: a polled seat passes (a 丢 pick lapses into not 丢); a take lays the first meld;
    a discard drops the right-most card of the sorted hand (or a pseudo-random one)."""
    q = question(state, seat)
    if q == "discard":
        hand = state.hands[seat]
        if state.config.timeout_discard == "random":
            index = (state.salt + 7919 * state.version) % len(hand)
            return Action("discard", cards=(hand[index],))
        return Action("discard", cards=(hand[-1],))
    if q == "take":
        takes = sorted(a for a in legal(state, seat) if a.kind == "take")
        return takes[0] if takes else PASS
    if not q:
        raise NotYourTurn(f"seat {seat} is not to act")
    return PASS


def hand_counts(state: DiuState) -> dict[str, Any]:
    """Conservation helper for tests: every card of the deck is somewhere exactly once."""
    where: Counter[str] = Counter()
    for hand in state.hands:
        where.update(hand)
    for melds in state.melds:
        for meld in melds:
            where.update(meld)
    where.update(state.dead)
    where.update(state.stock[state.drawn :])
    if state.card is not None and state.phase == "poll":
        where[state.card] += 1
    if state.phase == "over" and state.winner is not None and state.card is not None:
        where.update(dict(state.diu_cards)[state.winner])
        where[state.card] += 1
    return dict(where)
