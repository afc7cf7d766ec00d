"""`drago-fair-2`: the documented generator every roll of a version-2 match comes from (docs/fairness.md).

A server seed (32 random bytes) is committed to at creation (`commitment`); each seat adds its own
seed when it joins; the combined seed is an HMAC of the match id and the seats' seeds keyed by the
server seed (`combined_seed`); every random decision reads its own byte stream, HMAC-SHA256 of the
combined seed over the decision's context and a block counter (`Stream`). The rules draw from a
stream only through two primitives: `randrange(n)` (a uniform integer below `n`, by rejection
sampling) and `shuffle(items)` (Fisher–Yates from the last index down), so `Stream` stands in for
the `random.Random` the rules are typed with. Standard library only; nothing here knows a game.
"""

from __future__ import annotations

import hashlib
import hmac
import random
import struct
from collections.abc import Callable, MutableSequence, Sequence
from functools import lru_cache
from typing import Final, NoReturn, TypeVar

_T = TypeVar("_T")


ALGORITHM: Final = "drago-fair-2"
SERVER_SEED_BYTES: Final = 32
DEAL_CONTEXT: Final = "deal"
_U32: Final = 1 << 32
_BLOCK: Final = 32  # bytes of one HMAC-SHA256 block


def _u32(n: int) -> bytes:
    return n.to_bytes(4, "big")


def _text(value: str) -> bytes:
    """A string as its UTF-8 length (4 bytes, big-endian) followed by its UTF-8 bytes."""
    raw = value.encode("utf-8")
    return _u32(len(raw)) + raw


def commitment(server_seed: bytes) -> str:
    """SHA-256 (hex) of the server seed followed by the UTF-8 of the algorithm's name."""
    return hashlib.sha256(server_seed + ALGORITHM.encode("utf-8")).hexdigest()


def combined_seed(server_seed: bytes, match_id: str, seat_seeds: Sequence[str]) -> bytes:
    """HMAC-SHA256 keyed by the server seed over `text(match_id) ‖ u32(seats) ‖ text(seed 0) ‖ …`."""
    message = _text(match_id) + _u32(len(seat_seeds)) + b"".join(_text(s) for s in seat_seeds)
    return hmac.digest(server_seed, message, "sha256")


def context_for(seq: int | None) -> str:
    """The context of the deal (`None`) or of a decision taken when the match is at `seq`."""
    return DEAL_CONTEXT if seq is None else f"seq:{seq}"


def block(combined: bytes, context: str, counter: int) -> bytes:
    """Block `counter` of the stream of `context`: HMAC-SHA256(combined, text(context) ‖ u32(counter))."""
    return hmac.digest(combined, _text(context) + _u32(counter), "sha256")


class Stream(random.Random):
    """The byte stream of one random decision and the two primitives drawn from it.

    A `random.Random` only so that the rules' signatures stay as they are: every other method of
    `random.Random` raises, so no roll can come from anywhere but the document's two primitives."""

    def __init__(self, combined: bytes, context: str) -> None:  # no super().__init__(): no Twister
        self._combined = combined
        self._context = _text(context)
        self._counter = 0
        self._buffer = b""
        self._pos = 0

    def read(self, n: int) -> bytes:
        """The next `n` bytes of the stream (the blocks still missing made at once, in order)."""
        pos, buffer = self._pos, self._buffer
        end = pos + n
        if end > len(buffer):
            counter, count = self._counter, -(-(end - len(buffer)) // _BLOCK)
            combined, context = self._combined, self._context
            fresh = b"".join(
                hmac.digest(combined, context + _u32(k), "sha256") for k in range(counter, counter + count)
            )
            self._counter = counter + count
            buffer = self._buffer = buffer[pos:] + fresh
            pos, end = 0, n
        self._pos = end
        return buffer[pos:end]

    def randrange(self, n: int, *rest: object) -> int:
        """A uniform integer in `0 … n-1` (1 ≤ n ≤ 2³²): big-endian 4-byte words, rejecting those
        at or above the largest multiple of `n` below 2³², the first accepted one modulo `n`."""
        if rest or not 1 <= n <= _U32:
            raise ValueError(f"randrange({n}) takes one bound in 1…2**32")
        limit = _U32 - _U32 % n
        while True:
            word = int.from_bytes(self.read(4), "big")
            if word < limit:
                return word % n

    def _randbelow(self, n: int) -> int:
        return self.randrange(n)

    def shuffle(self, x: MutableSequence[_T]) -> None:
        """Fisher–Yates from the last index down: for i = len−1 … 1, swap x[i] and x[randrange(i+1)].

        The same words in the same order as that loop reads them, read in bulk: at most one word
        per draw still to make (a rejected word only makes the next batch come sooner), so the
        stream is never read past the last word the loop would read. A deal's shuffle of the
        110-card deck cost 150 µs one word at a time and costs a few dozen this way."""
        i = len(x) - 1
        while i > 0:
            for word in struct.unpack(f">{i}I", self.read(4 * i)):
                n = i + 1
                if word < _U32 - _U32 % n:  # else rejected: the next word is tried for the same i
                    j = word % n
                    x[i], x[j] = x[j], x[i]
                    i -= 1

    def _refuse(self, *args: object, **kwargs: object) -> NoReturn:
        raise TypeError(f"{ALGORITHM} rolls only through randrange(n) and shuffle(items)")

    random = getrandbits = choice = choices = sample = randint = uniform = seed = _refuse


class Deferred(Stream):
    """`make()`'s stream, made at the first draw: most decisions draw nothing (a Mount Drago card
    played), and then its HMAC and its context are never computed."""

    def __init__(self, make: Callable[[], Stream]) -> None:  # no super().__init__(): nothing yet
        self._make = make
        self._made: Stream | None = None

    def read(self, n: int) -> bytes:
        made = self._made
        if made is None:
            made = self._made = self._make()
        return made.read(n)


def stream(server_seed: bytes, match_id: str, seat_seeds: Sequence[str], seq: int | None) -> Stream:
    """The stream of the deal (`seq` None) or of the decision taken at `seq`."""
    return Stream(_combined(server_seed, match_id, tuple(seat_seeds)), context_for(seq))


@lru_cache(maxsize=4096)
def _combined(server_seed: bytes, match_id: str, seat_seeds: tuple[str, ...]) -> bytes:
    """`combined_seed`, remembered: a match's seeds are fixed once its seats are taken, and every
    decision of the match used to recompute the same HMAC (a pure function of its arguments, so a
    remembered result is the same bytes; the cache holds the latest few thousand matches)."""
    return combined_seed(server_seed, match_id, seat_seeds)
