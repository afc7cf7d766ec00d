"""The rules are pure: `app.games` imports only the standard library and `app.games` itself."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

GAMES = Path(__file__).resolve().parents[1] / "app" / "games"


def _imports(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
    return names


def test_games_import_only_the_standard_library_and_themselves() -> None:
    modules = sorted(GAMES.rglob("*.py"))
    assert len(modules) > 10
    offending = {
        f"{path.relative_to(GAMES.parents[1])}: {name}"
        for path in modules
        for name in _imports(path)
        if name.split(".")[0] not in sys.stdlib_module_names
        and name != "app.games"
        and not name.startswith("app.games.")
    }
    assert not offending, sorted(offending)
