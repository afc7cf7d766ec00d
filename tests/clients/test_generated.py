"""The generated client is current: regenerating it from the server's schemas changes nothing; and
it covers every HTTP route of `openapi/openapi.json`."""

from __future__ import annotations

import inspect
import json
import re
import subprocess
import sys

import pytest
from drago_client import AsyncClient, Client

from tests.clients.servers import ROOT

pytestmark = pytest.mark.slow


def test_the_generated_modules_are_current() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "codegen", "--check"],
        cwd=ROOT / "clients" / "python",
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_every_route_has_a_method_on_both_clients() -> None:
    openapi = json.loads((ROOT / "openapi" / "openapi.json").read_text())
    ids = [op["operationId"] for item in openapi["paths"].values() for op in item.values()]
    names = {re.sub(r"(?<=[a-z0-9])([A-Z])", r"_\1", i).lower() for i in ids}
    for cls in (AsyncClient, Client):
        missing = [n for n in sorted(names) if not callable(getattr(cls, n, None))]
        assert not missing, f"{cls.__name__} lacks {missing}"
    assert all(inspect.iscoroutinefunction(getattr(AsyncClient, n)) for n in names)
