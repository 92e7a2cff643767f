"""Shengji (升级 / tractor): two decks, four seats in two partnerships, levels 2 to A.

The package is layered like the game: ``cards`` (names), ``order`` (the trump context),
``shapes`` (components of a play), ``follow`` (跟牌 legality), ``throw`` (甩牌 validity),
``trick`` (the winner), ``scoring`` (points, kitty, levels), then ``engine`` on top.
"""
