"""The container, checked without a Docker engine: hadolint, then the Dockerfile's own steps.

`test_dockerfile_steps_start_a_ready_server` reads the Dockerfile, copies exactly what its COPY
lines copy into a scratch folder, installs it (non-editable, as the image does) into a fresh
virtual environment, and runs its CMD with its ENV (PORT and the database moved to a temporary
place) from a working directory outside the source, then waits for `/readyz`. A file the image
forgets to copy, a migration that is not packaged or a start command that does not serve fails it.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCKERFILE = ROOT / "Dockerfile"


def _instructions() -> list[tuple[str, str]]:
    text = DOCKERFILE.read_text().replace("\\\n", " ")
    out = []
    for line in text.splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            op, _, rest = line.partition(" ")
            out.append((op.upper(), rest.strip()))
    return out


def _build_stage_copies() -> list[str]:
    sources: list[str] = []
    for op, rest in _instructions():
        if op == "COPY" and not rest.startswith("--from"):
            sources.extend(shlex.split(rest)[:-1])
    return sources


def _env() -> dict[str, str]:
    env: dict[str, str] = {}
    for op, rest in _instructions():
        if op == "ENV":
            for item in shlex.split(rest):
                key, _, value = item.partition("=")
                env[key] = value
    return env


def _cmd() -> list[str]:
    cmds = [rest for op, rest in _instructions() if op == "CMD"]
    command: list[str] = json.loads(cmds[-1])
    return command


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def test_hadolint_passes() -> None:
    hadolint = shutil.which("hadolint") or str(Path(sys.executable).parent / "hadolint")
    result = subprocess.run([hadolint, str(DOCKERFILE)], capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stdout + result.stderr


def test_image_runs_as_non_root_and_starts_the_server() -> None:
    ops = _instructions()
    users = [rest for op, rest in ops if op == "USER"]
    assert users and not users[-1].startswith(("root", "0")), "the image must not run as root"
    assert _cmd()[:3] == ["python", "-m", "app"]
    assert "PORT" in _env()


@pytest.mark.slow
def test_dockerfile_steps_start_a_ready_server(tmp_path: Path) -> None:
    src = tmp_path / "src"
    src.mkdir()
    for item in _build_stage_copies():
        path = ROOT / item
        if path.is_dir():
            shutil.copytree(path, src / item, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(path, src / item)
    venv = tmp_path / "venv"
    constraints = ["-c", str(src / "constraints.txt")] if (src / "constraints.txt").exists() else []
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    subprocess.run(
        [str(venv / "bin" / "pip"), "install", "-q", "--disable-pip-version-check", *constraints, str(src)],
        check=True,
    )
    home = tmp_path / "home"
    home.mkdir()
    port = _free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DRAGO_", "DATABASE_URL"))}
    env.update(_env())
    env["PATH"] = f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}"
    env["PORT"] = str(port)
    env["DATABASE_URL"] = f"sqlite+aiosqlite:///{tmp_path / 'data.db'}"
    command = _cmd()
    command[0] = str(venv / "bin" / command[0])
    proc = subprocess.Popen(command, cwd=home, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        status = None
        for _ in range(300):
            if proc.poll() is not None:
                break
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/readyz", timeout=2) as r:
                    status = r.status
                    break
            except OSError:
                time.sleep(0.1)
        assert status == 200, proc.stdout.read().decode() if proc.stdout and proc.poll() is not None else ""
        assert (tmp_path / "data.db").exists(), "migrations did not create the database"
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
        if proc.stdout:
            proc.stdout.close()
