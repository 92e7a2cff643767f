"""Pai gow dragon (牌九接龙): arrange 8 tiles into a chain of 6 or 7 and score the leftover."""
