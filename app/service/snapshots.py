"""Snapshots of folded matches, so that loading a long match does not fold its whole history.

When the loader folds at least `EVERY` events to load a match, it keeps the result in the store
(`EventStore.put_snapshot`) in the background; the next cold load (another process, a restart, an
evicted cache entry) starts from the newest snapshot and folds only the events after it. The store
is still the truth: a snapshot is a cache keyed by `seq`.

A snapshot is the pickled fold (the game's and the match's frozen state; the game object itself is
left out). Its `version` is a digest of this server's rules and match code,
so a snapshot written by other code is ignored, never misread, and an unreadable one is ignored
too. Snapshots are written and read only by this server in its own database; nothing a client sends
ever reaches `pickle`.
"""

from __future__ import annotations

import dataclasses
import hashlib
import logging
import pickle
from functools import cache
from pathlib import Path
from typing import Final

import app.games
import app.matches
from app.games.core import AnyGame
from app.matches.fold import Match
from app.service.ports import Snapshot

log = logging.getLogger("app.service")

EVERY: Final = 500  # events folded in one load before a snapshot is kept (a long match has ~1,000)
_SKIPPED: Final = ("game",)


@cache
def code_version() -> str:
    """A digest of the source of the rules and the match layer: what a snapshot's state depends on."""
    digest = hashlib.sha256()
    for package in (app.games, app.matches):
        root = Path(str(package.__file__)).parent
        for path in sorted(root.rglob("*.py")):
            digest.update(str(path.relative_to(root)).encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:32]


def dump(match: Match) -> Snapshot:
    fields = {f.name: getattr(match, f.name) for f in dataclasses.fields(match) if f.name not in _SKIPPED}
    data = pickle.dumps(fields, protocol=pickle.HIGHEST_PROTOCOL)
    return Snapshot(match.match_id, match.seq, code_version(), data)


def load(snapshot: Snapshot, game: AnyGame) -> Match | None:
    """The match a snapshot holds, or None if this code did not write it or it cannot be read."""
    if snapshot.version != code_version():
        return None
    try:
        fields = pickle.loads(snapshot.data)  # noqa: S301  # written by this server only (see module docstring)
        return Match(game=game, **fields)
    except Exception:
        log.warning(
            "ignoring an unreadable snapshot", extra={"match_id": snapshot.match_id, "seq": snapshot.seq}
        )
        return None
