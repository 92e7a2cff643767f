"""MCR mahjong (国标麻将, Mahjong Competition Rules): tiles, hands, the 81 fans, the engine."""
