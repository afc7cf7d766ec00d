"""Clients of the game server's public HTTP and WebSocket API."""
