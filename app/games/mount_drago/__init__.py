"""Mount Drago (docs/rules.md §1): a pure rules engine for 2–5 players; `GAME` is the engine object.

Modules: `cards` (dragons, deck, card codes), `track` (board sides, custom tracks), `options`,
`deal` (setup), `actions` and `events` (wire types), `state` (folded state and `evolve`),
`rules` (the decider), `views` (per-viewer output), `game` (the `Game` implementation).
"""

from app.games.mount_drago.game import GAME, MountDrago

__all__ = ["GAME", "MountDrago"]
