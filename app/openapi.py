"""`python -m app.openapi` writes `openapi/openapi.json` from the app (sorted keys, indent 2), and
`openapi/stream-frames.schema.json`, the JSON Schema of the WebSocket stream's frames.

Both files are checked artefacts: `tests/api/test_openapi.py` and `tests/stream/test_schema.py`
fail when they differ from the code, so regenerate them with this command after changing a route,
a model, a frame or a registered game. `python -m app.openapi OPENAPI [FRAMES]` writes elsewhere.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from app.api.frames import render_frames_schema
from app.main import create_app
from app.settings import Settings

DEFAULT_PATH = Path(__file__).resolve().parent.parent / "openapi" / "openapi.json"
FRAMES_PATH = DEFAULT_PATH.with_name("stream-frames.schema.json")


def generate() -> str:
    app = create_app(Settings(database_url="memory://", log_level="WARNING"))
    return json.dumps(app.openapi(), sort_keys=True, indent=2, ensure_ascii=False) + "\n"


def main(argv: list[str] | None = None) -> None:
    args = sys.argv[1:] if argv is None else argv
    path = Path(args[0]) if args else DEFAULT_PATH
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(generate(), encoding="utf-8")
    frames = Path(args[1]) if len(args) > 1 else FRAMES_PATH if not args else None
    if frames is not None:
        frames.parent.mkdir(parents=True, exist_ok=True)
        frames.write_text(render_frames_schema(), encoding="utf-8")


if __name__ == "__main__":
    main()
