"""When a request (or a stream) is tried again, and how long the client waits first.

A request is retried only when trying again cannot do harm:

- any request, when it never reached the server (the connection could not be opened) or the
  server refused it without looking (429 `rate_limited`, after `Retry-After`);
- a *safe* request also after a broken connection, a timeout, or 502/503/504 from the server or a
  proxy: `GET`s, and the `POST`s that carry an `Idempotency-Key` (actions and resignations: the
  client makes up a key when the caller gives none, so a retry returns the first outcome and never
  applies an action twice).

Creating a match, joining a seat or a player, reissuing a token… are not safe: after an ambiguous
failure they raise, and the caller decides (the match may exist).
"""

from __future__ import annotations

import email.utils
import random
import time
from dataclasses import dataclass, field

import httpx

RETRY_STATUSES = frozenset({429, 502, 503, 504})
"""Statuses worth another try (for an unsafe request only 429: nothing was done)."""
_NOT_SENT = (httpx.ConnectError, httpx.ConnectTimeout, httpx.PoolTimeout)
"""Failures before the request left the client: the server saw nothing."""


@dataclass(frozen=True, slots=True)
class Retry:
    """The retry policy of a client; `Retry(attempts=1)` never retries.

    The n-th retry waits `backoff * 2**n` seconds capped at `max_backoff`, scaled by a random factor
    in [0.5, 1] (so clients cut off together do not come back together), or the server's
    `Retry-After` if that is longer. A `Retry-After` beyond `max_retry_after` is not waited for:
    the `RateLimited` error is raised at once. Streams use the same policy to reconnect, and count
    only failures in a row: a stream that got its `hello` starts counting again.
    """

    attempts: int = 6
    backoff: float = 0.25
    max_backoff: float = 10.0
    max_retry_after: float = 60.0
    rng: random.Random = field(default_factory=random.Random, compare=False, repr=False)

    def delay(self, retry: int, retry_after: float | None = None) -> float:
        """Seconds to wait before retry number `retry` (0 for the first)."""
        base = min(self.max_backoff, self.backoff * 2.0**retry)
        wait = base * self.rng.uniform(0.5, 1.0)
        return max(wait, retry_after or 0.0)


def retryable_error(error: Exception, *, safe: bool) -> bool:
    """Whether a failure of the transport (no answer) may be retried."""
    if isinstance(error, _NOT_SENT):
        return True
    return safe and isinstance(error, httpx.TransportError)


def retryable_status(status: int, *, safe: bool) -> bool:
    return status == 429 or (safe and status in RETRY_STATUSES)


def retry_after(response: httpx.Response) -> float | None:
    """The response's `Retry-After` in seconds (a number or an HTTP date), if any."""
    value = response.headers.get("retry-after")
    if value is None:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())
