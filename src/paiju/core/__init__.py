"""Game-independent building blocks: seats, randomness, errors, notation."""
