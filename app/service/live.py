"""The per-process live hub (in progress): the conventions the broadcasters share with it."""

RESYNC = -1
"""The seq a broadcaster passes to its handler after it reconnected, for every match still
subscribed: notifications may have been lost, so re-read the store."""
