"""Durable rooms: what a room is, every accepted action, every hand's result, seat tokens."""
