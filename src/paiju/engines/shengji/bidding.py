"""The deal with trump declaration (亮主 / 反主 / 加固), and the kitty (底牌) flip.

Model: cards are dealt one at a time in seat order from ``deal_start``, in rounds of one
card per seat. After each round a *bidding window* opens and ALL four seats are asked at
once (``bid ...`` or ``pass``), whatever they hold: who is asked depends only on public
facts (the round, the bids and passes made), never on the hidden cards, so being asked
reveals nothing. A seat with no legal bid may only pass. A bid reopens the window for the
three other seats (each bid is strictly stronger, so this ends). When every seat has
answered, the next round is dealt. After the last round: the last bid wins; with no bid,
the first hand is redealt and a later hand flips the kitty.

Bid strength (default, rbtying ``JokerOrGreaterLength``): single level card < pair of one
level card < ``LJ LJ`` < ``BJ BJ``; a new bid needs more cards, or as many cards being
jokers that outrank the last bid. The current winner may only reinforce: the same card,
more copies (``ReinforceWhileWinning``). A single joker is not a bid. Options:

* ``bid_policy``: ``joker_or_greater_length`` (above); ``joker_or_higher_suit`` (also a
  suited bid of two or more cards overcalls an equal-count bid of a lower suit, in
  rbtying's order C < D < S < H); ``greater_length`` (only more cards overcall, jokers
  included).
* ``bid_reinforcement``: ``while_winning`` (above); ``overturn_or_while_winning`` (the
  winner may also overcall itself with any stronger bid); ``while_equivalent`` (a seat
  that was overcalled may also raise its own last bid to the winning bid's count, unless
  that is a joker bid; the raise must add cards, which keeps bidding finite).
* ``joker_bid``: ``both_two_or_more`` (pairs); ``both_num_decks`` (as many jokers as decks:
  pairs with two decks); ``lj_two_bj_one`` (``LJ LJ`` or a single ``BJ``); ``disabled``.

At the ``NT`` level (option ``max_rank``) a hand with a landlord has no bidding at all:
it is played in no-trump with only the jokers as trumps.
"""

from __future__ import annotations

import hashlib
from bisect import insort
from collections import Counter
from functools import lru_cache

from paiju.core.fairness import FairRng
from paiju.core.rng import SeededRng
from paiju.engines.shengji.cards import (
    BIG_JOKER,
    CANON_ORDER,
    DECKS,
    KITTY_SIZE,
    LITTLE_JOKER,
    NT_LEVEL,
    RANK_NUMBER,
    SEATS,
    full_pack,
    is_joker,
    sort_cards,
)
from paiju.engines.shengji.state import DEAL_CARDS, Bid, ShengjiState, changed

_JOKER_RANK = {LITTLE_JOKER: 1, BIG_JOKER: 2}


#: rbtying's suit order for ``bid_policy = "joker_or_higher_suit"`` (clubs lowest).
BID_SUIT_ORDER = {"C": 0, "D": 1, "S": 2, "H": 3}
BID_PHASES = ("deal", "theft")


def _strength(card: str, count: int) -> tuple[int, int]:
    return count, _JOKER_RANK.get(card, 0)


def _joker_bid_ok(card: str, count: int, policy: str, nt_level: bool) -> bool:
    """Whether ``count`` copies of a joker make a bid under option ``joker_bid``."""
    if policy == "disabled":
        return False
    if policy == "both_two_or_more":
        return count >= (1 if nt_level else 2)
    if policy == "lj_two_bj_one" and card == BIG_JOKER:
        return count >= DECKS - 1
    return count >= DECKS


def overcalls(new: Bid, last: Bid, policy: str = "joker_or_greater_length") -> bool:
    """Whether ``new`` beats ``last`` under option ``bid_policy``."""
    if new.count != last.count:
        return new.count > last.count
    if policy == "greater_length":
        return False
    if is_joker(new.card) or is_joker(last.card):
        return _strength(new.card, new.count) > _strength(last.card, last.count)
    higher = BID_SUIT_ORDER[new.card[0]] > BID_SUIT_ORDER[last.card[0]]
    return policy == "joker_or_higher_suit" and new.count > 1 and higher


