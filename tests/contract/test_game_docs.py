"""`docs/games/*.md` are what `python -m app.gamedocs` writes now (so their examples cannot go
stale), every example in them fits the contract, and the docs link only inside the repository."""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path

import pytest

from app.gamedocs.__main__ import DOCS
from app.gamedocs.capture import Capture
from app.gamedocs.prose import GAMES as PROSE
from app.gamedocs.render import page
from app.gamedocs.scenarios import capture
from app.games.registry import GAMES
from tests.contract.checker import Contract

ROOT = Path(__file__).resolve().parents[2]
NAMES = sorted(GAMES)


@pytest.fixture(scope="module")
def captures() -> dict[str, Capture]:
    async def all_games() -> dict[str, Capture]:
        return {name: await capture(name) for name in NAMES}

    return asyncio.run(all_games())


@pytest.mark.parametrize("name", NAMES)
def test_the_committed_page_is_what_the_script_writes(captures: dict[str, Capture], name: str) -> None:
    committed = (DOCS / f"{name}.md").read_text(encoding="utf-8")
    assert committed == page(captures[name]), f"docs/games/{name}.md is stale: run `python -m app.gamedocs`"


@pytest.mark.parametrize("name", NAMES)
def test_every_example_fits_the_contract(captures: dict[str, Capture], name: str) -> None:
    taken = captures[name]
    contract = Contract({name: taken.schemas})
    for _, view in taken.views:
        contract.view(name, view)
    for action in taken.actions.values():
        contract.action(name, action)
    for reply in taken.replies:
        contract.response("submitAction", 200, reply, name)
    for seen in taken.events:
        for data in seen.forms.values():
            contract.event_data(name, data)
    for data in PROSE[name].constructed.values():
        contract.event_data(name, data)
    every = set(GAMES[name].event_types) | {"draft_step", "draft_changed", "draft_published", "match_ended"}
    seen_types = {k.removeprefix("event ") for k in contract.counts if k.startswith("event ")}
    assert every <= seen_types, every - seen_types


def _markdown() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


@pytest.mark.parametrize("path", _markdown(), ids=lambda p: str(p.relative_to(ROOT)))
def test_docs_link_only_inside_the_repository(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    assert "../shared" not in text
    for target in re.findall(r"\]\(([^)\s]+)\)", text):
        if target.startswith("#"):
            continue
        assert "://" not in target, f"{path.name} links outside the repository: {target}"
        file = (path.parent / target.split("#")[0]).resolve()
        assert file.is_relative_to(ROOT) and file.exists(), f"{path.name}: {target} does not exist"


@pytest.mark.parametrize("name", NAMES)
def test_the_pages_are_linked_and_their_json_parses(name: str) -> None:
    for index in ("README.md", "docs/api.md"):
        assert f"games/{name}.md" in (ROOT / index).read_text(encoding="utf-8"), index
    blocks = re.findall(r"```json\n(.*?)\n```", (DOCS / f"{name}.md").read_text(encoding="utf-8"), re.S)
    assert len(blocks) > 20
    for block in blocks:
        json.loads(block)
