"""``ShengjiEngine``: the Engine protocol for 升级 / tractor (four seats, two decks).

Phases and actions:

* ``deal``: cards are dealt one at a time; after each round all four seats are asked at
  once (``bid ...`` or ``pass``), see ``bidding``: every seat is polled whether or not it
  holds a bid, so ``to_act`` (seen by every client) reveals nothing about the hidden
  cards. The first hand with no bid is redealt; a later hand flips the kitty.
* ``bury``: the landlord holds 33 cards and buries eight, one ``bury X`` at a time, so
  the choice is a list of at most 33 actions instead of C(33, 8).
* ``theft`` (option ``kitty_theft``, 炒地皮): after each burial a bidding window asks all
  four seats; the winner of a new bid takes the buried cards and buries (``bury`` again).
* ``friend`` (option ``game_mode = "finding_friends"``, 找朋友): the landlord names the
  friend card, ``friend HA`` or ``friend HA HA``; see ``friends``.
* ``play``: tricks of ``play ...`` until the hands are empty.

  Leads are where ``legal_actions`` is not the full set (``legal_complete`` false): any
  non-empty set of cards of one effective suit is a legal lead (a throw 甩牌 is an *attempt*
  the rules then resolve), which is astronomically many. ``legal_actions`` lists every
  single, pair and tractor plus throw candidates built from the hand alone (per suit the
  whole holding and every union of two components; never filtered by the other hands, which
  would leak them). ``check_action`` accepts ANY one-suit lead from the hand; ``apply``
  judges it with ``throw.check_throw``, turning a failed throw into its forced component.
  Follows are enumerated exactly by ``follow.legal_follows`` (the forced-follow rules); only
  when a position has ``legal.FOLLOW_LIMIT`` or more legal follows (large discards by a void
  hand) is the list cut to the cheapest and the point-shedding ones, and marked incomplete;
  ``check_action`` still accepts every legal follow (``follow.follow_error``, the rule the
  listed follows are built to meet). Every other decision is listed in full, and
  ``check_action`` accepts exactly the list.
* ``over``: scores, levels, next landlord; ``carry`` feeds the next hand.
"""

from __future__ import annotations

from collections.abc import Hashable
from functools import lru_cache
from typing import Any

from paiju.core.errors import IllegalAction
from paiju.core.rng import Rng
from paiju.core.seats import Seat
from paiju.engines.base import EngineDefaults, Event, MatchInfo, Options, Step
from paiju.engines.shengji import actions as notation
from paiju.engines.shengji.actions import Action, make
from paiju.engines.shengji.bidding import (
    BID_PHASES,
    advance_deal,
    after_burial,
    bidders_to_ask,
    close_theft,
    legal_bids,
    start_play,
)
from paiju.engines.shengji.cards import (
    LEVEL_NAME,
    LEVEL_NUMBER,
    SEATS,
    card_points,
    full_pack,
    remove_cards,
)
from paiju.engines.shengji.friends import friend_choices
from paiju.engines.shengji.legal import listed_plays
from paiju.engines.shengji.options import normalize
from paiju.engines.shengji.play import final_points, follow_position, hand_result, play_cards
from paiju.engines.shengji.schema import (
    BuryEvent,
    CardsEvent,
    FriendEvent,
    RedealEvent,
    ShengjiView,
    TrumpEvent,
)
from paiju.engines.shengji.shapes import effective_suit
from paiju.engines.shengji.state import Bid, ShengjiState, changed, with_hand
from paiju.engines.shengji.view import SpectatorViews, build_view

#: The action kinds each phase takes.
_PHASE_KINDS = {
    "deal": ("pass", "bid"),
    "theft": ("pass", "bid"),
    "bury": ("bury",),
    "friend": ("friend",),
    "play": ("play",),
}


