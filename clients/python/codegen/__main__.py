"""`python -m codegen [--url URL] [--check]` (run in `clients/python`): write the generated modules.

Reads the sources (`codegen.sources`), builds the modules (`codegen.schemas`, `codegen.api`),
renders them (`codegen.python`), formats them with ruff (the repository's settings) and writes
them under `src/drago_client/`. With `--check` it writes nothing and exits 1 if a file differs from
what it would write: the test that keeps the committed client current runs exactly that.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

from codegen.api import read_operations, render_api
from codegen.python import PACKAGE, render_module
from codegen.schemas import read_games, read_models
from codegen.sources import NAMES, REPO, Sources, load

SRC = Path(__file__).resolve().parents[1] / "src" / PACKAGE


def generate(sources: Sources) -> dict[Path, str]:
    """Every generated file and its text."""
    models = read_models(sources.openapi, sources.frames, sources.games)
    modules = [models, *read_games(sources.games, sources.openapi["components"]["schemas"]["ViewOut"])]
    files: dict[Path, str] = {}
    for module in modules:
        parts = module.name.split(".")
        is_package = any(m.name.startswith(module.name + ".") for m in modules)
        path = (
            SRC.joinpath(*parts, "__init__.py")
            if is_package
            else SRC.joinpath(*parts[:-1], parts[-1] + ".py")
        )
        files[path] = render_module(module, NAMES)
    files[SRC / "api.py"] = render_api(read_operations(sources.openapi, models), "openapi/openapi.json")
    return {path: _format(path, text) for path, text in files.items()}


def _format(path: Path, text: str) -> str:
    """The text as the repository's ruff would leave it (imports sorted, then formatted)."""
    name = str(path.relative_to(REPO))
    ruff = [sys.executable, "-m", "ruff"]
    for args in (["check", "--fix-only", "--select", "I,F401,UP", "--exit-zero"], ["format"]):
        done = subprocess.run(  # noqa: S603  (the interpreter running this, with fixed arguments)
            [*ruff, *args, "--stdin-filename", name, "-"],
            input=text,
            capture_output=True,
            text=True,
            cwd=REPO,
            check=True,
        )
        text = done.stdout
    return text


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m codegen", description=__doc__.split("\n")[0])
    parser.add_argument(
        "--url", help="a running server to read the game schemas from (default: the app in-process)"
    )
    parser.add_argument(
        "--check", action="store_true", help="write nothing; exit 1 if a generated file is stale"
    )
    args = parser.parse_args(argv)
    files = generate(load(args.url))
    stale = [p for p, text in files.items() if not p.exists() or p.read_text(encoding="utf-8") != text]
    if args.check:
        for path in stale:
            print(f"stale: {path.relative_to(REPO)} (regenerate: cd clients/python && python -m codegen)")
        return 1 if stale else 0
    for path in stale:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(files[path], encoding="utf-8")
        print(f"wrote {path.relative_to(REPO)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
