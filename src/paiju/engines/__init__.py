"""Rule engines: pure, sans-I/O, one package per variant, registered in ``base.py``."""
