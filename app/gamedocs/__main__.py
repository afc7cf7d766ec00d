"""`python -m app.gamedocs [DIR]`: write `docs/games/<game>.md` for every registered game (or into
DIR). Plays the capture scenarios through the app in-process; takes a few seconds."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from app.gamedocs.render import page
from app.gamedocs.scenarios import capture
from app.games.registry import GAMES

DOCS = Path(__file__).resolve().parents[2] / "docs" / "games"


async def pages() -> dict[str, str]:
    """Each registered game's page, by file name."""
    return {f"{name}.md": page(await capture(name)) for name in sorted(GAMES)}


def main(argv: list[str] | None = None) -> None:
    args = sys.argv[1:] if argv is None else argv
    directory = Path(args[0]) if args else DOCS
    directory.mkdir(parents=True, exist_ok=True)
    for name, text in asyncio.run(pages()).items():
        (directory / name).write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
