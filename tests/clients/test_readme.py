"""The Python examples of the READMEs run: each `python` block that uses the client, against a real
server (its URL in place of the documented one)."""

from __future__ import annotations

import re

import pytest

from tests.clients.servers import ROOT, ServerProcess

pytestmark = pytest.mark.slow
DOCUMENTED = "http://127.0.0.1:8000"


def blocks(path: str) -> list[str]:
    text = (ROOT / path).read_text(encoding="utf-8")
    return [b for b in re.findall(r"```python\n(.*?)```", text, re.S) if "drago_client" in b]


@pytest.mark.parametrize(
    "path", ["README.md", "clients/python/README.md", "clients/python/src/drago_client/__init__.py"]
)
def test_the_examples_run(server: ServerProcess, path: str) -> None:
    found = blocks(path) if path.endswith(".md") else [_docstring_example(path)]
    assert found
    for block in found:
        exec(compile(block.replace(DOCUMENTED, server.url), path, "exec"), {"__name__": "example"})


def _docstring_example(path: str) -> str:
    """The indented example in a module docstring."""
    text = (ROOT / path).read_text(encoding="utf-8")
    lines = re.search(r'"""[^\n]*\n\n((?:    .*\n|\n)+)', text)
    assert lines is not None
    return "\n".join(line[4:] for line in lines.group(1).splitlines())
