"""Yutakâ (Alexandre Droit, Ferti Games 2019) for two players, per docs/rules.md §2: `GAME` is the engine.

Modules: `components` (pieces and limits), `options` (match options), `deal` (shuffles or an
explicit setup), `actions` and `events` (orders and facts), `state` (the fold), `rules` (legal
actions, decide, outcome), `scoring` (final scoring and tie-breaks), `views` (per-viewer JSON) and
`game` (the `Game` protocol and the catalogue).
"""

from __future__ import annotations

from app.games.yutaka.game import GAME, INFO, YutakaGame

__all__ = ["GAME", "INFO", "YutakaGame"]
