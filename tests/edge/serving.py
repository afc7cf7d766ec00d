"""`served`: what `python -m app serve` hands uvicorn and Python, without serving anything and without
touching this process's collector or switch interval."""

from __future__ import annotations

import gc
import sys

import pytest
import uvicorn

from app.__main__ import serve
from app.settings import Settings


def served(
    monkeypatch: pytest.MonkeyPatch, *settings: Settings
) -> tuple[list[dict[str, object]], list[float]]:
    """`serve` each of `settings`: the options it gave `uvicorn.run` for each, and the switch
    intervals it set (seconds)."""
    options: list[dict[str, object]] = []
    intervals: list[float] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **given: options.append(given))
    monkeypatch.setattr(sys, "setswitchinterval", intervals.append)
    monkeypatch.setattr(gc, "freeze", lambda: None)
    monkeypatch.setattr(gc, "set_threshold", lambda *thresholds: None)
    for each in settings:
        serve(each)
    return options, intervals
