"""paiju (牌局): an authoritative multiplayer server for Chinese tile and card games."""

__version__ = "0.1.0"
