"""`memo_json`: remember a pure function of a player count and a JSON object (the games' option
parsers), so that equal options are decoded and checked once.

Every playout, search and training episode starts by parsing its options twice (`parse_options`,
then `start` parses the JSON it returned), the same few options again and again: with
`python -m bench.engine` the two parses were about a tenth of a random Yutakâ game. The memo is
keyed by `json_key`, a hashable copy of the JSON that tells `1`, `1.0` and `true` apart (the
decoders do), so a hit returns exactly what a parse of those options returned — the same frozen
object, which nobody can change. Refusals are not remembered: they raise again, as before.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Hashable, Mapping
from typing import Final, TypeVar

from app.games.codec.doc import JSON

T = TypeVar("T")

MEMO_LIMIT: Final = 256  # option sets remembered before the memo starts afresh


def json_key(value: JSON) -> Hashable:
    """A hashable stand-in for plain JSON data: equal exactly when the data are equal and of the
    same types (member order included). Raises `TypeError` for anything that is not JSON."""
    if isinstance(value, Mapping):
        return (dict, tuple([(k, json_key(v)) for k, v in value.items()]))
    if isinstance(value, list | tuple):
        return (list, tuple([json_key(v) for v in value]))
    if value is None or isinstance(value, str | int | float):  # bool is an int; its type tells it apart
        return (type(value), value)
    raise TypeError(f"not JSON: {type(value).__name__}")


def memo_json(
    parse: Callable[[int, Mapping[str, object] | None], T],
) -> Callable[[int, Mapping[str, object] | None], T]:
    """`parse(players, raw)`, remembered by `players` and the JSON `raw` (`None` as `{}`)."""
    memo: dict[tuple[Hashable, Hashable], T] = {}

    @functools.wraps(parse)
    def remembered(players: int, raw: Mapping[str, object] | None) -> T:
        try:
            key = (json_key(players), json_key({} if raw is None else raw))
        except TypeError:  # not plain JSON: the parser explains
            return parse(players, raw)
        hit = memo.get(key)
        if hit is None:
            if len(memo) >= MEMO_LIMIT:
                memo.clear()
            hit = memo[key] = parse(players, raw)
        return hit

    return remembered
