"""HTTP API benchmark: complete 2-player games through the real server, against the reference.

    python -m bench.api [--stores sqlite,pg,memory] [--via http,ws] [--actions N] [--rounds 3] [--pg-url URL]
                        [--no-reference] [--keys]

For each store it starts the real server (`python -m app`, uvicorn, one worker, pinned to core 0) on
a fresh SQLite file or a fresh PostgreSQL database (or, with `memory`, on the in-memory store:
nothing persists, and the reference runs in memory too, so the ratio is that of the servers' work
without their stores) and drives Mount Drago 2-player matches from this process (pinned to core 1)
with 1 and 16 matches in parallel. Each action waits for its reply before the next: the seat to act
sends a random legal action taken from its latest view; when the turn passes to the other seat, that
seat acts on the view its WebSocket stream pushed (`views=1`, as the reference pushes each player
its view; `--mode http` reads `GET .../view` instead). A finished match is replaced by a new one, on
the same keep-alive connections (as a bot's HTTP client keeps its pool). Each run plays as many
actions as the peers' load clients play moves (`PEER_MOVES`: 3,000 with 1 match, 9,600 with 16), so
that every figure spans a window about as long as the one it is compared with (`--actions` sets one
count for both). It prints actions/s, the p50/p99 latency of `POST .../actions` and how busy the
server's core and the client's were (a server near 100% is CPU-bound), then what turning a match
over costs the server (create, two joins, both streams opened and closed: CPU per match
set up, and its share of the 16-match run's CPU per action — the reference plays one endless match
and pays none of it), then runs `../shared/bench-reference/reference.sh` for the same store in the
same session, and boardgame.io (`../shared/bench-reference/bgio/run.sh`, in memory), and prints the
ratios (ours / reference, ours / boardgame.io), with the ratio of the servers' CPU per action over
the same window (utime+stime from /proc, as the peers' load clients read it: steadier than
throughput on a machine that drifts). All of it runs `--rounds` times (3), and the last lines are
the median of the rounds' ratios: this shared machine's speed drifts between runs a minute apart,
and each ratio compares runs of the same round.

`--via ws` sends each action as an `action` frame on the acting seat's match stream instead of
`POST .../actions` (as boardgame.io's moves travel over its socket), timed until both its `ack`
and the commit frame with the seat's new view have arrived; the opponent still acts on its pushed
view. `--via http,ws` runs both, one after the other on the same server in each round, and prints
the ratios of each (`sqlite` for HTTP, `sqlite/ws` for the socket) to the same yardsticks' runs.

`--keys` sends each action with an idempotency key of its own (the `Idempotency-Key` header, or
the `action` frame's `idempotency_key`), as the SDKs do with every action: the server then keeps
the key with the commit.

The client is a minimal keep-alive HTTP/1.1 client on asyncio streams, so that the load generator
costs little next to the server.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

from bench.proc import cpu_seconds

ROOT = Path(__file__).resolve().parents[1]
REFERENCE = ROOT.parent / "shared" / "bench-reference" / "reference.sh"
BGIO = ROOT.parent / "shared" / "bench-reference" / "bgio" / "run.sh"
DEFAULT_PG = "postgresql+asyncpg://postgres@127.0.0.1:5432/test"
# What `reference.sh` and boardgame.io's `run.sh` play: 3,000 moves with 1 match, 9,600/16 per match
# with 16 (their `moves`). The speed of this shared machine swings within seconds: a run of ours
# as long as the peer's sees the same mix of fast and slow seconds.
PEER_MOVES = {1: 3000, 16: 9600}


class Http:
    """One keep-alive HTTP/1.1 connection speaking JSON."""

    def __init__(self, port: int, token: str | None = None) -> None:
        self.port = port
        self.token = token  # sent as a bearer token; a seat's connection takes each new match's
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def request(
        self, method: str, path: str, body: Any = None, key: str | None = None
    ) -> tuple[int, Any]:
        """`key`: sent as the `Idempotency-Key` header."""
        data = b"" if body is None else orjson.dumps(body)
        auth = f"Authorization: Bearer {self.token}\r\n" if self.token else ""
        keyed = f"Idempotency-Key: {key}\r\n" if key is not None else ""
        head = (
            f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n{auth}{keyed}"
            f"Content-Type: application/json\r\nContent-Length: {len(data)}\r\n\r\n"
        )
        request = head.encode() + data
        for _ in range(2):  # a connection idle past the server's keep-alive timeout is closed: open anew
            if self.reader is None or self.writer is None:
                self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
            reader = self.reader
            self.writer.write(request)
            try:
                status_line = await reader.readline()
            except ConnectionResetError:
                status_line = b""
            if status_line:
                break
            await self.close()
        status = int(status_line.split()[1])
        length = 0
        while (line := await reader.readline()) not in (b"\r\n", b""):
            name, _, value = line.partition(b":")
            if name.lower() == b"content-length":
                length = int(value)
        payload = await reader.readexactly(length)
        return status, orjson.loads(payload) if payload else None

    async def close(self) -> None:
        writer, self.writer, self.reader = self.writer, None, None
        if writer is not None:
            writer.close()
            with contextlib.suppress(OSError):  # the server closed it first
                await writer.wait_closed()


class Client:
    """One load slot's keep-alive connections, kept from one match to the next as a bot's HTTP
    client keeps its pool: the lobby's (create, join) and each seat's (bearer: the seat's token)."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.lobby = Http(port)
        self.seats = [Http(port), Http(port)]

    async def new_match(self) -> str:
        """Create a 2-player match and take both seats; the match id."""
        status, match = await self.lobby.request("POST", "/v1/matches", {"game": "mount_drago", "players": 2})
        assert status == 201, match
        for seat, conn in enumerate(self.seats):
            status, joined = await self.lobby.request(
                "POST", f"/v1/matches/{match['id']}/seats/{seat}", {"name": f"p{seat}"}
            )
            assert status in (200, 201), joined
            conn.token = joined["token"]
        match_id: str = match["id"]
        return match_id

    async def views(self, match_id: str) -> list[dict[str, Any]]:
        """Each seat's view, read with `GET .../view`."""
        return [(await s.request("GET", f"/v1/matches/{match_id}/view"))[1] for s in self.seats]

    @contextlib.asynccontextmanager
    async def watching(self, match_id: str, streams: bool = True) -> AsyncIterator[list[Stream]]:
        """Each seat's stream of the match, open while inside (none without `streams`)."""
        opened: list[Stream] = []
        try:
            for seat in self.seats if streams else []:
                stream = Stream(self.port, match_id, str(seat.token))
                await stream.open()
                opened.append(stream)
            yield opened
        finally:
            for stream in opened:
                await stream.close()

    async def close(self) -> None:
        for conn in (self.lobby, *self.seats):
            await conn.close()


class Stream:
    """A seat's live stream with `views=1`: keeps the latest view the server pushed (in `hello` and
    in each `commit` frame)."""

    def __init__(self, port: int, match_id: str, token: str) -> None:
        self.url = f"ws://127.0.0.1:{port}/v1/matches/{match_id}/stream?views=1&token={token}"
        self.view: dict[str, Any] = {}
        self.changed = asyncio.Event()
        self.task: asyncio.Task[None] | None = None
        self.answers: dict[int, asyncio.Future[dict[str, Any]]] = {}  # `ack` or `error`, by action id
        self.sent = 0

    async def open(self) -> None:
        await self.open_raw()
        await self.until(0)

    async def open_raw(self) -> None:
        """Connect and start reading, without waiting for a view (a stream without `views=1`)."""
        import websockets

        self.ws = await websockets.connect(self.url, compression=None, max_size=None)
        self.task = asyncio.create_task(self._read())

    async def _read(self) -> None:
        async for raw in self.ws:
            frame = orjson.loads(raw)
            kind = frame["type"]
            if frame.get("view") is not None and kind in ("hello", "commit"):
                self.view = frame["view"]
                self.changed.set()
            elif kind in ("ack", "error") and frame.get("id") in self.answers:
                self.answers.pop(frame["id"]).set_result(frame)

    async def act(self, action: Any, key: str | None = None) -> tuple[int, dict[str, Any]]:
        """Send `action` as an `action` frame (with `key` as its `idempotency_key`); once both its
        `ack` and the commit frame with the view at the ack's seq have arrived (in either order),
        the new seq and that view."""
        self.sent += 1
        answer = asyncio.get_running_loop().create_future()
        self.answers[self.sent] = answer
        frame: dict[str, Any] = {"type": "action", "id": self.sent, "action": action}
        if key is not None:
            frame["idempotency_key"] = key
        await self.ws.send(orjson.dumps(frame).decode())
        frame = await asyncio.wait_for(answer, 10)
        assert frame["type"] == "ack", frame
        seq: int = frame["seq"]
        return seq, await self.until(seq)

    async def until(self, seq: int) -> dict[str, Any]:
        while not self.view or self.view["seq"] < seq:
            self.changed.clear()
            await asyncio.wait_for(self.changed.wait(), 10)
        return self.view

    async def close(self) -> None:
        await self.ws.close()
        if self.task is not None:
            await self.task


async def drive(
    port: int,
    actions: int,
    latencies: list[float],
    rng: random.Random,
    streams: bool = True,
    via: str = "http",
    keys: bool = False,
) -> tuple[int, int]:
    """Play matches one after another until `actions` actions are done; return the count and the
    number of matches begun.

    With `streams`, each seat follows the match on a WebSocket (`views=1`) and the seat whose
    turn it becomes acts on its pushed view; without, it reads its view with `GET .../view`.
    `via`: `http` posts each action (`POST .../actions`, timed until its reply); `ws` sends it as
    an `action` frame on the acting seat's stream (timed until its `ack` and its commit frame with
    the new view have both arrived; needs `streams`). `keys`: each action carries an idempotency key
    of its own (a made-up one, as the SDKs send with every action).
    """
    if via == "ws" and not streams:
        raise ValueError("actions over the socket need the seats' streams")
    done = begun = 0
    client = Client(port)
    try:
        while done < actions:
            done = await _play(client, done, actions, latencies, rng, streams, via, keys)
            begun += 1
    finally:
        await client.close()
    return done, begun


async def _play(
    client: Client,
    done: int,
    actions: int,
    latencies: list[float],
    rng: random.Random,
    streams: bool,
    via: str,
    keys: bool = False,
) -> int:
    """One match, until it ends or `actions` are done in all; the new count."""
    match_id = await client.new_match()
    seats = client.seats
    async with client.watching(match_id, streams) as live:
        # Each seat's first view: from its stream's `hello`, else read.
        views = [stream.view for stream in live] if streams else await client.views(match_id)
        while done < actions:
            view = views[0] if views[0]["to_act"] else views[1]
            if view["status"] != "active" or not view["to_act"]:
                break
            seat = view["to_act"][0]
            action = rng.choice(views[seat]["legal_actions"])
            key = uuid.UUID(int=rng.getrandbits(128)).hex if keys else None
            t0 = time.perf_counter()
            if via == "ws":
                seq, view = await live[seat].act(action, key)
            else:
                status, reply = await seats[seat].request(
                    "POST", f"/v1/matches/{match_id}/actions", {"action": action}, key
                )
                assert status == 200, reply
                seq, view = reply["seq"], reply["view"]
            latencies.append(time.perf_counter() - t0)
            done += 1
            views[seat] = view
            other = 1 - seat
            if view["status"] == "active" and other in view["to_act"]:
                if streams:
                    views[other] = await live[other].until(seq)
                else:
                    views[other] = (await seats[other].request("GET", f"/v1/matches/{match_id}/view"))[1]
            elif view["status"] != "active":
                break
    return done


async def run_load(
    port: int, matches: int, actions: int, streams: bool, pid: int, via: str = "http", keys: bool = False
) -> dict[str, float]:
    per_match = max(actions // matches, 1)
    warm: list[float] = []
    await asyncio.gather(
        *(drive(port, 30, warm, random.Random(i), streams, via, keys) for i in range(matches))
    )
    latencies: list[float] = []
    cpu0, me0 = cpu_seconds(pid), time.process_time()
    t0 = time.perf_counter()
    runs = await asyncio.gather(
        *(
            drive(port, per_match, latencies, random.Random(1000 + i), streams, via, keys)
            for i in range(matches)
        )
    )
    seconds = time.perf_counter() - t0
    cpu, me = cpu_seconds(pid) - cpu0, time.process_time() - me0
    latencies.sort()
    actions = sum(done for done, _ in runs)
    return {
        "cpu_us": cpu / actions * 1e6,
        "server_cpu_pct": 100 * cpu / seconds,
        "client_cpu_pct": 100 * me / seconds,
        "matches_begun": sum(begun for _, begun in runs),
        "actions": actions,
        "actions_per_s": actions / seconds,
        "p50_ms": statistics.median(latencies) * 1e3,
        "p99_ms": latencies[min(len(latencies) - 1, int(0.99 * len(latencies)))] * 1e3,
    }


async def setup_cost(port: int, pid: int, per_slot: int = 8, slots: int = 16) -> float:
    """Server CPU (ms) per match set up and left as `drive` does between games, `slots` at once:
    create, two joins, both seats' streams opened (`hello` with the view) and closed."""
    clients = [Client(port) for _ in range(slots)]

    async def slot(client: Client, n: int) -> None:
        for _ in range(n):
            match_id = await client.new_match()
            async with client.watching(match_id):
                pass

    try:
        await asyncio.gather(*(slot(c, 1) for c in clients))  # warm-up
        cpu0 = cpu_seconds(pid)
        await asyncio.gather(*(slot(c, per_slot) for c in clients))
        return (cpu_seconds(pid) - cpu0) / (slots * per_slot) * 1e3
    finally:
        for c in clients:
            await c.close()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def wait_ready(port: int, proc: subprocess.Popen[bytes]) -> None:
    import urllib.request

    for _ in range(300):
        if proc.poll() is not None:
            raise RuntimeError("server exited during start")
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/readyz", timeout=2):
                return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError("server did not become ready")


def pg_database(admin_url: str, create: bool, name: str) -> str:
    import asyncpg
    from sqlalchemy.engine import make_url

    u = make_url(admin_url)

    async def run() -> None:
        conn = await asyncpg.connect(
            host=u.host, port=u.port or 5432, user=u.username or "postgres", database=u.database
        )
        try:
            sql = f'CREATE DATABASE "{name}"' if create else f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'
            await conn.execute(sql)
        finally:
            await conn.close()

    asyncio.run(run())
    return u.set(drivername="postgresql+asyncpg", database=name).render_as_string(hide_password=False)


@dataclass
class OurServer:
    """Our server as deployed (`python -m app`, pinned to core 0, rate limits off) on a fresh
    database of its own; `start` waits until it is ready, `stop` drops what it made."""

    port: int
    proc: subprocess.Popen[bytes]
    workdir: tempfile.TemporaryDirectory[str]
    pg_url: str
    database: str | None  # the PostgreSQL database made for it (SQLite: a file in `workdir`)

    @classmethod
    def start(
        cls, store: str, pg_url: str, tree: Path | None = None, settings: dict[str, str] | None = None
    ) -> OurServer:
        """`tree`: the checkout to run instead of the installed one; `settings`: `DRAGO_*`
        variables over the benchmark's own (rate limits off)."""
        workdir = tempfile.TemporaryDirectory()
        database = None
        if store == "memory":  # nothing persists: what the server costs without its store's work
            url = "memory://"
        elif store == "sqlite":
            url = f"sqlite+aiosqlite:///{workdir.name}/bench.db"
        else:
            database = f"drago_bench_{uuid.uuid4().hex[:8]}"
            url = pg_database(pg_url, True, database)
        port = free_port()
        env = dict(
            os.environ,
            DRAGO_DATABASE_URL=url,
            PORT=str(port),
            DRAGO_LOG_LEVEL="WARNING",
            DRAGO_RATE_LIMIT_ENABLED="0",
        )
        env.update(settings or {})
        env.pop("DATABASE_URL", None)
        if tree is not None:
            env["PYTHONPATH"] = str(tree)
        cmd = ["taskset", "-c", "0", sys.executable, "-m", "app"]
        server = cls(port, subprocess.Popen(cmd, env=env, cwd=workdir.name), workdir, pg_url, database)
        try:
            wait_ready(port, server.proc)
        except BaseException:
            server.stop()
            raise
        return server

    def stop(self) -> None:
        self.proc.terminate()
        self.proc.wait(timeout=20)
        if self.database is not None:
            pg_database(self.pg_url, False, self.database)
        self.workdir.cleanup()


def bench_store(store: str, args: argparse.Namespace) -> dict[str, dict[int, dict[str, float]]]:
    """Our server on `store`: for 1 then 16 matches, a run per transport of `args.via` (one after
    the other, on the same server); each transport's figures by match count."""
    server = OurServer.start(store, args.pg_url)
    port, proc = server.port, server.proc
    results: dict[str, dict[int, dict[str, float]]] = {via: {} for via in args.via}
    try:
        for matches in (1, 16):
            for via in args.via:
                actions = args.actions or PEER_MOVES[matches]
                r = asyncio.run(run_load(port, matches, actions, args.mode == "ws", proc.pid, via, args.keys))
                results[via][matches] = r
                print(
                    f"ours({args.mode}, actions via {via:<4}) {store:<6} {matches:>2} matches: "
                    f"{r['actions_per_s']:7.0f} actions/s  p50 {r['p50_ms']:6.2f} ms  "
                    f"p99 {r['p99_ms']:6.2f} ms  ({r['actions']:.0f} actions, server CPU "
                    f"{r['cpu_us']:.0f} µs each; CPU busy: server {r['server_cpu_pct']:.0f}%, "
                    f"client {r['client_cpu_pct']:.0f}%)",
                    flush=True,
                )
        if args.mode == "ws":  # what turning matches over costs; the reference plays one long match
            r = results[args.via[0]][16]
            ms = asyncio.run(setup_cost(port, proc.pid))
            per_action = ms * 1e3 * r["matches_begun"] / r["actions"]
            print(
                f"ours(ws) {store:<6} match turnover: {ms:.2f} ms server CPU per match set up (create, "
                f"2 joins, 2 streams); {r['matches_begun']:.0f} matches begun in the 16-match "
                f"run = {per_action:.0f} µs per action, {100 * per_action / r['cpu_us']:.0f}% of its "
                f"server CPU per action",
                flush=True,
            )
    finally:
        server.stop()
    return results


def reference(store: str, args: argparse.Namespace) -> dict[int, dict[str, float]]:
    cmd = ["bash", str(REFERENCE), store] + ([args.pg_url] if store == "pg" else [])
    # reference.sh may exit 143 when its trap stops the server; its figures are printed before.
    out = subprocess.run(
        cmd, capture_output=True, text=True, check=False, env=dict(os.environ, PORT=str(free_port()))
    )
    results: dict[int, dict[str, float]] = {}
    for line in out.stdout.splitlines():
        m = re.search(r"(\{.*\})", line)
        if m:
            data = json.loads(m.group(1))
            results[int(data["matches"])] = _peer_figures(data)
            print(f"reference {store:<6} {line.strip()}", flush=True)
    return results


def _peer_figures(data: dict[str, Any]) -> dict[str, float]:
    """A yardstick's figures as ours: the load clients print the server's CPU as a share of the run."""
    figures = {
        "actions_per_s": data["moves_per_s"],
        "p50_ms": data["p50_us"] / 1e3,
        "p99_ms": data["p99_us"] / 1e3,
    }
    if data.get("server_cpu_pct") is not None and data.get("moves"):
        figures["cpu_us"] = data["server_cpu_pct"] / 100 * data["seconds"] / data["moves"] * 1e6
    return figures


def bgio() -> dict[int, dict[str, float]]:
    """boardgame.io 0.50.2, in memory (not durable), the same load shape (its own `run.sh`)."""
    out = subprocess.run(["bash", str(BGIO), "1", "16"], capture_output=True, text=True, check=False)
    results: dict[int, dict[str, float]] = {}
    for line in out.stdout.splitlines():
        m = re.match(r"bgio,\s*(\d+) matches: (\{.*\})", line.strip())
        if m:
            data = json.loads(m.group(2))
            results[int(m.group(1))] = _peer_figures(data)
            print(f"bgio      (memory) {line.strip()}", flush=True)
    if not results:
        print(f"bgio: no figures ({out.stderr.strip()[-300:]})", flush=True)
    return results


Ratios = dict[tuple[str, str, int], list[tuple[float, float, float | None]]]
"""(peer, store, matches) → each round's (actions/s ratio, p50 ratio, server CPU per action ratio)."""


def ratios(
    name: str,
    store: str,
    ours: dict[int, dict[str, float]],
    other: dict[int, dict[str, float]],
    table: Ratios,
) -> None:
    for matches in (1, 16):
        if matches in other and matches in ours:
            o, r = ours[matches], other[matches]
            rate, p50 = o["actions_per_s"] / r["actions_per_s"], o["p50_ms"] / r["p50_ms"]
            cpu = o["cpu_us"] / r["cpu_us"] if "cpu_us" in r else None
            table.setdefault((name, store, matches), []).append((rate, p50, cpu))
            print(
                f"ratio to {name:<9} {store:<9} {matches:>2} matches: actions/s {rate:.2f}x"
                f"  p50 {p50:.2f}x  p99 {o['p99_ms'] / r['p99_ms']:.2f}x  server CPU/action {_x(cpu)}",
                flush=True,
            )


def _x(ratio: float | None) -> str:
    return "n/a" if ratio is None else f"{ratio:.2f}x"


def summary(table: Ratios) -> None:
    """The median of the rounds' ratios: this shared machine drifts between runs a minute apart."""
    for (name, store, matches), rounds in table.items():
        rates, p50s, cpus = zip(*rounds, strict=True)
        known = [c for c in cpus if c is not None]
        cpu = _x(statistics.median(known) if known else None)
        each = ", ".join(f"{a:.2f}x/{b:.2f}x/{_x(c)}" for a, b, c in rounds)
        print(
            f"median of {len(rounds)} rounds, to {name:<9} {store:<9} {matches:>2} matches:"
            f" actions/s {statistics.median(rates):.2f}x  p50 {statistics.median(p50s):.2f}x"
            f"  server CPU/action {cpu}  (each round, actions/s / p50 / CPU: {each})",
            flush=True,
        )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--stores",
        default="sqlite,pg",
        help="of sqlite, pg and memory (nothing persists, the reference's as ours: what the servers "
        "cost without their stores)",
    )
    parser.add_argument(
        "--actions", type=int, default=None, help="measured actions per run (default: the peers' moves)"
    )
    parser.add_argument("--pg-url", default=os.environ.get("TEST_DATABASE_URL", DEFAULT_PG))
    parser.add_argument("--no-reference", action="store_true")
    parser.add_argument(
        "--keys", action="store_true", help="each action carries an idempotency key, as the SDKs send"
    )
    parser.add_argument("--rounds", type=int, default=3, help="rounds of every run; ratios are their median")
    parser.add_argument(
        "--mode",
        choices=["ws", "http"],
        default="ws",
        help="ws: the next seat learns its turn from its stream's pushed view (like the reference); "
        "http: it reads GET .../view",
    )
    parser.add_argument(
        "--via",
        default="http",
        help="how actions travel, one run each in every round: http (POST .../actions), ws (an "
        "`action` frame on the acting seat's match stream, timed until its ack and new view), or both "
        "(http,ws)",
    )
    args = parser.parse_args()
    args.via = args.via.split(",")
    if any(via not in ("http", "ws") for via in args.via):
        parser.error("--via takes http, ws or http,ws")
    if "ws" in args.via and args.mode != "ws":
        parser.error("--via ws needs the seats' streams (--mode ws)")
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {1})
    table: Ratios = {}
    for round_ in range(args.rounds):  # each round: the peer, then per store ours and the reference
        if args.rounds > 1:
            print(f"-- round {round_ + 1} of {args.rounds}", flush=True)
        peer = {} if args.no_reference or not BGIO.exists() else bgio()
        for store in args.stores.split(","):
            ours = bench_store(store, args)
            if args.no_reference or not REFERENCE.exists():
                continue
            yardstick = reference(store, args)
            for via, figures in ours.items():
                label = store if via == "http" else f"{store}/{via}"
                ratios("reference", label, figures, yardstick, table)
                ratios("bgio", label, figures, peer, table)
    summary(table)


if __name__ == "__main__":
    main()
