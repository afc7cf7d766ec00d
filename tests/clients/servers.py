"""A real server process for the client tests, which can be stopped and started again on the same
port and database (a restart, as a deployment does it).

`ServerProcess.start()` runs `python -m app` (the container's command) on a fixed loopback port and
waits for `/readyz`; `stop()` sends SIGTERM (streams close with 1001) and waits for the exit.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[2]
GUARD = 60.0  # seconds: a hang guard, never an expectation of speed


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class ServerProcess:
    """`python -m app` on `database_url`, restartable; `url` stays the same across restarts."""

    def __init__(self, log_dir: Path, database_url: str, **settings: str) -> None:
        self.port = free_port()
        self.log = log_dir / f"server-{self.port}.log"
        self.env = {k: v for k, v in os.environ.items() if not k.startswith("DRAGO_") and k != "DATABASE_URL"}
        self.env.update(
            DRAGO_DATABASE_URL=database_url,
            DRAGO_HOST="127.0.0.1",
            DRAGO_PORT=str(self.port),
            DRAGO_LOG_LEVEL="WARNING",
            DRAGO_DEV_FEATURES="1",
            DRAGO_RATE_LIMIT_ENABLED="0",  # the tests play at machine speed from one address
            **settings,
        )
        self.proc: subprocess.Popen[bytes] | None = None
        self.starts = 0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def output(self) -> str:
        return self.log.read_text(errors="replace")[-4000:] if self.log.exists() else ""

    def start(self) -> None:
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "app"], env=self.env, stdout=out, stderr=subprocess.STDOUT, cwd=ROOT
            )
        self.starts += 1
        try:
            self._wait_ready()
        except BaseException:
            self.stop(check=False)  # a server that never got ready is not left running
            raise

    def _wait_ready(self) -> None:
        assert self.proc is not None
        deadline = time.monotonic() + GUARD
        with httpx.Client(base_url=self.url) as http:
            while time.monotonic() < deadline:
                if self.proc.poll() is not None:
                    raise AssertionError(f"server exited with {self.proc.returncode}:\n{self.output()}")
                try:
                    if http.get("/readyz").status_code == 200:
                        return
                except httpx.TransportError:
                    pass
                time.sleep(0.05)
        raise AssertionError(f"server not ready:\n{self.output()}")

    def stop(self, *, check: bool = True) -> None:
        """SIGTERM, as a deployment stops a process, and wait for it to exit (`check`: raise if
        it needed a SIGKILL)."""
        proc, self.proc = self.proc, None
        if proc is None or proc.poll() is not None:
            return
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(GUARD)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(GUARD)
            if check:
                raise AssertionError(f"server did not stop on SIGTERM:\n{self.output()}") from None

    def restart(self) -> None:
        self.stop()
        self.start()
