"""docs/training.md's Python examples run as written."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

DOC = Path(__file__).resolve().parents[2] / "docs" / "training.md"
BLOCKS = re.findall(r"```python\n(.*?)```", DOC.read_text(), re.DOTALL)


def test_the_guide_has_its_three_loops() -> None:
    assert len(BLOCKS) == 3


@pytest.mark.parametrize("block", BLOCKS, ids=["pettingzoo", "gymnasium", "openspiel"])
def test_a_guide_example_runs(block: str, capsys: pytest.CaptureFixture[str]) -> None:
    exec(compile(block, str(DOC), "exec"), {})
    assert capsys.readouterr().out.strip()  # each prints a result
