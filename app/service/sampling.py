"""Determinizations for bot authors: `POST /v1/matches/{id}/samples`.

The caller's seat gets complete hidden states consistent with what that seat knows — its redacted
history, exactly what `GET …/events` gives it — drawn by the game's sampler (`app.games.samplers`)
with a fresh RNG that has nothing to do with the match's secret. The sampler never sees the real
hidden state, so a sample can equal it only by chance. A match may forbid samples
(`allow_samples: false`, for rated or tournament play), and each seat has a budget of samples per
match (`Config.samples_per_seat`, counted per process).
"""

from __future__ import annotations

import random
import secrets
from collections import OrderedDict

from app.games.samplers import SAMPLERS
from app.matches.events import MATCH_EVENT_TYPES
from app.matches.fold import decode
from app.service.auth import Caller, seat_in
from app.service.bots import history_for
from app.service.context import Context
from app.service.errors import Forbidden, MatchNotStarted, MatchOver, RateLimited, ValidationFailed
from app.service.results import Samples

_SPENT: OrderedDict[tuple[str, int], int] = OrderedDict()  # (match, seat) → samples drawn, this process
_KEEP = 100_000


async def samples(ctx: Context, match_id: str, caller: Caller, n: int, seed: int | None = None) -> Samples:
    if not 1 <= n <= ctx.config.samples_per_request:
        raise ValidationFailed(f"n must be from 1 to {ctx.config.samples_per_request}", {"field": "n"})
    loaded = await ctx.loader.load(match_id)
    seat = seat_in(loaded, caller)
    match = loaded.match
    if not match.settings.allow_samples:
        raise Forbidden("this match does not allow samples (allow_samples is off)")
    if not match.started:
        raise MatchNotStarted()
    if match.end is not None:
        raise MatchOver("the match is over: its log can be revealed instead")
    sampler = SAMPLERS.get(match.game.info.name)
    if sampler is None:
        raise ValidationFailed("this game has no sampler", {"field": "game"})
    key = (match_id, seat)
    spent = _SPENT.get(key, 0)
    budget = ctx.config.samples_per_seat
    if spent + n > budget:
        raise RateLimited(f"this seat has used its {budget} samples in this match", {"budget": budget})
    _SPENT[key] = spent + n
    _SPENT.move_to_end(key)
    while len(_SPENT) > _KEEP:
        _SPENT.popitem(last=False)
    stored = await ctx.store.read(match_id, 0, match.seq)
    game = match.game
    history = history_for(game, [decode(game, e) for e in stored if e.type not in MATCH_EVENT_TYPES], seat)
    rng = random.Random(secrets.randbits(64) if seed is None else seed)
    folded = sampler.prepare(seat, history)
    drawn = tuple(sampler.hidden_json(folded.sample(rng)) for _ in range(n))
    return Samples(match_id, seat, match.seq, drawn)
