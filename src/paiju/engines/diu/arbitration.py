"""Claim arbitration — the normative algorithm of rules §3, as a pure state machine.

A ``Poll`` is started for one card (drawn or discarded by ``by``) and fed the seats' answers
with ``answer``; ``awaiting`` says whose answer it needs now. Stages:

``call``
    the first pass (logic 1 for a draw: the drawer first, S6; logic 2 for a discard: the
    discarder's 下家 first, the discarder is not polled, S7). A call is *refused* (counts as a
    pass for every later step) if it is 吃 without the 吃 right (S12/A3), 丢 on a discard (S11/A4)
    or not strictly higher than the standing call (S8/A8). An accepted 丢 ends the game at once
    and later seats are not asked (S9).
``reask``
    draws only (S10): the seats before the top claimer, except those whose accepted call was
    吃 or 筷, are asked "丢?" in polling order; the first yes wins (A9).
``take``
    assignment after the poll (S14): the top standing claim may take the card or give it up;
    giving it up passes the card to the next-highest standing claim (A5), which may only
    execute its own call (S13, binding calls), or — with ``forfeit_fallback =
    reopen_after_forfeiter`` — first re-offers the card to the seats after the forfeiter.
``reopen``
    that re-offer: a first pass over those seats against the remaining standing call.
``done``
    ``winner``/``claim`` say who gets the card with which call (``None`` when unclaimed: the
    card is dead, A7) and ``game_over`` whether it was a 丢.

In ``sequential`` mode (A12 default) one seat is asked at a time; in ``parallel`` mode every
seat of a stage is asked at once and the answers are folded in polling order, which gives
identical results because no seat sees another's call.
"""

from __future__ import annotations

from dataclasses import dataclass

from paiju.core.seats import Seat
from paiju.engines.diu.combos import CALLS, LEVELS

_BOUND_OUT_OF_REASK = ("chi", "kuai")  # S10/S13: 喊吃不能丢 — and 筷 callers are not re-asked


@dataclass(frozen=True)
class PollRules:
    """The options that change arbitration (A3, A4, A5, A12)."""

    chi_on_draw: str = "drawer_and_next"  # drawer_and_next | next_only | any
    diu_on_discard: bool = False
    forfeit_fallback: str = "next_highest_claim"  # | reopen_after_forfeiter
    parallel: bool = False


@dataclass(frozen=True)
class Poll:
    """One card's poll. Build it with ``start_poll``; never construct stages by hand."""

    source: str  # "draw" | "discard"
    by: Seat
    active: tuple[Seat, ...]
    order: tuple[Seat, ...]
    rules: PollRules
    stage: str = "call"
    asked: tuple[Seat, ...] = ()
    answers: tuple[tuple[Seat, str], ...] = ()
    claims: tuple[tuple[Seat, str], ...] = ()  # standing claims of finished stages, ascending
    first_calls: tuple[tuple[Seat, str], ...] = ()  # accepted first-pass call per seat
    forfeited: tuple[Seat, ...] = ()
    said: tuple[tuple[Seat, str], ...] = ()  # every call-round answer as given, in order
    winner: Seat | None = None
    claim: str | None = None
    game_over: bool = False

    @property
    def done(self) -> bool:
        """Whether the poll has resolved."""
        return self.stage == "done"


def _with(poll: Poll, **changes: object) -> Poll:
    """``dataclasses.replace(poll, **changes)`` for the arbitration's own changes (fields
    only): a copy of the instance dict (a poll keeps nothing beside its fields), without
    ``replace``'s walk over every field; a poll is copied two or three times an answer."""
    if not _POLL_FIELDS.issuperset(changes):
        raise TypeError(f"Poll has no field {sorted(changes.keys() - _POLL_FIELDS)}")
    fields = poll.__dict__.copy()
    fields.update(changes)
    copy = object.__new__(Poll)
    object.__setattr__(copy, "__dict__", fields)  # as a frozen class's __init__ sets them
    return copy