def _candidates(state: ShengjiState, seat: int) -> tuple[Bid, ...]:
    """Every bid the seat's cards make, ignoring earlier bids: read from its bid cards
    alone, which most cards dealt leave as they were (a hand is a new tuple at each deal
    round, its bid cards mostly the same few)."""
    level = state.level
    held = tuple(filter(_bid_cards(level).__contains__, state.hands[seat]))
    return _hand_bids(held, seat, level, state.opts["joker_bid"])


@lru_cache(maxsize=4096)
def _hand_bids(held: tuple[str, ...], seat: int, level: int, joker_policy: str) -> tuple[Bid, ...]:
    """The bids a seat holding the bid cards ``held`` (``_bid_cards``) could make."""
    # Every seat still asked is asked again after each answer of a bidding window, holding
    # the same cards: its bids are read from them once.
    nt_level = level == NT_LEVEL
    out = []
    for card, held_count in sorted(Counter(held).items()):
        for count in range(1, held_count + 1):
            if not is_joker(card) or _joker_bid_ok(card, count, joker_policy, nt_level):
                out.append(Bid(seat, card, count))
    return tuple(out)


@lru_cache(maxsize=16)
def _bid_cards(level: int) -> frozenset[str]:
    """The cards a bid may be made of at ``level``: its level cards and the jokers (a hand
    is mostly other cards, passed over without being counted)."""
    return frozenset(c for c in full_pack() if is_joker(c) or RANK_NUMBER[c[1:]] == level)


def legal_bids(state: ShengjiState, seat: int) -> list[Bid]:
    """Every bid ``seat`` may make now (deal or kitty-theft window), weakest first."""
    if state.phase not in BID_PHASES:
        return []
    cands = _candidates(state, seat)
    if not cands:  # (most seats hold no level card or joker pair for most of the deal)
        return []
    last = state.bids[-1] if state.bids else None
    own = next((b for b in reversed(state.bids) if b.seat == seat), None)
    mode = state.opts["bid_reinforcement"]
    if own is not None and own == last and mode != "overturn_or_while_winning":
        out = [b for b in cands if b.card == own.card and b.count > own.count]
    else:
        out = [b for b in cands if last is None or overcalls(b, last, state.opts["bid_policy"])]
    if mode == "while_equivalent" and own is not None and last is not None and own != last:
        equal = Bid(seat, own.card, last.count)
        if equal in cands and last.count > own.count and not is_joker(last.card):
            out.append(equal)
    return sorted(set(out), key=lambda b: (_strength(b.card, b.count), b.card))


#: The seats of a bidding window before any has answered (``bidders_to_ask``).
_EVERY_SEAT = frozenset(range(SEATS))


def bidders_to_ask(state: ShengjiState) -> frozenset[int]:
    """The seats a bidding window (deal or kitty theft) waits for: every seat that has not
    answered since the window opened or since the last bid. Depends on public facts only.
    """
    if state.phase == "theft":
        return _EVERY_SEAT.difference(state.asked)
    if state.phase != "deal" or state.dealt == 0 or state.dealt % SEATS:
        return frozenset()
    if state.level == NT_LEVEL and state.landlord is not None:
        return frozenset()  # public: an NT hand has no bidding
    return _EVERY_SEAT.difference(state.asked)


def advance_deal(state: ShengjiState) -> ShengjiState:
    """Deal on until a bidding window is open, then stop; at the end close the bidding.

    Does not bump the version (the caller does, once per action).
    """
    while state.phase == "deal" and not bidders_to_ask(state):
        if state.dealt >= DEAL_CARDS:
            state = _close_bidding(state)
            continue
        hands = list(state.hands)
        for i in range(SEATS):
            seat = (state.deal_start + i) % SEATS
            # The hand is in canonical order: the card is put in its place (equal cards are
            # equal names, so this is the order ``sort_cards`` makes).
            hand = list(hands[seat])
            insort(hand, state.deck[state.dealt + i], key=CANON_ORDER)
            hands[seat] = tuple(hand)
        state = changed(state, hands=tuple(hands), dealt=state.dealt + SEATS, asked=())
    return state


#: Domain label of a fair redeal's key (docs/fairness.md, "Redeals").
REDEAL_DOMAIN = b"paiju-shengji-redeal-v1\x00"


