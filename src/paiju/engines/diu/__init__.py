"""Suijiang "diu" (绥江-丢): a three-seat claim game, ladder 吃 < 筷 < 筷水 < 硬对/硬水 < 丢.

Modules: ``cards`` (deck profiles, card tokens), ``deck`` (shuffles, deal), ``combos`` (the
shapes of every call and the complete-hand test for 丢), ``arbitration`` (the claim poll of
rules §3), ``options``, ``state``, ``engine`` (``DiuEngine``), ``view``, ``sealed`` (encrypted
stock prefetch) and ``judge`` (``paiju judge diu``).
"""
