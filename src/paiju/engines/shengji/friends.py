"""Finding Friends (找朋友, option ``game_mode = "finding_friends"``) with four seats.

After the kitty is buried the landlord names one *friend card* and an ordinal: ``friend
HA`` (the first ``HA`` played) or ``friend HA HA`` (the second). Whoever plays that copy
joins the landlord's side at once, in public; if the landlord plays it, or nobody does,
the landlord plays alone against three. Which cards may be named: option
``friend_selection`` (rbtying's ``FriendSelectionPolicy``, default ``non_trump``). With one
friend, rbtying's ``MultipleJoinPolicy`` has nothing to decide. Every seat has its own level; at the
end each member of the winning side advances from its own level, and a landlord side
smaller than the attackers' wins one bonus level (rbtying's default
``BonusLevelForSmallerLandlordTeam``).
"""

from __future__ import annotations

from paiju.engines.base import Event
from paiju.engines.shengji.cards import (
    ALL_CARDS,
    DECKS,
    RANK_NUMBER,
    SEATS,
    card_points,
    is_joker,
)
from paiju.engines.shengji.schema import FriendJoinedEvent
from paiju.engines.shengji.scoring import ACE
from paiju.engines.shengji.state import ShengjiState, changed


def friend_choices(state: ShengjiState) -> list[tuple[str, int]]:
    """Every (card, ordinal) the landlord may name now (option ``friend_selection``)."""
    if state.phase != "friend":
        return []
    return [
        (card, nth)
        for card in ALL_CARDS
        if _may_name(card, state.level, state.trump_suit, state.opts["friend_selection"])
        for nth in range(1, DECKS + 1)
    ]


def _may_name(card: str, level: int, trump_suit: str | None, policy: str) -> bool:
    """rbtying's ``FriendSelectionPolicy``: ``non_trump`` (no joker, level card or trump-suit
    card), ``trumps_included`` (any card), ``highest_not_allowed`` (also no ace; no king
    when the level is A), ``points_not_allowed`` (also no 5, 10 or K; a K is allowed when
    the level is A)."""
    if policy == "trumps_included":
        return True
    if is_joker(card) or RANK_NUMBER[card[1:]] == level or card[0] == trump_suit:
        return False
    rank = card[1:]
    if policy == "highest_not_allowed":
        return rank != "A" and not (level == ACE and rank == "K")
    if policy == "points_not_allowed":
        return card_points(card) == 0 or (level == ACE and rank == "K")
    return True


def signed_penalty(state: ShengjiState) -> int:
    """The attackers' change from failed throws: + for a declarer's, - for an attacker's."""
    return sum(-f.penalty if state.is_attacker(f.seat) else f.penalty for f in state.failures)


def reveal(
    state: ShengjiState, seat: int, cards: tuple[str, ...], events: list[Event]
) -> ShengjiState:
    """Count copies of the friend card in ``seat``'s play; the n-th one makes it the friend.

    A new friend's earlier tricks stop counting for the attackers (the side is public only
    from now on, but points always belong to the final sides).
    """
    if state.friend is None or state.friend_seat is not None:
        return state
    card, nth = state.friend
    seen = state.friend_seen + cards.count(card)
    if seen < nth:
        return changed(state, friend_seen=seen)
    before = state.is_attacker(seat)
    state = changed(state, friend_seen=seen, friend_seat=seat)
    if before:
        taken = sum(t.points for t in state.tricks if t.winner == seat)
        state = changed(state, attacker_points=state.attacker_points - taken)
    state = changed(state, penalty=signed_penalty(state))
    events.append(Event("friend_joined", FriendJoinedEvent(seat=seat, card=card, nth=nth)))
    return state


def next_seat_on(winners: frozenset[int], landlord: int) -> int:
    """The first seat after ``landlord`` (cyclically, itself last) that is in ``winners``."""
    return next(s for i in range(1, SEATS + 1) if (s := (landlord + i) % SEATS) in winners)