def new_deck(previous: tuple[str, ...], deal_scheme: str) -> tuple[str, ...]:
    """A redeal's deck: a shuffle of the canonical pack that is a fixed function of the
    previous (committed, random) deck, so the redeal adds no choice to the server's.

    ``fair-v1``: the fair stream (``FairRng``) keyed by SHA-256 of ``REDEAL_DOMAIN`` and the
    previous deck's cards joined by ``|``. Rooms dealt by ``seeded-v0`` keep their old
    generator (``SeededRng`` of the joined cards) so that their logs still replay."""
    deck = full_pack()
    text = "|".join(previous)
    if deal_scheme == "seeded-v0":
        SeededRng(text).shuffle(deck)
    else:
        FairRng(hashlib.sha256(REDEAL_DOMAIN + text.encode("utf-8")).digest()).shuffle(deck)
    return tuple(deck)


def _close_bidding(state: ShengjiState) -> ShengjiState:
    kitty = state.deck[DEAL_CARDS : DEAL_CARDS + KITTY_SIZE]
    if state.bids:
        win = state.bids[-1]
        suit = None if is_joker(win.card) else win.card[0]
        landlord = state.landlord
        if landlord is None:
            first = state.opts["first_landlord"] == "first_bidder"
            landlord = state.bids[0].seat if first else win.seat
        return _to_bury(state, landlord, suit, kitty, ())
    if state.level == NT_LEVEL and state.landlord is not None:
        return _to_bury(state, state.landlord, None, kitty, ())
    if state.landlord is None:
        deck = new_deck(state.deck, state.deal_scheme)
        return changed(
            state, deck=deck, dealt=0, hands=((),) * SEATS, asked=(), redeals=state.redeals + 1
        )
    suit, flipped = flip_kitty(kitty, state.level, state.opts["kitty_bid_policy"])
    return _to_bury(state, state.landlord, suit, kitty, flipped)


def flip_kitty(
    kitty: tuple[str, ...], level: int, policy: str
) -> tuple[str | None, tuple[str, ...]]:
    """(trump suit or ``None`` for no-trump, the cards turned up) when nobody bid.

    ``first_card``: the first card fixes the suit, a joker means no-trump.
    ``first_level_or_highest``: the first level card or joker decides; if none, the
    highest-ranked card (the first of equals).
    """
    if policy == "first_card":
        card = kitty[0]
        return (None if is_joker(card) else card[0]), (card,)
    for i, card in enumerate(kitty):
        if is_joker(card) or RANK_NUMBER[card[1:]] == level:
            return (None if is_joker(card) else card[0]), kitty[: i + 1]
    best = max(kitty, key=lambda c: RANK_NUMBER[c[1:]])
    return best[0], kitty


def _to_bury(
    state: ShengjiState,
    landlord: int,
    suit: str | None,
    kitty: tuple[str, ...],
    flipped: tuple[str, ...],
) -> ShengjiState:
    hands = list(state.hands)
    hands[landlord] = sort_cards((*hands[landlord], *kitty))
    return changed(
        state,
        phase="bury",
        landlord=landlord,
        trump_suit=suit,
        trump_set=True,
        kitty=kitty,
        flipped=flipped,
        hands=tuple(hands),
        leader=landlord,
        exchanger=landlord,
    )


def after_burial(state: ShengjiState) -> ShengjiState:
    """The kitty is buried: open a theft window (option ``kitty_theft``, only when the trump
    came from a bid), else start play with the landlord leading."""
    if state.opts["kitty_theft"] and state.bids and not state.flipped:
        return changed(state, phase="theft", asked=(), theft_from=len(state.bids))
    return start_play(state)


def start_play(state: ShengjiState) -> ShengjiState:
    """Play starts with the landlord leading; in Finding Friends it first names a friend."""
    if state.friends_mode and state.friend is None:
        return changed(state, phase="friend", asked=())
    assert state.landlord is not None, "play starts once bidding has made a landlord"
    return changed(state, phase="play", leader=state.landlord, asked=())


def close_theft(state: ShengjiState) -> ShengjiState:
    """Every seat answered the theft window: with no new bid, play starts; otherwise the
    winning bidder sets the trump, takes the buried cards and buries eight again."""
    if bidders_to_ask(state):
        return state
    if len(state.bids) == state.theft_from:
        return start_play(state)
    win = state.bids[-1]
    hands = list(state.hands)
    hands[win.seat] = sort_cards((*hands[win.seat], *state.buried))
    suit = None if is_joker(win.card) else win.card[0]
    return changed(
        state, phase="bury", exchanger=win.seat, trump_suit=suit, buried=(), hands=tuple(hands)
    )
