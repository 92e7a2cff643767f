"""In-process self-play (``paiju.bots.selfplay``): bots of chosen levels play whole matches.

The bots themselves belong to their variants (``paiju.engines.<variant>.bot``, made through
``Variant.make_bot``); the ``Bot`` protocol and the level-0 ``RandomBot`` every variant
shares are in ``paiju.engines.bot``.
"""
