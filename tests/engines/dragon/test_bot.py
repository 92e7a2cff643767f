"""The dragon bot plays the solver's arrangement, reading only the view."""

from __future__ import annotations

import pytest

from paiju.core.rng import ScriptedRng, SeededRng
from paiju.engines.base import MatchInfo
from paiju.engines.dragon.bot import make_bot
from paiju.engines.dragon.engine import DragonEngine
from paiju.engines.registry import make_bot as make_any_bot

ENGINE = DragonEngine()


@pytest.mark.parametrize("seed", range(20))
def test_bot_plays_the_optimal_legal_arrangement(seed: int) -> None:
    opts = ENGINE.normalize_options({"pair_set": "civil"} if seed % 2 else {})
    state = ENGINE.initial_state(opts, SeededRng(f"bot/{seed}"), MatchInfo(0, (0,) * 4))
    bot = make_bot(1, SeededRng("b"))
    for seat in range(4):
        view = ENGINE.view(state, seat)
        text = bot.choose(view)
        assert text in view["legal"]
        assert text == ENGINE.format_action(ENGINE.timeout_action(state, seat))
        state = ENGINE.apply(state, seat, ENGINE.parse_action(text)).state
    assert ENGINE.is_terminal(state)


def test_bot_levels_and_idle_views() -> None:
    opts = ENGINE.normalize_options({})
    state = ENGINE.initial_state(opts, ScriptedRng(), MatchInfo(0, (0,) * 4))
    bot = make_any_bot("dragon", 1, ScriptedRng())
    assert bot.choose(ENGINE.view(state, 0)) == "bust"
    with pytest.raises(ValueError):
        bot.choose(ENGINE.view(state, None))
    with pytest.raises(ValueError):
        make_bot(2, ScriptedRng())


@pytest.mark.parametrize("seed", range(6))
def test_bot_answers_best_without_reading_legal(seed: int) -> None:
    """The view's ``best`` is the solver's arrangement under the table's scoring: the bot
    answers it (and solves the hand itself for a view without it), never reading ``legal``,
    which a bot's view writes only for a reader."""
    opts = ENGINE.normalize_options({"pair_set": "civil"} if seed % 2 else {})
    state = ENGINE.initial_state(opts, SeededRng(f"best/{seed}"), MatchInfo(0, (0,) * 4))
    bot = make_bot(1, SeededRng("b"))
    for seat in range(4):
        view = dict(ENGINE.view(state, seat))
        timeout = ENGINE.format_action(ENGINE.timeout_action(state, seat))
        del view["legal"]
        assert bot.choose(view) == view["best"] == timeout
        view["best"] = None
        assert bot.choose(view) == timeout
