"""The package as a stranger gets it: `pip install ./clients/python` into a fresh virtual
environment installs the client and its small dependencies only (no server, no FastAPI, no
SQLAlchemy), and a script that uses it passes `mypy --strict` against that installed copy."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import textwrap
import venv
from pathlib import Path

import pytest

from tests.clients.servers import ROOT

pytestmark = pytest.mark.slow
SERVER_ONLY = {"fastapi", "starlette", "sqlalchemy", "pydantic", "alembic", "uvicorn", "asyncpg", "redis"}
PROBE = "import drago_client, json, sys; print(drago_client.__file__); print(json.dumps(list(sys.modules)))"
EXAMPLE = '''
    """A downstream bot author's script."""

    import asyncio
    from contextlib import aclosing

    from drago_client import AsyncClient, Client, NotYourTurn, Retry, VersionConflict, games, models
    from drago_client.games import common, yutaka


    def first_move(url: str) -> int:
        with Client(url, retry=Retry(attempts=3)) as api:
            match: models.CreatedMatch = api.create_match("yutaka", 2, options=yutaka.Options(mode="tactika"))
            seat = api.join_seat(match.id, 0, "Ada")
            view: games.View = api.get_view(match.id, token=seat.token)
            if isinstance(view, yutaka.View):
                hand: tuple[yutaka.Card, ...] = view.hand or ()
                print(len(hand), view.phase)
            try:
                action = view.legal_actions[0]
                reply = api.submit_action(match.id, action, expected_seq=view.seq, token=seat.token)
            except (NotYourTurn, VersionConflict) as e:
                print(e.code, e.status, e.details)
                return view.seq
            return reply.seq


    async def watch(url: str, match_id: str) -> list[int]:
        seqs: list[int] = []
        async with AsyncClient(url) as api, aclosing(api.follow(match_id, after=0)) as commits:
            async for commit in commits:
                seqs.append(commit.seq)
                for event in commit.events:
                    if isinstance(event.data, common.MatchEnded):
                        print(event.data.winners)
        return seqs


    if __name__ == "__main__":
        print(first_move("http://127.0.0.1:8000"), asyncio.run(watch("http://127.0.0.1:8000", "m")))
'''


def test_installed_alone_and_typed_for_a_downstream_mypy_strict(tmp_path: Path) -> None:
    source = tmp_path / "src"
    shutil.copytree(
        ROOT / "clients" / "python", source, ignore=shutil.ignore_patterns("build", "*.egg-info", "codegen")
    )
    env_dir = tmp_path / "env"
    venv.create(env_dir, with_pip=True)
    python = env_dir / "bin" / "python"
    subprocess.run([python, "-m", "pip", "install", "-q", str(source)], check=True, capture_output=True)
    listed = subprocess.run(
        [python, "-m", "pip", "list", "--format=freeze"], check=True, capture_output=True, text=True
    )
    installed = {line.split("==")[0].lower() for line in listed.stdout.split()}
    assert "drago-client" in installed and {"httpx", "websockets"} <= installed
    assert not installed & SERVER_ONLY, installed & SERVER_ONLY

    script = tmp_path / "bot_author.py"
    script.write_text(textwrap.dedent(EXAMPLE))
    check = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", "--config-file", "/dev/null",
         "--python-executable", str(python), str(script)],
        cwd=tmp_path, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert check.returncode == 0, check.stdout + check.stderr
    imported = subprocess.run(
        [python, "-c", PROBE],
        cwd=tmp_path, capture_output=True, text=True, check=True,
    )  # fmt: skip
    where, modules = imported.stdout.splitlines()
    assert where.startswith(str(env_dir))
    assert not {m.split(".")[0] for m in json.loads(modules)} & (SERVER_ONLY | {"app"})
