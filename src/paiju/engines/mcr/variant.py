"""The MCR variant as registered in the ``paiju.variants`` entry-point group."""

from __future__ import annotations

from paiju.engines.mcr.actions import Action
from paiju.engines.mcr.bot import BOT_LEVELS, make_bot
from paiju.engines.mcr.conformance import CONFORMANCE
from paiju.engines.mcr.engine import McrEngine
from paiju.engines.mcr.judge import answer
from paiju.engines.mcr.schema import ERROR_CODES, EVENTS, McrView
from paiju.engines.mcr.state import McrState
from paiju.engines.variant import Variant

VARIANT = Variant[McrState, Action](
    name="mcr",
    engine=McrEngine,
    view=McrView,
    events=EVENTS,
    error_codes=ERROR_CODES,
    bots=make_bot,
    bot_levels=BOT_LEVELS,
    judge=answer,
    conformance=CONFORMANCE,
)
