"""PostgreSQL and Redis instances of a test's own, on spare loopback ports, that it may stop and
start again (the shared services of the machine are never touched), and HAProxy running the
committed `deploy/haproxy.cfg` in front of a test's servers.

`own_postgres(...)` runs Debian's `initdb` and `pg_ctl` (`/usr/lib/postgresql/<version>/bin`) on a
fresh data directory (as the `postgres` user when the test runs as root: PostgreSQL refuses root),
trust authentication, fsync off; `own_redis(...)` runs `redis-server` without persistence;
`OwnHaproxy` runs Debian's `haproxy` (`/usr/sbin`). Without the binaries the test skips, or fails
under `TEST_REQUIRE_SERVICES=1` (CI).
"""

from __future__ import annotations

import contextlib
import os
import pwd
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.stream.servers import free_port

GUARD = 60.0
PROXY_CONFIG = Path(__file__).resolve().parents[2] / "deploy" / "haproxy.cfg"


def _require(what: str) -> None:
    if os.environ.get("TEST_REQUIRE_SERVICES") == "1":
        pytest.fail(f"{what} is missing, but TEST_REQUIRE_SERVICES=1 requires it")
    pytest.skip(f"{what} is missing")


def _postgres_bin() -> Path:
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin/pg_ctl"))
    if not found:
        _require("PostgreSQL's server binaries (/usr/lib/postgresql/*/bin)")
    return found[-1].parent


@dataclass
class OwnPostgres:
    bin: Path
    data: Path
    port: int
    as_user: list[str] = field(default_factory=list)

    @property
    def url(self) -> str:
        return f"postgresql+asyncpg://postgres@127.0.0.1:{self.port}/postgres"

    def _run(self, *args: str) -> None:
        cmd = [*self.as_user, str(self.bin / args[0]), *args[1:]]
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=GUARD, check=False)
        if done.returncode != 0:
            raise AssertionError(f"{' '.join(cmd)} failed:\n{done.stdout}\n{done.stderr}")

    def start(self) -> None:
        options = (
            f"-p {self.port} -k {self.data} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200"
        )
        self._run(
            "pg_ctl",
            "start",
            "-w",
            "-t",
            "60",
            "-D",
            str(self.data),
            "-l",
            str(self.data / "log"),
            "-o",
            options,
        )

    def stop(self) -> None:
        self._run("pg_ctl", "stop", "-w", "-t", "60", "-m", "fast", "-D", str(self.data))


@contextlib.contextmanager
def own_postgres() -> Iterator[OwnPostgres]:
    pg_bin = _postgres_bin()
    root = Path(tempfile.mkdtemp(prefix="drago-pg-"))
    data = root / "data"
    as_user: list[str] = []
    if os.geteuid() == 0:
        user = pwd.getpwnam("postgres")
        os.chown(root, user.pw_uid, user.pw_gid)
        as_user = ["runuser", "-u", "postgres", "--"]
    instance = OwnPostgres(pg_bin, data, free_port(), as_user)
    try:
        instance._run("initdb", "-D", str(data), "-A", "trust", "-U", "postgres", "--no-sync", "-E", "UTF8")
        instance.start()
        yield instance
    finally:
        with contextlib.suppress(Exception):
            instance.stop()
        shutil.rmtree(root, ignore_errors=True)


@dataclass
class OwnRedis:
    port: int
    proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        server = shutil.which("redis-server")
        if server is None:
            _require("redis-server")
        assert server is not None
        cmd = [server, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]
        self.proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + GUARD
        while True:  # a hang guard while it starts listening; nothing measures it
            with contextlib.suppress(OSError), socket_to(self.port):
                return
            if time.monotonic() > deadline:
                raise AssertionError("redis-server did not start")
            time.sleep(0.02)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(GUARD)
        self.proc = None


@contextlib.contextmanager
def socket_to(port: int) -> Iterator[None]:
    import socket

    with socket.create_connection(("127.0.0.1", port), timeout=1.0):
        yield


@contextlib.contextmanager
def own_redis() -> Iterator[OwnRedis]:
    instance = OwnRedis(free_port())
    instance.start()
    try:
        yield instance
    finally:
        instance.stop()


def haproxy_binary() -> str:
    """Debian's `haproxy` (in /usr/sbin, which a user's PATH may lack)."""
    found = shutil.which("haproxy") or shutil.which("haproxy", path="/usr/sbin")
    if found is None:
        _require("haproxy (apt-get install -y haproxy)")
    assert found is not None
    return found


@dataclass
class OwnHaproxy:
    """HAProxy running the committed `deploy/haproxy.cfg` on `port`, in front of `servers` (loopback
    ports, as `DRAGO_SERVER_1`…), its output written to `log`."""

    servers: Sequence[int]
    log: Path
    port: int = field(default_factory=free_port)
    proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        env = {
            **os.environ,
            "DRAGO_PROXY_BIND": f"127.0.0.1:{self.port}",
            **{f"DRAGO_SERVER_{i + 1}": f"127.0.0.1:{p}" for i, p in enumerate(self.servers)},
        }
        with self.log.open("wb") as out:
            cmd = [haproxy_binary(), "-db", "-f", str(PROXY_CONFIG)]
            self.proc = subprocess.Popen(cmd, env=env, stdout=out, stderr=out)

    def stop(self) -> None:
        if self.proc is not None:
            if self.proc.poll() is None:
                self.proc.send_signal(signal.SIGTERM)
            self.proc.wait(GUARD)
        self.proc = None
