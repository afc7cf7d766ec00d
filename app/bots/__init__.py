"""Server bots that see only their seat.

A bot's only input is an `InfoSet` (`infoset`): the game's name, the seat, the match's game events
redacted for that seat and its legal actions. Levels (`levels`): `random`, `greedy` (one ply over a
documented heuristic per game: `mount_drago`, `yutaka`) and `ismcts` (information-set Monte Carlo
tree search over determinizations from `app.games.samplers`). The package imports the rules and the
samplers only, never the service, the store or the web layer (an import-linter contract).
"""

from app.bots.infoset import InfoSet, observe
from app.bots.ismcts import Budget
from app.bots.levels import DEFAULT_LEVEL, LEVELS, Bot, make_bot

__all__ = ["DEFAULT_LEVEL", "LEVELS", "Bot", "Budget", "InfoSet", "make_bot", "observe"]
