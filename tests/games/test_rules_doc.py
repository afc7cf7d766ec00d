"""docs/rules.md stays in step with the engines: every option, action and event of every game is
described, every section the code cites exists, and the document links nothing outside the
repository."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest

from app.games.mount_drago.options import Options as MountDragoOptions
from app.games.registry import GAMES
from app.games.yutaka.options import Options as YutakaOptions

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "rules.md").read_text()


@pytest.mark.parametrize("options", [MountDragoOptions, YutakaOptions])
def test_every_option_is_described(options: type) -> None:
    for field in dataclasses.fields(options):
        assert f"`{field.name}`" in DOC, field.name


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_action_and_event_is_described(name: str) -> None:
    for tag in [*GAMES[name].action_types, *GAMES[name].event_types]:
        assert f"`{tag}`" in DOC or f'"{tag}"' in DOC, tag


def test_every_section_the_code_cites_exists() -> None:
    headings = set(re.findall(r"^#+ (\d+(?:\.\d+)*)\b", DOC, re.MULTILINE))
    cited = set()
    for path in [*ROOT.joinpath("app", "games").rglob("*.py"), *ROOT.joinpath("tests").rglob("*.py")]:
        for ref in re.findall(r"docs/rules\.md §(\d+(?:\.\d+)*)", path.read_text()):
            cited.add(ref)
    assert cited and cited <= headings, sorted(cited - headings)


def test_links_stay_inside_the_repository() -> None:
    assert "](http" not in DOC and "../" not in DOC and "shared/" not in DOC
