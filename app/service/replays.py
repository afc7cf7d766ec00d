"""Past states of matches kept for replays, so that looking back does not fold from the start.

A replay (`GET …/view?at=N`, the reply to a retried idempotent request) needs a match as it was
at seq N. The loader (`Loader.at`) folds it from the nearest state it knows at or before N — one
kept here, the stored snapshot, else the start — and keeps here, as it folds, a state at the first
commit boundary after every `EVERY` events, and the state it reaches when that ends a commit.
Stepping through a match then folds each event about once, where folding from the start every time
cost the square of its length; a replay anywhere in a match replayed before folds at most about
`EVERY` events.

The state at a seq never changes (committed events are immutable), so a kept state is never stale.
At most `CAPACITY` states are kept, the least recently used dropped first: 10 to 30 KiB each
(`python -m bench.load` measures a cached match), under 8 MiB per process.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Final

from app.matches.fold import Match

EVERY: Final = 256  # events folded between two kept states (a few ms of folding)
CAPACITY: Final = 256  # states kept per process


class Replays:
    """States at commit boundaries by (match id, seq): a bounded cache, least recently used first out."""

    def __init__(self, capacity: int = CAPACITY) -> None:
        self._capacity = capacity
        self._states: OrderedDict[tuple[str, int], Match] = OrderedDict()
        self._seqs: dict[str, set[int]] = {}  # the kept seqs of each match

    def __len__(self) -> int:
        return len(self._states)

    def nearest(self, match_id: str, seq: int) -> Match | None:
        """The kept state of the match with the greatest seq at most `seq`, if any."""
        best = max((s for s in self._seqs.get(match_id, ()) if s <= seq), default=None)
        if best is None:
            return None
        key = (match_id, best)
        self._states.move_to_end(key)
        return self._states[key]

    def keep(self, match: Match) -> None:
        """Keep `match`, a state that ends a commit."""
        key = (match.match_id, match.seq)
        if key in self._states:
            self._states.move_to_end(key)
            return
        self._states[key] = match
        self._seqs.setdefault(match.match_id, set()).add(match.seq)
        while len(self._states) > self._capacity:
            (match_id, seq), _ = self._states.popitem(last=False)
            seqs = self._seqs[match_id]
            seqs.discard(seq)
            if not seqs:
                del self._seqs[match_id]