_POLL_FIELDS = frozenset(Poll.__dataclass_fields__)


def polling_order(source: str, by: Seat, active: tuple[Seat, ...]) -> tuple[Seat, ...]:
    """Draw: the drawer, its 下家, the next (S6). Discard: the 下家, the next (S7)."""
    i = active.index(by)
    ring = active[i:] + active[:i]
    return ring if source == "draw" else ring[1:]


def has_chi_right(
    rules: PollRules, source: str, by: Seat, active: tuple[Seat, ...], seat: Seat
) -> bool:
    """S12/A3: a discard may be eaten only by the discarder's 下家; a draw per ``chi_on_draw``."""
    nxt = active[(active.index(by) + 1) % len(active)]
    if source == "discard" or rules.chi_on_draw == "next_only":
        return seat == nxt
    if rules.chi_on_draw == "drawer_and_next":
        return seat in (by, nxt)
    return True


def diu_allowed(poll: Poll) -> bool:
    """S11/A4: 丢 on a drawn card always, on a discard only with ``diu_on_discard``."""
    return poll.source == "draw" or poll.rules.diu_on_discard


def start_poll(rules: PollRules, source: str, by: Seat, active: tuple[Seat, ...]) -> Poll:
    """A new poll of the card drawn or discarded by ``by``; ``ValueError`` on bad input."""
    if source not in ("draw", "discard"):
        raise ValueError(f"source must be draw or discard, not {source!r}")
    if by not in active or len(set(active)) != len(active) or len(active) < 2:
        raise ValueError("by must be one of at least two distinct active seats")
    order = polling_order(source, by, active)
    return Poll(source, by, active, order, rules, asked=order)


def _level(claims: tuple[tuple[Seat, str], ...]) -> int:
    return max((LEVELS[c] for _, c in claims), default=0)


def acceptable(poll: Poll, seat: Seat, call: str, standing: int) -> bool:
    """Whether ``call`` by ``seat`` stands against the standing level (S8, S11, S12)."""
    if call not in CALLS or LEVELS[call] <= standing:
        return False
    if call == "chi" and not has_chi_right(poll.rules, poll.source, poll.by, poll.active, seat):
        return False
    return call != "diu" or diu_allowed(poll)


def _fold(poll: Poll) -> tuple[list[tuple[Seat, str]], int]:
    """Accepted calls of the current call/reopen stage, over the answered prefix in order.

    Returns the accepted calls and how many seats of ``asked`` the prefix covers.
    """
    got = dict(poll.answers)
    standing = _level(poll.claims)
    accepted: list[tuple[Seat, str]] = []
    covered = 0
    for seat in poll.asked:
        if seat not in got:
            break
        covered += 1
        if acceptable(poll, seat, got[seat], standing):
            accepted.append((seat, got[seat]))
            standing = LEVELS[got[seat]]
            if got[seat] == "diu":
                break
    return accepted, covered


def standing_level(poll: Poll) -> int:
    """The level a new call must beat now (what the engine offers in sequential mode)."""
    if poll.stage not in ("call", "reopen"):
        return _level(poll.claims)
    accepted, _ = _fold(poll)
    return max(_level(poll.claims), _level(tuple(accepted)))


def awaiting(poll: Poll) -> tuple[Seat, ...]:
    """The seats whose answer the poll needs now, in polling order."""
    if poll.done:
        return ()
    if poll.stage == "take":
        return (poll.claims[-1][0],)
    got = {s for s, _ in poll.answers}
    pending = tuple(s for s in poll.asked if s not in got)
    return pending if poll.rules.parallel else pending[:1]


def current_question(poll: Poll) -> str:
    """What the awaited seats are asked: ``call``, ``reask`` or ``take`` ('' when done)."""
    return {"call": "call", "reopen": "call", "reask": "reask", "take": "take"}.get(poll.stage, "")


