"""The play phase: leads (with throw resolution), follows, finishing tricks and the hand.

Every lead is validated by the same rule functions whatever its size: any non-empty set
of cards of one effective suit from the hand is a legal *attempt*; a throw (甩牌) that
another hand can beat is turned into its forced component here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from paiju.core.errors import IllegalAction
from paiju.engines.base import Event
from paiju.engines.shengji.cards import (
    NT_LEVEL,
    RANK_NUMBER,
    SEATS,
    points,
    remove_cards,
    sort_cards,
)
from paiju.engines.shengji.follow import FollowPosition
from paiju.engines.shengji.friends import next_seat_on, reveal, signed_penalty
from paiju.engines.shengji.schema import (
    CardsEvent,
    HandOverEvent,
    ThrowFailedEvent,
    TrickWonEvent,
)
from paiju.engines.shengji.scoring import advance, kitty_bonus, outcome
from paiju.engines.shengji.shapes import effective_suit, parse_units
from paiju.engines.shengji.state import Play, ShengjiState, ThrowFailure, Trick, changed, with_hand
from paiju.engines.shengji.throw import check_throw
from paiju.engines.shengji.trick import trick_winner


def play_cards(
    state: ShengjiState, seat: int, cards: tuple[str, ...], *, checked: bool = False
) -> tuple[ShengjiState, list[Event]]:
    """Apply a lead or a follow by ``seat`` (whose turn it is); ``IllegalAction`` if not legal.

    ``checked``: the play was accepted by ``ShengjiEngine.check_action`` (held cards, one
    suit for a lead, a legal follow), whose verdict is not worked out again: for a listed
    follow that would build the seat's ``FollowPosition`` for this one check. A lead is
    still judged as a throw (its resolution, not its legality)."""
    if not checked:
        if remove_cards(state.hands[seat], cards) is None:
            raise IllegalAction("those cards are not in the hand", code="card_not_in_hand")
        if state.trick:
            error = follow_position(state, seat).error(cards)
            if error is not None:
                raise error
    if not state.trick:
        return _lead(state, seat, cards)
    return _put(state, seat, cards, state.lead_units, [])


def follow_position(state: ShengjiState, seat: int) -> FollowPosition:
    """``seat``'s position as a follower of the current trick (``follow.follow_error``'s
    rule), worked out once per state: the legal list judges its follows with it, and the
    check and the application of the answer judge the answer with it again."""
    key = ("follow", seat)
    found: FollowPosition | None = state.derived.get(key)
    if found is None:
        ctx = state.ctx
        found = state.derived[key] = FollowPosition(
            state.lead_units,
            ctx.suit_of(state.lead_units[0].cards[0]),
            state.hands[seat],
            ctx,
            min_length=state.opts["tractor_min_length"],
            format_draw=state.opts["draw_policy"] != "no_format_draw",
        )
    return found


def _lead(
    state: ShengjiState, seat: int, cards: tuple[str, ...]
) -> tuple[ShengjiState, list[Event]]:
    ctx = state.ctx
    suit = effective_suit(cards, ctx)
    if suit is None:
        raise IllegalAction("a lead must be of one suit", code="lead_mixed_suits")
    units = parse_units(cards, ctx, state.opts["tractor_min_length"])
    others = [state.hands[(seat + i) % SEATS] for i in range(1, SEATS)]
    result = check_throw(units, suit, others, ctx, state.opts["throw_fail_forced"])
    if result.valid or result.forced is None:
        return _put(state, seat, cards, tuple(units), [])
    forced = sort_cards(result.forced.cards)
    blocker = (seat + 1 + (result.blocker or 0)) % SEATS
    penalty = _penalty(state, seat, len(cards) - len(forced))
    failure = ThrowFailure(seat, sort_cards(cards), forced, blocker, penalty)
    data = ThrowFailedEvent(
        code="throw_blocked", seat=seat, attempted=list(failure.attempted), forced=list(forced)
    )
    if state.opts["reveal_throw_blocker"]:
        data["blocker"] = blocker
    state = changed(state, failures=(*state.failures, failure))
    state = changed(state, penalty=signed_penalty(state))
    return _put(state, seat, forced, (result.forced,), [Event("throw_failed", data)])


def _penalty(state: ShengjiState, seat: int, taken_back: int) -> int:
    """The amount of a failed throw's penalty (its sign comes from the thrower's side)."""
    rule = state.opts["throw_penalty"]
    return {"none": 0, "10_per_attempt": 10, "10_per_card": 10 * taken_back}[rule]


def _put(
    state: ShengjiState,
    seat: int,
    cards: tuple[str, ...],
    lead_units: Sequence[object],
    events: list[Event],
) -> tuple[ShengjiState, list[Event]]:
    rest = remove_cards(state.hands[seat], cards)
    assert rest is not None
    trick = (*state.trick, Play(seat, sort_cards(cards)))
    events.append(Event("play", CardsEvent(seat=seat, cards=list(sort_cards(cards)))))
    state = changed(
        state,
        hands=with_hand(state.hands, seat, rest),
        trick=trick,
        lead_units=tuple(lead_units),  # type: ignore[arg-type]
    )
    state = reveal(state, seat, cards, events)
    if len(trick) == SEATS:
        state = _finish_trick(state, events)
    return state, events


def _finish_trick(state: ShengjiState, events: list[Event]) -> ShengjiState:
    ctx = state.ctx
    plays = [p.cards for p in state.trick]
    index = trick_winner(
        plays,
        ctx,
        state.opts["throw_evaluation"],
        state.opts["tractor_min_length"],
        state.lead_units,
    )
    winner = state.trick[index].seat
    won = points(c for p in plays for c in p)
    largest = max(u.size for u in state.lead_units)
    trick = Trick(state.trick, winner, won, largest)
    gained = won if state.is_attacker(winner) else 0
    events.append(Event("trick_won", TrickWonEvent(seat=winner, points=won)))
    state = changed(
        state,
        tricks=(*state.tricks, trick),
        trick=(),
        lead_units=(),
        leader=winner,
        attacker_points=state.attacker_points + gained,
    )
    if any(state.hands):
        return state
    bonus = 0
    if state.is_attacker(winner):
        bonus = kitty_bonus(state.buried, largest, state.opts["kitty_multiplier"])
    return _finish_hand(changed(state, kitty_bonus=bonus), events)


def final_points(state: ShengjiState) -> int:
    """The attackers' total: tricks + kitty bonus + penalties."""
    return state.attacker_points + state.kitty_bonus + state.penalty


