"""The Mount Drago heuristic of the bots: each seat's final total estimated from a state.

    potential[s] = score[s]
                   + remaining · (W_LARGE · large[space] + W_SMALL · small[space])
                   − W_DEAD · (cards in s's hand whose dragon is on the summit)

where `space` is where the dragon that seat `s` rides stands, `large` and `small` are what a
green/summit and a blue scoring would pay it there (RULES §1.4.3), and `remaining` is the share of
the race still to run: 1 minus the mean progress towards the summit of the three leading dragons
(the game ends when the third arrives), so standing on a rich space is worth more early than late.
A card of a summit dragon can no longer trigger a scoring and takes a place in the hand, hence the
small penalty (it makes the bots discard such cards). When the game is over, the potential is the
final score. Only public facts and hands enter; in a bot the hands are the seat's own and, for the
others, those of a determinization sampled from the seat's information.
"""

from __future__ import annotations

from typing import Final

from app.games.mount_drago.cards import MAX_VALUE
from app.games.mount_drago.state import OVER, State

W_LARGE: Final = 1.0  # expected further green/summit scorings while the dragon stands there
W_SMALL: Final = 0.5  # blue scorings are more frequent but pay only spaces worth ≤ 3
W_DEAD: Final = 0.5
SCALE: Final = 6.0  # a potential lead worth a clear edge (the logistic scale of search rewards)


def potential(state: State) -> tuple[float, ...]:
    if state.phase == OVER:
        return tuple(float(s) for s in state.scores)
    track = state.track
    ss = track.summit_start
    positions = state.positions
    lead = sorted(positions, reverse=True)[:3]
    remaining = 1.0 - sum(min(p, ss) for p in lead) / (3 * ss)
    out = []
    for seat, dragon in enumerate(state.riders):
        p = positions[dragon]
        dead = sum(1 for c in state.hands[seat] if positions[c // MAX_VALUE] >= ss)
        out.append(
            state.scores[seat]
            + remaining * (W_LARGE * track.large[p] + W_SMALL * track.small[p])
            - W_DEAD * dead
        )
    return tuple(out)
