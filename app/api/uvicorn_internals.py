"""What the edge's shortcut past uvicorn's `send` says when uvicorn's private state changed.

The stream fast lane (`app.api.fast_lane`) reads a few private attributes of uvicorn's objects. It
checks them on the live object before using them; when one is missing, `problem` names it, the
module to update and the setting that turns the shortcut off, and `warn_once` logs that once per
process while the server goes through uvicorn's own `send` instead (tests assert the same check,
so an upgrade that breaks it fails loudly).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from functools import cache
from typing import TypeVar

T = TypeVar("T")

log = logging.getLogger("app.api")


def unmentioned(function: object, names: Sequence[str]) -> list[str]:
    """The `names` that `function`'s code never mentions (an attribute it sets, a global it uses),
    each with the function's name: how the shortcuts check, without an instance, that a class of
    uvicorn's (or of `websockets`') still keeps the state they read."""
    code = getattr(function, "__code__", None)
    mentioned = set() if code is None else set(code.co_names)
    qualname = getattr(function, "__qualname__", "?")
    return [f"{qualname}: {name}" for name in names if name not in mentioned]


def problem(owner: str, missing: Sequence[str], shortcut: str, advice: str, setting: str) -> str | None:
    """None when nothing is `missing`; else what a person must check, and how to run meanwhile."""
    if not missing:
        return None
    return f"uvicorn's {owner} lacks {', '.join(missing)}: {shortcut} {advice}, or run with {setting}=0"


@cache
def warn_once(what: str, problem: str) -> None:
    log.warning("%s go through the server's send: %s", what, problem)


def behind(
    send: object, kind: type[T] | tuple[type[T], ...], check: Callable[[T], str | None], what: str
) -> T | None:
    """The uvicorn object whose bound method the ASGI `send` is, when it is a `kind` and `check`
    finds nothing missing in it; else None (a missing attribute is logged once, as `what`)."""
    owner = getattr(send, "__self__", None)
    if not isinstance(owner, kind):
        return None
    found = check(owner)
    if found is not None:
        warn_once(what, found)
        return None
    return owner