class ShengjiEngine(EngineDefaults[ShengjiState, Action]):
    """The shengji rules; every method is pure."""

    name = "shengji"

    def __init__(self) -> None:
        # What every viewer of the last state viewed shares (a table views a state for each
        # viewer in a row); one engine per table, so per table and no global state.
        self._shared = SpectatorViews(_acting)

    def normalize_options(self, raw: Options) -> dict[str, Any]:
        return normalize(raw)

    def seat_count(self, options: Options) -> int:
        return SEATS

    def initial_state(self, options: Options, rng: Rng, match: MatchInfo) -> ShengjiState:
        """Shuffle two decks and deal up to the first bidding question.

        ``match.carry`` holds ``levels`` (rank names per team) and ``landlord``.
        """
        opts = normalize(options)
        deck = full_pack()
        rng.shuffle(deck)
        carry = match.carry
        width = SEATS if opts["game_mode"] == "finding_friends" else 2
        levels = tuple(LEVEL_NUMBER[r] for r in carry.get("levels", ("2",) * width))
        landlord = carry.get("landlord")
        level = levels[landlord % width] if landlord is not None else levels[0]
        state = ShengjiState(
            options=tuple(sorted(opts.items())),
            version=0,
            phase="deal",
            hand_no=match.hand,
            levels=levels,
            landlord=landlord,
            level=level,
            deal_start=landlord if landlord is not None else 0,
            redeals=0,
            deck=tuple(deck),
            deal_scheme=match.deal_scheme,
        )
        return advance_deal(state)

    def version(self, state: ShengjiState) -> int:
        return state.version

    def to_act(self, state: ShengjiState) -> frozenset[Seat]:
        return _acting(state)

    def legal_actions(self, state: ShengjiState, seat: Seat) -> frozenset[Action]:
        return _listed(state, seat)[0]

    def legal_complete(self, state: ShengjiState, seat: Seat) -> bool:
        """False for every lead and for a follow whose list was cut (``legal``)."""
        if state.phase == "play":
            return _plays(state, seat)[1]
        return _listed(state, seat)[1]

    def legal_key(self, state: ShengjiState, seat: Seat) -> Hashable:
        """In the play phase the listed plays' cards (the actions are ``play`` and these), so
        that a state's dozens of plays, some thousands for a void hand, are not made
        ``Action`` objects unless asked for as actions; else the legal actions."""
        if state.phase == "play":
            return _plays(state, seat)[0]
        return _listed(state, seat)[0]

    def check_action(self, state: ShengjiState, seat: Seat, action: object) -> Action:
        """As ``EngineDefaults``, a listed play found among the listed plays' cards (their
        ``Action`` objects are not made for the check), and a listed action taken as it is:
        the listed actions are canonical, so one equal to an ``Action`` of plain strings is
        well formed without its round trip through the notation (``well_formed``)."""
        if type(action) is Action and seat in _acting(state) and _plain(action):
            if state.phase != "play":
                if action in _listed(state, seat)[0]:
                    return action
            elif action.kind == "play" and action.cards in _plays(state, seat)[0]:
                return action
        if state.phase != "play" or seat not in self.to_act(state):
            return super().check_action(state, seat, action)  # raises its own error
        checked = self.well_formed(action)
        plays, complete = _plays(state, seat)
        if checked.kind == "play" and checked.cards in plays:
            return checked
        if not complete:
            self.check_unlisted(state, seat, checked)
            return checked
        raise self.refusal(state, seat, checked)

    def refusal(self, state: ShengjiState, seat: Seat, action: Action) -> IllegalAction:
        """Why a well-formed action outside a complete list is refused, by phase."""
        kinds = _PHASE_KINDS[state.phase]
        if action.kind not in kinds:
            return IllegalAction(f"{' or '.join(kinds)} now", code="wrong_phase")
        if state.phase == "play":
            error = _follow_error(state, seat, action.cards)
            return error or IllegalAction(f"{notation.format_action(action)} is not legal now")
        if action.kind == "friend":
            return IllegalAction(
                "a friend card is no joker, level card or trump-suit card", code="bad_friend_card"
            )
        if remove_cards(state.hands[seat], action.cards) is None:
            return IllegalAction("those cards are not in the hand", code="card_not_in_hand")
        weak = "that bid is no bid here or does not beat the standing bid"
        return IllegalAction(weak, code="bid_too_weak")

    def check_unlisted(self, state: ShengjiState, seat: Seat, action: Action) -> None:
        """A lead or follow the list leaves out: judged by the rules of the play phase."""
        if action.kind != "play":
            raise IllegalAction("play cards now", code="wrong_phase")
        if remove_cards(state.hands[seat], action.cards) is None:
            raise IllegalAction("those cards are not in the hand", code="card_not_in_hand")
        if not state.trick:
            if effective_suit(action.cards, state.ctx) is None:
                raise IllegalAction("a lead must be of one suit", code="lead_mixed_suits")
            return
        error = _follow_error(state, seat, action.cards)
        if error is not None:
            raise error

    def apply(self, state: ShengjiState, seat: Seat, action: Action) -> Step[ShengjiState]:
        """Check (``check_action``) and apply."""
        action = self.check_action(state, seat, action)
        if state.phase in BID_PHASES:
            return _apply_bid(state, seat, action)
        if state.phase == "bury":
            return _apply_bury(state, seat, action)
        if state.phase == "friend":
            return _apply_friend(state, action)
        new, events = play_cards(state, seat, action.cards, checked=True)
        return Step(new.bump(), tuple(events))

    def view(self, state: ShengjiState, seat: Seat | None) -> ShengjiView:
        """The seat's view; ``legal_complete`` is false when ``legal`` is only a subset.

        That is every lead (any one-suit set of cards from the hand may be proposed; a throw
        is judged when played) and a follow position whose list was cut at
        ``legal.FOLLOW_LIMIT`` (any play meeting the follow rules may be proposed).
        """
        legal: list[str] = []
        complete = True
        if seat is not None and seat in _acting(state):
            legal, complete = _shown(state, seat)
        scores = self.scores(state) if state.phase == "over" else ()  # shown only then
        # (who is to act is read by ``self._shared``, which builds what every viewer sees)
        return build_view(state, seat, legal, complete, (), scores, self._shared)

    def timeout_action(self, state: ShengjiState, seat: Seat) -> Action:
        """Pass a bid; bury / lead the cheapest single; follow with the cheapest legal play."""
        if state.phase in BID_PHASES:
            return Action("pass")
        hand = state.hands[seat]
        ctx = state.ctx
        cheapest = min(hand, key=lambda c: (card_points(c), ctx.is_trump(c), ctx.value(c), c))
        if state.phase == "bury":
            return make("bury", [cheapest])
        if state.phase == "friend":
            return min(self.legal_actions(state, seat))
        if not state.trick:
            return make("play", [cheapest])
        return min(self.legal_actions(state, seat), key=lambda a: _cost(a, state))

    def timer_kind(self, state: ShengjiState, seat: Seat) -> str:
        """``bid`` in a bidding window (deal or kitty theft), ``turn`` otherwise."""
        return "bid" if state.phase in BID_PHASES else "turn"

    def is_terminal(self, state: ShengjiState) -> bool:
        return state.phase == "over"

    def scores(self, state: ShengjiState) -> tuple[int, ...]:
        """Levels won: declarers' win +gain / -gain; attackers' win +(gain+1) / -(gain+1).

        In Finding Friends the sides may be 1 against 3: each winner scores that amount
        times the number of losers and each loser minus it times the number of winners.
        """
        if state.phase != "over":
            return (0,) * SEATS
        res = hand_result(state)
        amount = res.gain + (0 if res.declarers_won else 1)
        win, lose = (len(res.losers), len(res.winners)) if state.friends_mode else (1, 1)
        return tuple(amount * win if s in res.winners else -amount * lose for s in range(SEATS))

    def hand_stats(self, state: ShengjiState) -> list[dict[str, float]]:
        """Per seat: ``win``, ``declarer``, ``points_taken`` (points of tricks it won),
        ``attacker_points`` (the hand's final attacker total, same for all)."""
        scores = self.scores(state)
        total = float(final_points(state))
        taken = [0.0] * SEATS
        for trick in state.tricks:
            taken[trick.winner] += trick.points
        return [
            {
                "win": 1.0 if scores[s] > 0 else 0.0,
                "declarer": 0.0 if state.is_attacker(s) else 1.0,
                "points_taken": taken[s],
                "attacker_points": total,
            }
            for s in range(SEATS)
        ]

    def carry(self, state: ShengjiState) -> dict[str, Any]:
        """``levels`` (rank names per team), ``landlord`` (next), ``winner`` (team or null)."""
        levels = state.new_levels or state.levels
        return {
            "levels": [LEVEL_NAME[v] for v in levels],
            "landlord": state.next_landlord if state.phase == "over" else state.landlord,
            "winner": list(state.match_seats) if state.match_seats else state.match_winner,
        }

    def match_over(self, options: Options, match: MatchInfo) -> bool:
        """The match ends once a team has won it (defended A, see ``scoring.advance``)."""
        return match.carry.get("winner") is not None

    def parse_action(self, text: str) -> Action:
        """``actions.parse_action``; a short text (every action is one) read once for all
        tables: a few texts (``pass``, the bids, a lead) make most of the actions."""
        if type(text) is str and len(text) <= _PARSED_LENGTH:
            return _parsed(text)
        return notation.parse_action(text)

    def format_action(self, action: Action) -> str:
        return notation.format_action(action)


