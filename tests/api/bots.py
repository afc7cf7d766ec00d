"""Which chooser the tests' server bots use, and a launcher for real server processes with it.

The server's bot levels live in `app.bots`; until that package exists, its chooser cannot import
them, and the tests give the runner `app.service.bots.random_chooser` (a uniformly random legal
move) instead. Either way the bots run in the server's `BotRunner`, outside every request. The
tests create bots at the `random` level, so both choosers make the same kind of move.

`python -m tests.api.bots [serve]` is `python -m app` with that chooser, and `tests.api.bots:create`
the app factory for `uvicorn --factory` (for subprocess tests).
"""

from __future__ import annotations

import importlib.util
import sys

from fastapi import FastAPI

from app.service import bots
from app.service.bots import Chooser

LEVELS_AVAILABLE = importlib.util.find_spec("app.bots") is not None


def chooser() -> Chooser:
    return bots.level_chooser if LEVELS_AVAILABLE else bots.random_chooser


def _install() -> None:
    import app.main

    # `app.main` builds each process's BotRunner with this name; replacing it before the app starts
    # is the only seam a real server process offers (a no-op once `app.bots` exists).
    app.main.__dict__["level_chooser"] = chooser()


def create() -> FastAPI:
    from app.main import create_app

    _install()
    return create_app()


def main() -> int:
    from app.__main__ import main as serve

    _install()
    return serve(sys.argv[1:])


if __name__ == "__main__":
    sys.exit(main())
