"""The dragon variant as registered in the ``paiju.variants`` entry-point group."""

from __future__ import annotations

from paiju.engines.dragon.actions import Action
from paiju.engines.dragon.bot import BOT_LEVELS, make_bot
from paiju.engines.dragon.conformance import CONFORMANCE
from paiju.engines.dragon.engine import DragonEngine
from paiju.engines.dragon.judge import answer
from paiju.engines.dragon.schema import ERROR_CODES, EVENTS, DragonView
from paiju.engines.dragon.state import DragonState
from paiju.engines.variant import Variant

VARIANT = Variant[DragonState, Action](
    name="dragon",
    engine=DragonEngine,
    view=DragonView,
    events=EVENTS,
    error_codes=ERROR_CODES,
    bots=make_bot,
    bot_levels=BOT_LEVELS,
    judge=answer,
    conformance=CONFORMANCE,
)
