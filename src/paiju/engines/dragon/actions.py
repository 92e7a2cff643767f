"""Dragon actions and their canonical notation.

* ``chain 16 66 64 44 45 | 11 22`` — an arrangement: each chain tile as it is laid, pips of
  its left half then its right half (``64`` is the tile ``46`` laid 6 then 4), then ``|`` and
  the leftover tiles (得分牌) by their codes. A chain and its reverse are the same arrangement:
  the canonical text reads the chain from the end that gives the smaller reading, and lists
  the leftover in tile order (天 first). ``parse_action`` accepts either direction and any
  leftover order and canonicalises.
* ``bust`` — the hand cannot lay a chain of 6 (legal only then).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from paiju.core.errors import MalformedAction
from paiju.core.notation import split_tokens
from paiju.engines.dragon.rules import ScoringOptions
from paiju.engines.dragon.solver import PAIRS, Laid, canonical_chain, solve, solve_cached
from paiju.engines.dragon.tiles import KIND_COUNT, TEXTS, Kind, kind_of, tile_code


@dataclass(frozen=True, slots=True)
class Arrange:
    """Lay ``chain`` (tiles as laid, left to right) and score ``leftover``.

    Stored canonically whatever the construction order: the chain in its canonical
    direction, the leftover sorted by kind. Validity (own tiles, length, matching halves) is
    the engine's business, not the action's.
    """

    chain: tuple[Laid, ...]
    leftover: tuple[Kind, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "chain", canonical_chain(self.chain))
        object.__setattr__(self, "leftover", tuple(sorted(self.leftover)))

    @classmethod
    def canonical(cls, chain: tuple[Laid, ...], leftover: tuple[Kind, ...]) -> Arrange:
        """An arrangement whose chain and leftover are already canonical (the solver's): the
        same object as ``Arrange(chain, leftover)``, without putting them in order again (a
        new hand lists dozens)."""
        arrange = object.__new__(cls)
        object.__setattr__(arrange, "chain", chain)
        object.__setattr__(arrange, "leftover", leftover)
        return arrange

    def kinds(self) -> list[Kind]:
        """Every tile the arrangement uses, chain then leftover."""
        return [_kind_laid(left, right) for left, right in self.chain] + list(self.leftover)


@dataclass(frozen=True)
class DeclareBust:
    """Declare a hand that has no chain of 6 (it scores as bust, below everything)."""


Action = Arrange | DeclareBust


#: Every tile as it may be laid, by its text (``46`` and ``64``): the solver's shared pair.
_LAID_BY_TEXT: dict[str, Laid] = {text: PAIRS[int(text[0])][int(text[1])] for text in TEXTS}


def _laid(token: str) -> Laid:
    laid = _LAID_BY_TEXT.get(token)
    if laid is None:
        kind_of(token)  # raises MalformedAction, saying why this is no tile
        raise MalformedAction(f"{token!r} is not a tile")  # (every tile's text is listed)
    return laid


#: Every tile as laid -> its kind.
_KIND_BY_LAID: dict[Laid, Kind] = {laid: kind_of(text) for text, laid in _LAID_BY_TEXT.items()}


def _kind_laid(left: int, right: int) -> Kind:
    """The kind of a tile laid ``left`` to ``right`` (``MalformedAction`` if it is none)."""
    kind = _KIND_BY_LAID.get((left, right))
    return kind_of(f"{left}{right}") if kind is None else kind


def plainly_canonical(action: Arrange) -> bool:
    """Whether ``action`` is an arrangement exactly as ``parse_action`` reads one: 6 or 7
    laid tiles, each the shared pair ``_laid`` gives, in canonical direction, and 1 or 2
    leftover kinds (plain ints) in order. Such an action survives its notation unchanged,
    so it is well formed without being written and read back (a tenth of judging one).
    False says nothing: the caller then writes and reads it back."""
    chain, leftover = action.chain, action.leftover
    return (
        type(chain) is tuple
        and 6 <= len(chain) <= 7
        and all(type(laid) is tuple and _IS_SHARED.get(laid) is laid for laid in chain)
        and type(leftover) is tuple
        and 1 <= len(leftover) <= 2
        and all(type(k) is int and 0 <= k < KIND_COUNT for k in leftover)
        and (len(leftover) == 1 or leftover[0] <= leftover[1])
        and canonical_chain(chain) == chain
    )


#: The shared pair of every tile as laid (keys and values the same objects).
_IS_SHARED: dict[Laid, Laid] = {laid: laid for laid in _LAID_BY_TEXT.values()}


def parse_action(text: str) -> Action:
    """The action written in dragon notation; ``MalformedAction`` if it cannot be read."""
    tokens = split_tokens(text)
    if tokens == ["bust"]:
        return DeclareBust()
    if tokens[0] != "chain":
        raise MalformedAction(f"a dragon action is 'chain ... | ...' or 'bust', not {text!r}")
    body = tokens[1:]
    if body.count("|") != 1:
        raise MalformedAction(f"an arrangement needs exactly one '|' before its leftover: {text!r}")
    cut = body.index("|")
    chain = tuple(_laid(t) for t in body[:cut])
    leftover = tuple(kind_of(t) for t in body[cut + 1 :])
    return Arrange(chain, leftover)


def format_action(action: Action) -> str:
    """Canonical notation: ``parse_action(format_action(a)) == a``."""
    if isinstance(action, DeclareBust):
        return "bust"
    return arrangement_text(action.chain, action.leftover)


def arrangement_text(chain: tuple[Laid, ...], leftover: tuple[Kind, ...]) -> str:
    """The notation of ``Arrange(chain, leftover)`` for a chain and leftover already
    canonical (the solver's), without building the action."""
    laid = [_LAID[left][right] for left, right in chain]
    return " ".join(["chain", *laid, "|", *(tile_code(k) for k in leftover)])


#: A laid tile's notation by its halves (``_LAID[left][right]``), written once.
_LAID = tuple(tuple(f"{left}{right}" for right in range(7)) for left in range(7))


def optimal_action(hand: tuple[Kind, ...], scoring: ScoringOptions) -> Action:
    """The solver's optimal arrangement of ``hand`` as an action."""
    solution = solve_cached(tuple(sorted(hand)), scoring)
    if not solution.chain:
        return DeclareBust()
    return Arrange(solution.chain, solution.leftover)


def optimal_text(
    hand: tuple[Kind, ...],
    scoring: ScoringOptions,
    leftovers: Iterable[tuple[Kind, ...]] | None = None,
) -> str:
    """The notation of ``optimal_action(hand, scoring)``, solved afresh: a view asks once per
    hand (the state remembers the text), and ``solve_cached`` would keep the solution of
    every hand dealt at an idle table, some 0.4 KiB per seated connection. ``leftovers``:
    every leftover of the hand whose other tiles lay a chain, when the caller has them (see
    ``solve``)."""
    solution = solve(tuple(sorted(hand)), scoring, leftovers)
    if not solution.chain:
        return "bust"
    # the solver's leftover is sorted: only the chain may need turning round
    return arrangement_text(canonical_chain(solution.chain), solution.leftover)