def _acting(state: ShengjiState) -> frozenset[Seat]:
    found: frozenset[Seat] | None = state.derived.get("to_act")
    if found is None:  # asked for by every check, list and view of the state
        found = state.derived["to_act"] = _to_act(state)
    return found


def _to_act(state: ShengjiState) -> frozenset[Seat]:
    if state.phase in BID_PHASES:
        return bidders_to_ask(state)
    if state.phase == "bury":
        return frozenset({_exchanger(state)})
    if state.phase == "friend":
        return frozenset({state.landlord or 0})
    turn = state.turn()
    return frozenset() if turn is None else frozenset({turn})


def _plain(action: Action) -> bool:
    """Whether ``action`` is made of plain strings (no subclass), as a parsed one is."""
    cards = action.cards
    return (
        type(action.kind) is str
        and type(cards) is tuple
        and all(type(card) is str for card in cards)
    )


def _cost(action: Action, state: ShengjiState) -> tuple[int, int, int, tuple[str, ...]]:
    ctx = state.ctx
    cards = action.cards
    return (
        sum(card_points(c) for c in cards),
        sum(ctx.is_trump(c) for c in cards),
        sum(ctx.value(c) for c in cards),
        cards,
    )


def _listed(state: ShengjiState, seat: Seat) -> tuple[frozenset[Action], bool]:
    """The seat's listed actions and whether they are all it may do, worked out once per
    state: the table asks when it opens the decision, for the seat's view and again when the
    answer comes (a cache shared by every table lost that state to other tables' actions)."""
    key = ("listed", seat)
    found: tuple[frozenset[Action], bool] | None = state.derived.get(key)
    if found is None:
        found = state.derived[key] = _work_out_listed(state, seat)
    return found