@dataclass(frozen=True)
class HandResult:
    """The end of a hand: which side won, the levels each winner gains, the seats."""

    declarers_won: bool
    gain: int
    winners: frozenset[int]
    losers: frozenset[int]


def hand_result(state: ShengjiState) -> HandResult:
    """The result by the level bands (and, in Finding Friends, the smaller-side bonus)."""
    opts = state.opts
    result = outcome(
        final_points(state), opts["scoring_step"], opts["turnover_steps"], opts["result_cap"]
    )
    team = state.landlord_team()
    attackers = frozenset(range(SEATS)) - team
    small = state.friends_mode and not result.attackers_win and len(team) < len(attackers)
    winners = attackers if result.attackers_win else team
    return HandResult(
        not result.attackers_win, result.gain + small, winners, frozenset(range(SEATS)) - winners
    )


def _level_keys(state: ShengjiState, seats: frozenset[int]) -> list[int]:
    """Indexes into ``levels`` of these seats: teams, or seats in Finding Friends."""
    return sorted(seats) if state.friends_mode else sorted({s % 2 for s in seats})


def _finish_hand(state: ShengjiState, events: list[Event]) -> ShengjiState:
    opts = state.opts
    res = hand_result(state)
    landlord = state.landlord or 0
    levels = list(state.levels)
    top = NT_LEVEL if opts["max_rank"] == "NT" else RANK_NUMBER["A"]
    won = False
    for key in _level_keys(state, res.winners):
        levels[key], done = advance(
            levels[key], res.gain, res.declarers_won, opts["must_defend"], top
        )
        won = won or done
    if opts["jack_variation"] and _jack_trick(state):
        for key in _level_keys(state, state.landlord_team()):
            levels[key] = 2
    same = res.declarers_won and opts["next_landlord_on_win"] == "same"
    nxt = landlord if same else next_seat_on(res.winners, landlord)
    events.append(
        Event(
            "hand_over",
            HandOverEvent(
                attacker_points=final_points(state), kitty=list(state.buried), gain=res.gain
            ),
        )
    )
    team = landlord % 2 if res.declarers_won else 1 - landlord % 2
    return changed(
        state,
        phase="over",
        new_levels=tuple(levels),
        next_landlord=nxt,
        match_winner=team if won and not state.friends_mode else None,
        match_seats=tuple(sorted(res.winners)) if won and state.friends_mode else (),
    )


def _jack_trick(state: ShengjiState) -> bool:
    """钩J: at level J the attackers won the last trick with a single J."""
    last = state.tricks[-1]
    if state.level != RANK_NUMBER["J"] or not state.is_attacker(last.winner):
        return False
    play = next(p for p in last.plays if p.seat == last.winner)
    return len(play.cards) == 1 and play.cards[0][1:] == "J"
