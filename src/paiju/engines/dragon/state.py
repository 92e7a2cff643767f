"""The state of one dragon hand, and the showdown settlement (结算).

A hand has two phases: ``arrange`` (every seat that has not submitted is to act, all at
once) and ``showdown`` (everything revealed and settled). States are frozen and hashable.
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from paiju.engines.dragon.actions import Action, Arrange
from paiju.engines.dragon.rules import ScoringOptions, scoring_options
from paiju.engines.dragon.scoring import BUST, Key, compare, leftover_key
from paiju.engines.dragon.solver import best_key
from paiju.engines.dragon.tiles import Kind


@dataclass(frozen=True)
class DragonState:
    """One hand.

    ``hands[s]`` is seat ``s``'s 8 tiles (sorted kinds); ``undealt`` the tiles nobody holds
    (hidden forever). ``submissions[s]`` is ``None`` until seat ``s`` submits. ``keys`` and
    ``payments`` are empty until the showdown; ``payments[i][j]`` is what seat ``i`` pays seat
    ``j``.
    """

    version: int
    hand_index: int
    options: tuple[tuple[str, Any], ...]
    hands: tuple[tuple[Kind, ...], ...]
    undealt: tuple[Kind, ...]
    submissions: tuple[Action | None, ...]
    keys: tuple[Key, ...] = ()
    payments: tuple[tuple[int, ...], ...] = ()

    @property
    def opts(self) -> dict[str, Any]:
        """The normalized table options as a dict."""
        return dict(self.options)

    @property
    def scoring(self) -> ScoringOptions:
        """The options that decide how leftovers score."""
        return _scoring(self.options)

    @property
    def seat_count(self) -> int:
        """How many seats play this hand."""
        return len(self.hands)

    @property
    def over(self) -> bool:
        """Whether the showdown has happened."""
        return bool(self.keys)

    @cached_property
    def of_hands(self) -> dict[tuple[str, int], Any]:
        """A memo of what the engine derives from a seat's hand and the options alone, keyed
        ``(what, seat)`` (its legal arrangements, their notation, the best one), shared by the
        states of the hand while the seat decides: ``carry_memo`` hands it on. Kept in the
        instance dict, outside the fields (a state is never changed): equality, hashing,
        ``replace`` and the snapshot codec see only the fields. A cache shared by every table
        held too few hands for a thousand tables: it worked the arrangements out again for
        each waiting seat on every action."""
        return {}

    @cached_property
    def shown(self) -> dict[tuple[str, int], Any]:
        """A memo of what every view shows of a seat and that the hand fixes, keyed ``(what,
        seat)``: its tiles' codes, and its submission's text kept with the submission it
        writes (``(action, text)``: a state of another branch of the hand may hold another
        one). Every state of the hand shares the one dict (``carry_memo`` hands it on): a
        seat's own view carried them, written afresh, in every state it was sent."""
        return {}

    @cached_property
    def derived(self) -> dict[Any, Any]:
        """A memo of what the engine derives from this state itself (the showdown's reveal,
        the same in every viewer's view), never handed on."""
        return {}

    def __getstate__(self) -> dict[str, Any]:
        """The fields only (for pickling and ``copy``): the memo is worked out again."""
        return {name: self.__dict__[name] for name in _FIELD_NAMES}


_FIELD_NAMES = tuple(DragonState.__dataclass_fields__)
_FIELDS_OF = operator.itemgetter(*_FIELD_NAMES)


def evolve(state: DragonState, **changes: Any) -> DragonState:
    """``dataclasses.replace(state, **changes)`` for the engine's own changes (fields only,
    values it made): the fields copied from the instance dict, without ``replace``'s walk
    over every field's metadata and the frozen ``__init__``'s ``object.__setattr__`` per
    field (some 5 us of each dragon action). The memos are not copied (as with
    ``replace``): ``carry_memo`` hands on what may be."""
    unknown = changes.keys() - DragonState.__dataclass_fields__.keys()
    if unknown:
        raise TypeError(f"DragonState has no field {sorted(unknown)}")
    nxt = object.__new__(DragonState)
    fields = nxt.__dict__
    fields.update(zip(_FIELD_NAMES, _FIELDS_OF(state.__dict__), strict=True))
    fields.update(changes)
    return nxt


def carry_memo(before: DragonState, after: DragonState) -> DragonState:
    """``after`` with ``before``'s memo of its hands when both hold the very same hands and
    options (a submission changes neither), less what it kept for seats that have submitted
    (asked nothing more this hand, their list and best arrangement are let go), and with the
    very same ``shown``; ``after`` as it is otherwise."""
    if after.hands is not before.hands or after.options is not before.options:
        return after
    memo = before.__dict__.get("of_hands")
    if memo:
        still = {key: v for key, v in memo.items() if after.submissions[key[1]] is None}
        if still:
            after.__dict__["of_hands"] = still
    after.__dict__["shown"] = before.shown
    return after


def new_state(
    options: Mapping[str, Any],
    hands: Sequence[Sequence[Kind]],
    undealt: Sequence[Kind],
    hand_index: int = 0,
) -> DragonState:
    """A hand in its arrange phase with these (normalized) options and dealt hands."""
    return DragonState(
        version=0,
        hand_index=hand_index,
        options=tuple(sorted(options.items())),
        hands=tuple(tuple(sorted(h)) for h in hands),
        undealt=tuple(sorted(undealt)),
        submissions=(None,) * len(hands),
    )


def submission_key(action: Action, scoring: ScoringOptions) -> Key:
    """The score of a validated submission: its leftover's key, or bust."""
    if isinstance(action, Arrange):
        return leftover_key(action.leftover, scoring)
    return BUST


def settle(keys: Sequence[Key]) -> tuple[tuple[int, ...], ...]:
    """Every two seats settle: the loser pays the winner 1, or 2 if the winner's leftover is
    a pair; a tie (a copy) pays nothing. ``result[i][j]`` is what ``i`` pays ``j``."""
    n = len(keys)
    pay = [[0] * n for _ in range(n)]
    for i in range(n):
        for j in range(n):
            if i != j and compare(keys[j], keys[i]) > 0:
                pay[i][j] = 2 if keys[j][0] == 3 else 1
    return tuple(tuple(row) for row in pay)


def showdown(state: DragonState) -> DragonState:
    """The state after the last submission: keys fixed and payments settled.

    With ``scoring = best`` each hand is scored by its optimal arrangement, whatever was
    submitted.
    """
    scoring = state.scoring
    if state.opts["scoring"] == "best":
        keys = tuple(best_key(h, scoring) for h in state.hands)
    else:
        keys = tuple(submission_key(a, scoring) for a in state.submissions if a is not None)
    return evolve(state, keys=keys, payments=settle(keys))


def net_scores(state: DragonState) -> tuple[int, ...]:
    """Per-seat net of the settlement (zero-sum); zeros before the showdown. Worked out once
    per state (the showdown event, the reveal and the table's scores each ask)."""
    found: tuple[int, ...] | None = state.derived.get("net_scores")
    if found is None:
        n = state.seat_count
        pay = state.payments
        found = state.derived["net_scores"] = (
            tuple(sum(pay[j][i] for j in range(n)) - sum(pay[i]) for i in range(n))
            if pay
            else (0,) * n
        )
    return found


@functools.lru_cache(maxsize=256)
def _scoring(options: tuple[tuple[str, Any], ...]) -> ScoringOptions:
    # Asked for every view and every submission: normalizing the options each time was a
    # tenth of a dragon action's cost. Normalized option values are scalars (hashable).
    return scoring_options(dict(options))
