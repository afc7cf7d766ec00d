"""`python -m app.openapi` writes `openapi/openapi.json` from the app (sorted keys, indent 2).

The file is a checked artefact: `tests/api/test_openapi.py` fails when it differs from the app, so
regenerate it with this command after changing a route, a model or a registered game.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from app.main import create_app
from app.settings import Settings

DEFAULT_PATH = Path(__file__).resolve().parent.parent / "openapi" / "openapi.json"


def generate() -> str:
    app = create_app(Settings(database_url="memory://", log_level="WARNING"))
    return json.dumps(app.openapi(), sort_keys=True, indent=2, ensure_ascii=False) + "\n"


def main(argv: list[str] | None = None) -> None:
    args = sys.argv[1:] if argv is None else argv
    path = Path(args[0]) if args else DEFAULT_PATH
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(generate(), encoding="utf-8")


if __name__ == "__main__":
    main()
