"""The hand-written half of the game docs: what each member, action and event means to a client.

A game's `Prose` explains its own view members, actions and events and the vocabulary its payloads
share (`app.gamedocs.prose.mount_drago`, `…yutaka`); `MATCH` explains what every game has: the
match envelope of a view, the draft actions and the match-level events. The renderer puts these
texts beside the schema's own descriptions and refuses to render a page when a member, action or
event has no text here, so a new field cannot be published unexplained.
"""

from __future__ import annotations

from collections.abc import Mapping

from app.gamedocs.prose.base import Prose
from app.gamedocs.prose.match import MATCH
from app.gamedocs.prose.mount_drago import MOUNT_DRAGO
from app.gamedocs.prose.yutaka import YUTAKA

GAMES: Mapping[str, Prose] = {"mount_drago": MOUNT_DRAGO, "yutaka": YUTAKA}

__all__ = ["GAMES", "MATCH", "Prose"]
