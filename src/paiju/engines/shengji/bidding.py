"""The deal with trump declaration (亮主 / 反主 / 加固), and the kitty (底牌) flip.

Model: cards are dealt one at a time in seat order from ``deal_start``, in rounds of one
card per seat. After each round every seat that holds a legal bid is asked in turn (bid
or ``pass``); after a bid, the other seats that can now overcall are asked again in the
same round (each bid is strictly stronger, so this ends). Seats with no legal bid are not
asked. After the last round: the last bid wins; with no bid, the first hand is redealt
and a later hand flips the kitty.

Bid strength (rbtying ``JokerOrGreaterLength``): single level card < pair of one level
card < ``LJ LJ`` < ``BJ BJ``; a new bid needs more cards, or as many cards being jokers
that outrank the last bid. The current winner may only reinforce: the same card, more
copies (``ReinforceWhileWinning``). A single joker is not a bid.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

from paiju.core.rng import SeededRng
from paiju.engines.shengji.cards import (
    BIG_JOKER,
    KITTY_SIZE,
    LITTLE_JOKER,
    RANK_NUMBER,
    SEATS,
    full_pack,
    is_joker,
    sort_cards,
)
from paiju.engines.shengji.state import DEAL_CARDS, Bid, ShengjiState

_JOKER_RANK = {LITTLE_JOKER: 1, BIG_JOKER: 2}


def _strength(card: str, count: int) -> tuple[int, int]:
    return count, _JOKER_RANK.get(card, 0)


def legal_bids(state: ShengjiState, seat: int) -> list[Bid]:
    """Every bid ``seat`` may make now (the deal phase), weakest first."""
    if state.phase != "deal":
        return []
    current = state.bids[-1] if state.bids else None
    counts = Counter(state.hands[seat])
    out: list[Bid] = []
    for card in sorted(counts):
        if not is_joker(card) and RANK_NUMBER[card[1:]] != state.level:
            continue
        for count in range(1 if not is_joker(card) else 2, counts[card] + 1):
            if current is None:
                out.append(Bid(seat, card, count))
            elif current.seat == seat:
                if card == current.card and count > current.count:
                    out.append(Bid(seat, card, count))
            elif _strength(card, count) > _strength(current.card, current.count):
                out.append(Bid(seat, card, count))
    return sorted(out, key=lambda b: (_strength(b.card, b.count), b.card))


def bidder_to_ask(state: ShengjiState) -> int | None:
    """The seat the deal waits for, if any."""
    if state.phase != "deal" or state.dealt == 0 or state.dealt % SEATS:
        return None
    for i in range(SEATS):
        seat = (state.deal_start + i) % SEATS
        if seat not in state.asked and legal_bids(state, seat):
            return seat
    return None


def advance_deal(state: ShengjiState) -> ShengjiState:
    """Deal on until a seat must be asked, then stop; at the end close the bidding.

    Does not bump the version (the caller does, once per action).
    """
    while state.phase == "deal" and bidder_to_ask(state) is None:
        if state.dealt >= DEAL_CARDS:
            state = _close_bidding(state)
            continue
        hands = list(state.hands)
        for i in range(SEATS):
            seat = (state.deal_start + i) % SEATS
            hands[seat] = sort_cards((*hands[seat], state.deck[state.dealt + i]))
        state = _replace(state, hands=tuple(hands), dealt=state.dealt + SEATS, asked=())
    return state


def _replace(state: ShengjiState, **changes: object) -> ShengjiState:
    return replace(state, **changes)  # type: ignore[arg-type]


def new_deck(seed_text: str) -> tuple[str, ...]:
    """A redeal's deck, shuffled by a generator seeded from the previous (random) deck."""
    deck = full_pack()
    SeededRng(seed_text).shuffle(deck)
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
    if state.landlord is None:
        deck = new_deck("|".join(state.deck))
        return _replace(
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
    return _replace(
        state,
        phase="bury",
        landlord=landlord,
        trump_suit=suit,
        trump_set=True,
        kitty=kitty,
        flipped=flipped,
        hands=tuple(hands),
        leader=landlord,
    )