def _plays(state: ShengjiState, seat: Seat) -> tuple[frozenset[tuple[str, ...]], bool]:
    """In the play phase, the cards of the seat's listed plays (``legal.listed_plays``;
    nothing for a seat not to play) and whether they are all it may play, worked out once
    per state."""
    key = ("plays", seat)
    found: tuple[frozenset[tuple[str, ...]], bool] | None = state.derived.get(key)
    if found is None:
        turn = state.turn() == seat
        found = listed_plays(state, seat) if turn else (frozenset(), True)
        state.derived[key] = found
    return found


def _shown(state: ShengjiState, seat: Seat) -> tuple[list[str], bool]:
    """The seat's listed actions in notation, sorted, for its view (shared by the views of
    the state, which are only read), and whether they are all it may do. A play is
    written from its cards (``format_action``'s notation), without its ``Action``."""
    key = ("shown", seat)
    found: tuple[list[str], bool] | None = state.derived.get(key)
    if found is None:
        if state.phase == "play":
            plays, complete = _plays(state, seat)
            found = sorted(" ".join(("play", *p)) for p in plays), complete
        elif state.phase in BID_PHASES:
            listed, complete = _listed(state, seat)
            found = list(_bid_texts(listed)), complete
        else:
            listed, complete = _listed(state, seat)
            found = sorted(map(notation.format_action, listed)), complete
        state.derived[key] = found
    return found


#: The memo entries of a seat that depend only on the phase, the seat's hand, the bids and
#: the options (``legal_bids``), while the seat is still asked.
_BID_MEMOS = ("listed", "shown")


def _carry_bid_lists(old: ShengjiState, new: ShengjiState) -> None:
    """Hand ``new`` the bidding lists ``old`` worked out for the seats it still asks, when
    the answer between them (a pass that left the window open) changed neither the hands
    nor the bids: each of the four answers of a window would otherwise work out again the
    lists of the seats yet to answer."""
    if (
        new.phase != old.phase
        or new.hands is not old.hands
        or new.bids is not old.bids
        or new.level != old.level
        or new.options is not old.options
    ):
        return
    memo, held = new.derived, old.derived
    for seat in _acting(new) & _acting(old):  # asked in both: the lists are alike
        for name in _BID_MEMOS:
            found = held.get((name, seat))
            if found is not None:
                memo[name, seat] = found


