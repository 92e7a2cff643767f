"""The shengji variant as registered in the ``paiju.variants`` entry-point group."""

from __future__ import annotations

from paiju.engines.shengji.actions import Action
from paiju.engines.shengji.bot_level2 import BOT_LEVELS, make_bot
from paiju.engines.shengji.conformance import CONFORMANCE
from paiju.engines.shengji.engine import ShengjiEngine
from paiju.engines.shengji.judge import answer
from paiju.engines.shengji.schema import ERROR_CODES, EVENTS, ShengjiView
from paiju.engines.shengji.state import ShengjiState
from paiju.engines.variant import Variant

VARIANT = Variant[ShengjiState, Action](
    name="shengji",
    engine=ShengjiEngine,
    view=ShengjiView,
    events=EVENTS,
    error_codes=ERROR_CODES,
    bots=make_bot,
    bot_levels=BOT_LEVELS,
    judge=answer,
    conformance=CONFORMANCE,
)
