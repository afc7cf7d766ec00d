"""The constraints file the image installs from resolves, and pins every package it installs.

`pip install --dry-run` resolves the project against `constraints.txt` without installing
anything (it reads package metadata from the configured index); the report it writes must list
only packages that the file pins, at the pinned versions.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CONSTRAINTS = ROOT / "constraints.txt"


def _canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def pins() -> dict[str, str]:
    found = {}
    for line in CONSTRAINTS.read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            name, sep, version = line.partition("==")
            assert sep, f"not pinned: {line}"
            found[_canonical(name)] = version
    return found


def test_the_dockerfile_installs_from_the_constraints() -> None:
    text = (ROOT / "Dockerfile").read_text()
    assert "COPY pyproject.toml README.md constraints.txt ./" in text
    assert "-c constraints.txt ." in text
    assert _canonical("fastapi") in pins() and _canonical("uvicorn") in pins()


@pytest.mark.slow
def test_the_constraints_resolve_and_pin_everything(tmp_path: Path) -> None:
    report = tmp_path / "report.json"
    result = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--dry-run", "--ignore-installed", "--quiet",
         "--disable-pip-version-check", "--report", str(report), "-c", str(CONSTRAINTS), str(ROOT)],
        capture_output=True, text=True, check=False, timeout=600,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr[-3000:]
    installed = {
        _canonical(item["metadata"]["name"]): item["metadata"]["version"]
        for item in json.loads(report.read_text())["install"]
    }
    installed.pop("drago-server")
    pinned = pins()
    assert {name: v for name, v in installed.items() if pinned.get(name) != v} == {}
