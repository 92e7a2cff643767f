"""The asyncio WebSocket server: sessions, one task per room, the admin channel."""