def _work_out_listed(state: ShengjiState, seat: Seat) -> tuple[frozenset[Action], bool]:
    if state.phase in BID_PHASES:
        if seat not in _acting(state):
            return frozenset(), True
        return _bid_choices(tuple((b.card, b.count) for b in legal_bids(state, seat))), True
    if state.phase == "bury":
        if seat != _exchanger(state):
            return frozenset(), True
        return frozenset(make("bury", [c]) for c in set(state.hands[seat])), True
    if state.phase == "friend":
        if seat != state.landlord:
            return frozenset(), True
        return frozenset(make("friend", [c] * nth) for c, nth in friend_choices(state)), True
    plays, complete = _plays(state, seat)
    return frozenset(Action("play", p) for p in plays), complete


#: The longest text ``_parsed`` keeps (a play of 25 cards is some 105 characters): the memo
#: holds at most ``_parsed``'s size of them, however long the texts sent.
_PARSED_LENGTH = 128
#: Parsed actions by text (an ``Action`` is immutable; a text that does not parse raises
#: each time, and is not kept).
_parsed = lru_cache(maxsize=2048)(notation.parse_action)


@lru_cache(maxsize=256)
def _bid_choices(bids: tuple[tuple[str, int], ...]) -> frozenset[Action]:
    """A bidding seat's actions: ``pass`` and its legal bids (card, count). Most seats have
    none or the same few, and each is asked after every deal round: their actions (and
    ``_bid_texts``) are made once, not once a state."""
    return frozenset({Action("pass"), *(make("bid", [card] * count) for card, count in bids)})


@lru_cache(maxsize=256)
def _bid_texts(listed: frozenset[Action]) -> tuple[str, ...]:
    """``_bid_choices``' actions in notation, sorted (the frozenset's hash is kept in it)."""
    return tuple(sorted(map(notation.format_action, listed)))


def _follow_error(state: ShengjiState, seat: Seat, cards: tuple[str, ...]) -> IllegalAction | None:
    """Why ``cards`` may not follow the current trick (``None``: they may)."""
    return follow_position(state, seat).error(cards)


def _exchanger(state: ShengjiState) -> int:
    """The seat that holds the kitty now: the landlord, or a kitty thief."""
    return state.exchanger if state.exchanger is not None else state.landlord or 0


def _apply_bid(state: ShengjiState, seat: int, action: Action) -> Step[ShengjiState]:
    """A (checked) ``pass`` or ``bid`` in a bidding window of the deal or of a kitty theft."""
    events: list[Event] = []
    old = state
    version = state.version + 1  # bumped with the answer: one copy less than ``bump``
    if action.kind == "pass":
        state = changed(state, asked=(*state.asked, seat), version=version)
    else:
        bid = Bid(seat, action.cards[0], len(action.cards))
        state = changed(state, bids=(*state.bids, bid), asked=(seat,), version=version)
        events.append(Event("bid", CardsEvent(seat=seat, cards=list(action.cards))))
    new = advance_deal(state) if state.phase == "deal" else close_theft(state)
    if new.redeals > state.redeals:
        events.append(Event("redeal", RedealEvent(redeals=new.redeals)))
    if new.trump_set and new.phase == "bury":
        trump = TrumpEvent(
            suit=new.trump_suit,
            landlord=new.landlord,
            flipped=list(new.flipped),
            exchanger=new.exchanger,
        )
        events.append(Event("trump", trump))
    if new.phase in BID_PHASES:
        _carry_bid_lists(old, new)
    return Step(new, tuple(events))


def _apply_friend(state: ShengjiState, action: Action) -> Step[ShengjiState]:
    """The (checked) friend card."""
    choice = (action.cards[0], len(action.cards))
    state = start_play(changed(state, friend=choice))
    data = FriendEvent(landlord=state.landlord, cards=list(action.cards))
    return Step(state.bump(), (Event("friend", data),))


def _apply_bury(state: ShengjiState, seat: int, action: Action) -> Step[ShengjiState]:
    """One (checked) card buried."""
    rest = remove_cards(state.hands[seat], action.cards)
    assert rest is not None, "check_action lets only held cards through"
    buried = (*state.buried, action.cards[0])
    state = changed(state, hands=with_hand(state.hands, seat, rest), buried=buried)
    if len(buried) == len(state.kitty):
        state = after_burial(state)
    audience = frozenset({seat})
    return Step(state.bump(), (Event("bury", BuryEvent(card=action.cards[0]), audience),))
