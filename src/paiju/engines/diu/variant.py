"""The diu variant as registered in the ``paiju.variants`` entry-point group."""

from __future__ import annotations

from paiju.engines.diu.bot_level2 import BOT_LEVELS, make_bot
from paiju.engines.diu.conformance import CONFORMANCE
from paiju.engines.diu.engine import DiuEngine
from paiju.engines.diu.judge import answer
from paiju.engines.diu.schema import ERROR_CODES, EVENTS, DiuView
from paiju.engines.diu.state import Action, DiuState
from paiju.engines.variant import Variant

VARIANT = Variant[DiuState, Action](
    name="diu",
    engine=DiuEngine,
    view=DiuView,
    events=EVENTS,
    error_codes=ERROR_CODES,
    bots=make_bot,
    bot_levels=BOT_LEVELS,
    judge=answer,
    conformance=CONFORMANCE,
)
