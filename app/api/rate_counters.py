"""The rate limits' counters: sliding-window counters, all of one request's at once.

A budget of `limit` per `window` seconds counts requests in fixed buckets of `window` seconds and
weighs the previous bucket by how much of it is still inside the sliding window: at `elapsed`
seconds into the current bucket a request passes while `previous * (window - elapsed) / window +
current < limit` (the sliding-window counter of the `limits` library, which the server used before).

`spend(checks)` takes every counter a request spends — each item of its budget, per address and per
credential — and either counts it in all of them or, when one is spent, in none and says which
and how long until it lets a request through. One call per request: `MemoryCounters` in this
process, `RedisCounters` in one Lua script (one round trip, atomic across the processes sharing
it). Counting them one `limits` call each cost 4 round trips per action and doubled the server's
CPU per action with Redis (`bench/ratelimit.py`).

Both follow the same arithmetic (`SCRIPT` is its Lua copy of the test; the wait for a refused request is
computed here from what the script read); tests run them through the same cases.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Final, NamedTuple

from app.service.batching import GroupCall

if TYPE_CHECKING:
    import redis.asyncio as aioredis


class Check(NamedTuple):
    """One counter a request spends: its key, its limit and its window in seconds."""

    key: str
    limit: int
    window: float


class Spent(NamedTuple):
    """Why a request was refused: `at`: the index of the first spent check, and the seconds until it
    lets one request through."""

    at: int
    wait: float


def wait_for(limit: int, window: float, previous: float, current: float, elapsed: float) -> float:
    """Seconds from `elapsed` into the current bucket until a request passes again (> 0)."""
    if current >= limit:  # the current bucket alone is full: only the next one helps
        # then `current` is the previous bucket and must weigh less than `limit`
        share = max(0.0, 1 - limit / current) if current > 0 else 0.0
        return window - elapsed + window * share
    # the previous bucket's weight must drop below `limit - current`
    needed = window * (1 - (limit - current) / previous) if previous > 0 else elapsed
    return max(needed - elapsed, 0.0)


class MemoryCounters:
    """The counters in this process's memory. Counters untouched for two windows are dropped (a
    sweep at most once a `sweep_every` seconds), so memory follows the clients of the last minutes."""

    def __init__(self, clock: Callable[[], float] = time.time, sweep_every: float = 60.0) -> None:
        self._clock = clock
        self._sweep_every = sweep_every
        self._swept = clock()
        # key → [bucket, previous count, current count, window]
        self._counters: dict[str, list[float]] = {}

    def keys(self) -> list[str]:
        return list(self._counters)

    def spend(self, checks: Sequence[Check]) -> Spent | None:
        now = self._clock()
        if now - self._swept >= self._sweep_every:
            self._sweep(now)
        counters = self._counters
        found: list[list[float]] = []
        for i, (key, limit, window) in enumerate(checks):
            bucket = math.floor(now / window)
            counter = counters.get(key)
            if counter is None or counter[0] < bucket - 1:
                counter = [bucket, 0, 0, window]
            elif counter[0] == bucket - 1:
                counter = [bucket, counter[2], 0, window]
            _, previous, current, _ = counter
            elapsed = now - bucket * window
            if previous * (window - elapsed) / window + current >= limit:
                return Spent(i, wait_for(limit, window, previous, current, elapsed))
            found.append(counter)
        for (key, _, _), counter in zip(checks, found, strict=True):
            counter[2] += 1
            counters[key] = counter
        return None

    def _sweep(self, now: float) -> None:
        self._swept = now
        self._counters = {key: c for key, c in self._counters.items() if c[0] >= math.floor(now / c[3]) - 1}


# The requests of a batch, each counted in all its counters or in none, one after the other.
# KEYS: every request's counters in turn; ARGV: now (seconds; "" for the server's TIME), then for
# each request its number of counters followed by each counter's limit and window.
# Returns, per request, 0 and "" when counted, else the index (1-based) of its first spent counter
# and "previous current elapsed" of that counter, from which `wait_for` tells the wait.
SCRIPT: Final = """
local now = tonumber(ARGV[1])
if now == nil then
  local t = redis.call('TIME')
  now = tonumber(t[1]) + tonumber(t[2]) / 1000000
end
local out = {}
local key, arg = 0, 2
while arg <= #ARGV do
  local n = tonumber(ARGV[arg])
  local found, refused = {}, nil
  for i = 1, n do
    local limit = tonumber(ARGV[arg + 2 * i - 1])
    local window = tonumber(ARGV[arg + 2 * i])
    local bucket = math.floor(now / window)
    local v = redis.call('HMGET', KEYS[key + i], 'b', 'p', 'c')
    local b, previous, current = tonumber(v[1]), tonumber(v[2]) or 0, tonumber(v[3]) or 0
    if b == nil or b < bucket - 1 then
      previous, current = 0, 0
    elseif b == bucket - 1 then
      previous, current = current, 0
    end
    local elapsed = now - bucket * window
    if previous * (window - elapsed) / window + current >= limit then
      refused = {i, tostring(previous) .. ' ' .. tostring(current) .. ' ' .. tostring(elapsed)}
      break
    end
    found[i] = {bucket, previous, current, window}
  end
  if refused == nil then
    for i = 1, n do
      local c = found[i]
      redis.call('HSET', KEYS[key + i], 'b', c[1], 'p', c[2], 'c', c[3] + 1)
      redis.call('PEXPIRE', KEYS[key + i], math.ceil(c[4] * 2000))
    end
    out[#out + 1] = 0
    out[#out + 1] = ''
  else
    out[#out + 1] = refused[1]
    out[#out + 1] = refused[2]
  end
  key = key + n
  arg = arg + 1 + 2 * n
end
return out
"""

MAX_BATCH: Final = 64  # requests per script call


class RedisCounters:
    """The counters in Redis, shared by every process using it under `prefix`; the time is
    Redis's own (`clock`: the tests' instead).

    The requests that come while a call is in flight wait for it and go together in the next
    (up to `MAX_BATCH`: `app.service.batching`, as the PostgreSQL store's group commit): one call
    per batch instead of one per request, so that under load the client library's own cost per
    call is shared."""

    def __init__(self, client: aioredis.Redis, prefix: str, clock: Callable[[], float] | None = None) -> None:
        self._prefix = prefix
        self._clock = clock
        self._script = client.register_script(SCRIPT)
        self._group: GroupCall[Sequence[Check], Spent | None] = GroupCall(self._call, MAX_BATCH)

    @property
    def calls(self) -> int:
        """Script calls made (for the tests)."""
        return self._group.batches

    async def spend(self, checks: Sequence[Check]) -> Spent | None:
        return await self._group(checks)

    async def _call(self, requests: list[Sequence[Check]]) -> list[Spent | None]:
        keys: list[str] = []
        args: list[str | int] = ["" if self._clock is None else repr(self._clock())]
        for checks in requests:
            args.append(len(checks))
            for key, limit, window in checks:
                keys.append(f"{self._prefix}:{key}")
                args += [limit, repr(window)]
        replies = await self._script(keys=keys, args=args)
        spent: list[Spent | None] = []
        for checks, (index, found) in zip(
            requests, zip(replies[::2], replies[1::2], strict=True), strict=True
        ):
            if not index:
                spent.append(None)
                continue
            check = checks[int(index) - 1]
            previous, current, elapsed = map(float, _text(found).split())
            spent.append(
                Spent(int(index) - 1, wait_for(check.limit, check.window, previous, current, elapsed))
            )
        return spent


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value