def own_claim(poll: Poll, seat: Seat) -> str | None:
    """The call ``seat`` last gave in this poll's call rounds, as it gave it (known to that
    seat only); None if it has not answered one.

    Deliberately not "the call that still stands": a refused call (S8) stays shown, so a
    seat does not learn before the poll resolves (S14) that someone outranked it."""
    for s, c in reversed(poll.said):
        if s == seat:
            return c
    return None


def answer(poll: Poll, seat: Seat, response: str) -> Poll:
    """Record ``seat``'s answer and advance; ``ValueError`` if the seat is not asked or the
    response is not one of the stage's answers.

    Answers: call/reopen — ``pass`` or a call name; reask — ``diu`` or ``pass``;
    take — ``take`` or ``pass`` (give the card up).
    """
    if seat not in awaiting(poll):
        raise ValueError(f"seat {seat} is not being asked")
    if poll.stage == "take":
        return _take(poll, seat, response)
    allowed = ("pass", "diu") if poll.stage == "reask" else ("pass", *CALLS)
    if response not in allowed:
        raise ValueError(f"{response!r} is not an answer to a {poll.stage} question")
    poll = _with(poll, answers=(*poll.answers, (seat, response)))
    if poll.stage == "reask":
        return _reask_progress(poll)
    return _call_progress(_with(poll, said=(*poll.said, (seat, response))))


def _finish(poll: Poll, winner: Seat | None, claim: str | None) -> Poll:
    return _with(
        poll,
        stage="done",
        asked=(),
        answers=(),
        winner=winner,
        claim=claim,
        game_over=claim == "diu",
    )


def _call_progress(poll: Poll) -> Poll:
    accepted, covered = _fold(poll)
    if accepted and accepted[-1][1] == "diu":
        return _finish(poll, accepted[-1][0], "diu")
    if covered < len(poll.asked):
        return poll
    claims = poll.claims + tuple(accepted)
    first_stage = poll.stage == "call"
    if first_stage:
        got = dict(poll.answers)
        kept = dict(accepted)
        firsts = tuple((s, kept.get(s, "pass")) for s in poll.asked if s in got)
        poll = _with(poll, first_calls=firsts)
    poll = _with(poll, claims=claims, answers=(), asked=())
    if not claims:
        return _finish(poll, None, None)
    if first_stage and poll.source == "draw":
        return _start_reask(poll)
    return _with(poll, stage="take")


def _start_reask(poll: Poll) -> Poll:
    top = poll.claims[-1][0]
    firsts = dict(poll.first_calls)
    before = poll.order[: poll.order.index(top)]
    asked = tuple(s for s in before if firsts.get(s, "pass") not in _BOUND_OUT_OF_REASK)
    if not asked:
        return _with(poll, stage="take")
    return _with(poll, stage="reask", asked=asked, answers=())


def _reask_progress(poll: Poll) -> Poll:
    got = dict(poll.answers)
    for seat in poll.asked:
        if seat not in got:
            return poll
        if got[seat] == "diu":
            return _finish(poll, seat, "diu")
    return _with(poll, stage="take", asked=(), answers=())


def _take(poll: Poll, seat: Seat, response: str) -> Poll:
    if response not in ("take", "pass"):
        raise ValueError(f"{response!r} is not an answer to a take question")
    claim = poll.claims[-1][1]
    if response == "take":
        return _finish(poll, seat, claim)
    poll = _with(poll, claims=poll.claims[:-1], forfeited=(*poll.forfeited, seat))
    if poll.rules.forfeit_fallback == "reopen_after_forfeiter":
        after = poll.order[poll.order.index(seat) + 1 :]
        asked = tuple(s for s in after if s not in poll.forfeited)
        if asked:
            return _with(poll, stage="reopen", asked=asked, answers=())
    if not poll.claims:
        return _finish(poll, None, None)
    return _with(poll, stage="take")
