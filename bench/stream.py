"""Benchmark of the live streams, run by hand: fan-out latency, server CPU per delivered frame,
memory per idle connection, and how long a reconnect with `after` takes to catch up 500 events.

Servers are real uvicorn processes pinned to core 0 (`taskset -c 0`): ours started as it is
deployed (`python -m app`), the bare reference with `uvicorn --ws-per-message-deflate false`. This
client pins itself to core 1 and reads every socket with a minimal WebSocket client (an asyncio
Protocol that only finds each event frame's seq), so the figures are the server's.

- Latency of a frame: from just before the POST of the action that committed it until the LAST
  subscriber has that commit frame (p50/p99 over the frames). Subscribers mix the four seats of a
  Mount Drago match and spectators; each action is one commit, hence one frame, holding 1–4 events
  (~3.4 on average).
- POST ms: the action's own HTTP round trip (p50), included in the latency.
- CPU per frame: the streaming server's utime+stime (/proc/<pid>/stat) over the run divided by the
  commit frames it delivered; "net" subtracts the actions' own CPU, measured with no subscribers
  just before (each run of ours and of the bare fan-out has its own such run). With few
  subscribers the plain figure is mostly the actions' own work (ours: a commit, and the reads of
  the actor's next view; the bare one: nothing), so "net" is the fan-out's cost.
- A run is `--actions` actions (600): when a match ends first, another is set up (outside the
  measured window) and played on, so that the CPU of a run with 2 subscribers is not a fraction of
  a second read in 10 ms ticks.
- Same-session reference: a bare FastAPI fan-out (one pre-serialized text per viewer sent to every
  socket in a loop from the POST handler: no store, no redaction, no per-connection task), publishing
  one frame per action with as many events as each drago action of the same run committed, measured
  the same way right after that drago run. Each size runs `--rounds` times (3) and the summary
  quotes the median of the rounds' ratios: this shared machine drifts within a minute.
- Memory: the server's RSS growth per idle connection (1,000 of them). Catch-up: from connecting
  with `after` = head − 500 to holding the 500th event frame (an all-bot 5-seat match).

    python -m bench.stream                  # all of it (PostgreSQL and Redis from the env, see --help)
    python -m bench.stream --quick          # fewer actions, no 2-process runs
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import contextlib
import json
import math
import os
import random
import re
import resource
import signal
import socket
import statistics
import subprocess
import sys
import time
import uuid
from collections import defaultdict
from collections.abc import AsyncIterator, Iterable, Sequence
from pathlib import Path
from typing import Any

import asyncpg
import httpx
from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect

from bench.proc import cpu_seconds, rss_bytes

ROOT = Path(__file__).resolve().parent.parent
GUARD = 30.0  # seconds: a guard against hangs only
FRAME = re.compile(rb'\{"type":"commit","seq":(\d+),')
PLAYERS = 4
VIEWERS: tuple[int | None, ...] = (0, 1, 2, 3, None)
DRAGO = "app.main:create_app"  # our server; anything else is a uvicorn app path


# -- the bare reference: FastAPI, a set of sockets, a loop of send_text -----------------------------

bare_app = FastAPI()
_bare: dict[int | None, set[WebSocket]] = defaultdict(set)
_BARE_EVENT: dict[str, Any] = {
    "seq": 0,
    "type": "card_played",
    "data": {"type": "card_played", "seat": 0, "card": {"dragon": "red", "value": 3}, "from_space": 0},
    "recorded_at": "2026-01-01T12:00:00.000000Z",
}


@bare_app.post("/publish")
async def bare_publish(request: Request) -> dict[str, int]:
    body = await request.json()
    first, count = int(body["seq"]), int(body.get("count", 1))
    last = first + count - 1
    for viewer, sockets in list(_bare.items()):
        events = [
            {**_BARE_EVENT, "seq": seq, "commit": last, "data": {**_BARE_EVENT["data"], "seat": viewer}}
            for seq in range(first, last + 1)
        ]
        text = json.dumps({"type": "commit", "seq": last, "events": events}, separators=(",", ":"))
        for ws in list(sockets):
            try:
                await ws.send_text(text)
            except Exception:  # a subscriber went away
                sockets.discard(ws)
    return {"seq": last}


@bare_app.get("/healthz")
async def bare_health() -> dict[str, str]:
    return {"status": "ok"}


@bare_app.websocket("/ws/{viewer}")
async def bare_subscribe(ws: WebSocket, viewer: str) -> None:
    await ws.accept()
    key = None if viewer == "spectator" else int(viewer)
    _bare[key].add(ws)
    await ws.send_text('{"type":"hello"}')
    try:
        while True:
            await ws.receive_text()
    except WebSocketDisconnect:
        pass
    finally:
        _bare[key].discard(ws)


# -- servers -----------------------------------------------------------------------------------------


class Server:
    def __init__(self, name: str, app: str, env: dict[str, str], log_dir: Path, root: Path = ROOT) -> None:
        """`root`: the checkout whose `app` runs (`python -m app` starts from it)."""
        self.name = name
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        base = {k: v for k, v in os.environ.items() if not k.startswith("DRAGO_") and k != "DATABASE_URL"}
        if app == DRAGO:  # as deployed: its own start-up (uvicorn settings, the collector's tuning)
            cmd = ["taskset", "-c", "0", sys.executable, "-m", "app"]
            env = {"DRAGO_HOST": "127.0.0.1", "DRAGO_PORT": str(self.port), **env}
        else:
            cmd = ["taskset", "-c", "0", sys.executable, "-m", "uvicorn", app, "--host", "127.0.0.1"]
            cmd += ["--port", str(self.port), "--ws-per-message-deflate", "false", "--no-access-log"]
            cmd += ["--log-level", "warning"]
        self.log = log_dir / f"{name}.log"
        with self.log.open("wb") as out:
            self.proc = subprocess.Popen(
                cmd,
                env={**base, "DRAGO_RATE_LIMIT_ENABLED": "0", **env},
                stdout=out,
                stderr=subprocess.STDOUT,
                cwd=root,
            )

    async def ready(self) -> None:
        async with httpx.AsyncClient(base_url=self.url) as client:
            for _ in range(600):
                if self.proc.poll() is not None:
                    raise RuntimeError(f"{self.name} exited:\n{self.log.read_text()[-3000:]}")
                with contextlib.suppress(httpx.TransportError):
                    if (await client.get("/healthz")).status_code == 200:
                        return
                await asyncio.sleep(0.05)
        raise RuntimeError(f"{self.name} did not start")

    def cpu_seconds(self) -> float:
        return cpu_seconds(self.proc.pid)

    def rss_bytes(self) -> int:
        return rss_bytes(self.proc.pid)

    async def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                await asyncio.to_thread(self.proc.wait, GUARD)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                await asyncio.to_thread(self.proc.wait, GUARD)


@contextlib.asynccontextmanager
async def serving(name: str, app: str, env: dict[str, str], log_dir: Path) -> AsyncIterator[Server]:
    server = Server(name, app, env, log_dir)
    try:
        await server.ready()
        yield server
    finally:
        await server.stop()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


# -- a minimal WebSocket client ----------------------------------------------------------------------


class Fanout:
    """Counts, per frame seq, how many subscribers have that commit frame and when the last one got it."""

    def __init__(self, subscribers: int) -> None:
        self.n = subscribers
        self.count: dict[int, int] = defaultdict(int)
        self.last: dict[int, float] = {}
        self.frames = 0
        self._waiters: dict[int, asyncio.Future[float]] = {}

    def event(self, seq: int, now: float) -> None:
        self.frames += 1
        count = self.count[seq] = self.count[seq] + 1
        self.last[seq] = now
        if count == self.n and seq in self._waiters:
            self._waiters.pop(seq).set_result(now)

    async def all_have(self, seq: int) -> float:
        if self.n == 0:
            return time.perf_counter()
        if self.count.get(seq, 0) >= self.n:
            return self.last[seq]
        future = self._waiters.setdefault(seq, asyncio.get_running_loop().create_future())
        return await asyncio.wait_for(future, GUARD)


class Sub(asyncio.Protocol):
    """One subscriber: handshake, then frames; commit frames go to `fanout`, the first frame is hello."""

    def __init__(self, host: str, path: str, fanout: Fanout | None) -> None:
        self.request = (
            f"GET {path} HTTP/1.1\r\nHost: {host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {base64.b64encode(os.urandom(16)).decode()}\r\n"
            "Sec-WebSocket-Version: 13\r\n\r\n"
        ).encode()
        self.fanout = fanout
        self.hello: asyncio.Future[bytes] = asyncio.get_running_loop().create_future()
        self.events: list[tuple[int, float]] = []  # (seq, time) when no fanout is given
        self.closed: int | None = None
        self.transport: asyncio.Transport | None = None
        self._buf = bytearray()
        self._open = False

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        transport.write(self.request)

    def data_received(self, data: bytes) -> None:
        now = time.perf_counter()
        buf = self._buf
        buf += data
        if not self._open:
            end = buf.find(b"\r\n\r\n")
            if end < 0:
                return
            if b" 101 " not in bytes(buf[: buf.find(b"\r\n")]):
                raise RuntimeError(bytes(buf[:200]).decode(errors="replace"))
            del buf[: end + 4]
            self._open = True
        i, n = 0, len(buf)
        while n - i >= 2:
            length, head = buf[i + 1] & 0x7F, 2
            if length == 126:
                if n - i < 4:
                    break
                length, head = int.from_bytes(buf[i + 2 : i + 4], "big"), 4
            elif length == 127:
                if n - i < 10:
                    break
                length, head = int.from_bytes(buf[i + 2 : i + 10], "big"), 10
            if n - i < head + length:
                break
            opcode = buf[i] & 0x0F
            payload = bytes(buf[i + head : i + head + length])
            i += head + length
            if opcode == 1:
                self._text(payload, now)
            elif opcode == 9:  # a protocol ping: pong with the same payload
                self._send(0xA, payload)
            elif opcode == 8:
                self.closed = int.from_bytes(payload[:2], "big") if len(payload) >= 2 else 1005
        del buf[:i]

    def _text(self, payload: bytes, now: float) -> None:
        match = FRAME.match(payload)
        if match is not None:
            seq = int(match.group(1))
            if self.fanout is not None:
                self.fanout.event(seq, now)
            else:
                self.events.append((seq, now))
        elif not self.hello.done():
            self.hello.set_result(payload)

    def _send(self, opcode: int, payload: bytes) -> None:
        # Client frames are masked; a zero key leaves the payload as it is (fine on loopback).
        assert len(payload) < 126 and self.transport is not None
        self.transport.write(bytes((0x80 | opcode, 0x80 | len(payload))) + b"\0\0\0\0" + payload)

    def close(self) -> None:
        if self.transport is not None:
            self.transport.close()


async def subscribe(port: int, paths: Sequence[str], fanout: Fanout | None) -> list[Sub]:
    """Open one subscriber per path (200 at a time) and wait for every hello."""
    loop = asyncio.get_running_loop()
    subs: list[Sub] = []
    for start in range(0, len(paths), 200):
        batch = []
        for path in paths[start : start + 200]:
            sub = Sub(f"127.0.0.1:{port}", path, fanout)
            await loop.create_connection(lambda sub=sub: sub, "127.0.0.1", port)  # type: ignore[misc]
            batch.append(sub)
        await asyncio.wait_for(asyncio.gather(*(s.hello for s in batch)), GUARD)
        subs.extend(batch)
    return subs


def close_all(subs: Sequence[Sub]) -> None:
    for sub in subs:
        sub.close()


# -- measurements ------------------------------------------------------------------------------------


def percentile(values: Sequence[float], p: float) -> float:
    """Nearest rank."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(p / 100 * len(ordered)) - 1))]


class Row:
    """One run: per commit frame, the latency (s) of its last subscriber; per action, the POST round
    trip (s); the frames delivered and the server's CPU (s)."""

    def __init__(
        self, setup: str, subs: int, lat: list[float], post: list[float], frames: int, cpu: float
    ) -> None:
        self.setup, self.subs, self.lat, self.post = setup, subs, lat, post
        self.frames, self.cpu = frames, cpu
        self.done: list[float] = []  # per action: until the last subscriber has its last frame
        self.counts: list[int] = []  # events committed by each measured action
        self.net: float | None = None  # CPU per frame net of the actions' own CPU (a 0-subscriber run)

    def per_frame(self) -> float:
        return self.cpu / self.frames if self.frames else float("nan")

    def net_of(self, idle: Row) -> None:
        if self.frames and idle.post:
            self.net = (self.cpu - idle.cpu / len(idle.post) * len(self.post)) / self.frames

    def show(self) -> str:
        ms = [percentile(v, p) * 1000 for v in (self.lat, self.done) for p in (50, 99)]
        post = percentile(self.post, 50) * 1000
        net = f"{self.net * 1e6:>7.1f}" if self.net is not None else f"{'':>7}"
        return (
            f"{self.setup:<32} {self.subs:>5} {len(self.post):>4} {self.frames:>7}"
            + "".join(f" {m:>7.2f}" for m in ms)
            + f" {post:>7.2f} {self.per_frame() * 1e6:>7.1f} {net}"
        )


HEADER = (
    f"{'':<32} {'':>5} {'':>4} {'':>7} {'each frame, ms':>15} {'each action, ms':>15}"
    f" {'':>7} {'CPU µs/frame':>15}\n"
    f"{'setup':<32} {'subs':>5} {'acts':>4} {'frames':>7} {'p50':>7} {'p99':>7} {'p50':>7} {'p99':>7}"
    f" {'POST':>7} {'all':>7} {'net':>7}"
)


LONG_TRACK = [
    {"kind": "start", "value": 0},
    *({"kind": "plain", "value": 1 + i % 5} for i in range(60)),
    *({"kind": "summit", "value": 5} for _ in range(4)),  # the four summit spaces
]
"""A custom Mount Drago track long enough for 500+ events (the regular one gives ~300)."""


async def create_match(
    client: httpx.AsyncClient, body: dict[str, Any], seats: Iterable[int]
) -> tuple[str, dict[int, str]]:
    """A match made of `body`, with `seats` joined (as `p<seat>`): its id and their tokens."""
    r = await client.post("/v1/matches", json=body)
    r.raise_for_status()
    match_id = r.json()["id"]
    tokens = {}
    for seat in seats:
        j = await client.post(f"/v1/matches/{match_id}/seats/{seat}", json={"name": f"p{seat}"})
        j.raise_for_status()
        tokens[seat] = j.json()["token"]
    return match_id, tokens


async def new_match(
    client: httpx.AsyncClient, players: int = PLAYERS, **body: Any
) -> tuple[str, dict[int, str]]:
    """A Mount Drago match on the long track, every seat not given to a bot joined."""
    body = {"game": "mount_drago", "players": players, "options": {"track": LONG_TRACK}, **body}
    bots = set(body.get("bots", ()))
    if bots:
        body["bots"] = [{"seat": s, "level": "random"} for s in sorted(bots)]
    return await create_match(client, body, [seat for seat in range(players) if seat not in bots])


def stream_paths(match_id: str, tokens: dict[int, str], n: int) -> list[str]:
    paths = []
    for i in range(n):
        viewer = VIEWERS[i % len(VIEWERS)]
        query = "spectate=1" if viewer is None else f"token={tokens[viewer]}"
        paths.append(f"/v1/matches/{match_id}/stream?{query}")
    return paths


async def view_to_act(
    client: httpx.AsyncClient, match_id: str, tokens: dict[int, str]
) -> dict[str, Any] | None:
    """The view of the seat to act next (read with its token), or None once the match is not active."""
    summary = (await client.get(f"/v1/matches/{match_id}")).json()
    if summary["status"] != "active":
        return None
    headers = {"Authorization": f"Bearer {tokens[summary['to_act'][0]]}"}
    view: dict[str, Any] = (await client.get(f"/v1/matches/{match_id}/view", headers=headers)).json()
    return view


async def measure(
    setup: str, streamer: Server, actor: Server, n: int, actions: int, warmup: int, seed: int
) -> Row:
    """`n` subscribers on `streamer`, random legal actions POSTed to `actor`; `row.counts` are the
    events each measured action committed. A match that ends before `actions` is followed by
    another (new subscribers, the set-up and warm-up outside the measured window), so the CPU per
    frame covers as many frames as asked for (one match gives about 200 actions: with 2 subscribers,
    400 frames, a fraction of a second of CPU read in 10 ms ticks)."""
    rng = random.Random(seed)
    row = Row(setup, n, [], [], 0, 0.0)
    async with httpx.AsyncClient(base_url=actor.url, timeout=GUARD) as client:
        while len(row.post) < actions:
            measured = len(row.post)
            await _play_match(client, streamer, n, actions - measured, warmup, rng, row)
            if len(row.post) == measured:
                break  # a match without a measured action: nothing more to gain
    return row


async def _play_match(
    client: httpx.AsyncClient,
    streamer: Server,
    n: int,
    actions: int,
    warmup: int,
    rng: random.Random,
    row: Row,
) -> None:
    """One match with `n` subscribers: `warmup` actions, then up to `actions` measured ones (until
    it ends), added to `row` with the streamer's CPU and the frames delivered meanwhile."""
    match_id, tokens = await new_match(client)
    fanout = Fanout(n)
    subs = await subscribe(streamer.port, stream_paths(match_id, tokens, n), fanout)
    before = len(row.post)  # the actions measured in earlier matches
    cpu0 = 0.0
    frames0 = 0
    view: dict[str, Any] | None = None
    seq = 0
    try:
        for k in range(warmup + actions):
            if view is None and (view := await view_to_act(client, match_id, tokens)) is None:
                break  # the match is over
            if k == warmup:  # after the view read: the measured window holds actions and frames only
                cpu0, frames0 = streamer.cpu_seconds(), fanout.frames
            t0 = time.perf_counter()
            r = await client.post(
                f"/v1/matches/{match_id}/actions",
                json={"action": rng.choice(view["legal_actions"])},
                headers={"Authorization": f"Bearer {tokens[view['seat']]}"},
            )
            r.raise_for_status()
            t_reply = time.perf_counter()
            reply = r.json()
            done = await fanout.all_have(reply["seq"])  # (no subscribers: now)
            if k >= warmup:
                row.lat.append(fanout.last.get(reply["seq"], done) - t0)  # one frame per commit
                row.done.append(done - t0)
                row.post.append(t_reply - t0)
                row.counts.append(reply["seq"] - seq)
            seq = reply["seq"]
            nxt = reply["view"]
            view = nxt if nxt["status"] == "active" and nxt["seat"] in nxt["to_act"] else None
        if len(row.post) > before:
            row.cpu += streamer.cpu_seconds() - cpu0
            row.frames += fanout.frames - frames0
    finally:
        close_all(subs)
        await asyncio.sleep(0.3)  # let the server drop the sockets before the next run


async def measure_bare(server: Server, n: int, counts: Sequence[int], warmup: int) -> Row:
    """The bare fan-out, publishing one frame per action with as many events as each action of a
    drago run committed."""
    fanout = Fanout(n)
    paths = [f"/ws/{'spectator' if VIEWERS[i % 5] is None else VIEWERS[i % 5]}" for i in range(n)]
    subs = await subscribe(server.port, paths, fanout)
    lat: list[float] = []
    dones: list[float] = []
    posts: list[float] = []
    cpu0 = frames0 = 0.0
    try:
        async with httpx.AsyncClient(base_url=server.url, timeout=GUARD) as client:
            seq = 0
            for k, count in enumerate([1] * warmup + list(counts)):
                if k == warmup:
                    cpu0, frames0 = server.cpu_seconds(), fanout.frames
                t0 = time.perf_counter()
                (await client.post("/publish", json={"seq": seq + 1, "count": count})).raise_for_status()
                t_reply = time.perf_counter()
                done = await fanout.all_have(seq + count)
                if k >= warmup:
                    lat.append(fanout.last.get(seq + count, done) - t0)
                    dones.append(done - t0)
                    posts.append(t_reply - t0)
                seq += count
        cpu = server.cpu_seconds() - cpu0
        frames = fanout.frames - int(frames0)
    finally:
        close_all(subs)
        await asyncio.sleep(0.3)
    row = Row("bare FastAPI fan-out (reference)", n, lat, posts, frames, cpu)
    row.done = dones
    return row


async def idle_memory(server: Server, paths: Sequence[str]) -> float:
    """RSS growth of the server per idle connection (after every hello)."""
    await asyncio.sleep(0.5)
    before = server.rss_bytes()
    subs = await subscribe(server.port, paths, None)
    await asyncio.sleep(1.0)
    after = server.rss_bytes()
    close_all(subs)
    await asyncio.sleep(0.5)
    return (after - before) / len(paths)


async def catch_up(server: Server, events: int, repeat: int) -> list[float]:
    """Seconds from connecting with `after` = head − `events` to holding the last of them."""
    async with httpx.AsyncClient(base_url=server.url, timeout=GUARD) as client:
        match_id, _ = await new_match(client, 5, bots=[0, 1, 2, 3, 4])  # the bot runner plays it out
        for _ in range(int(GUARD / 0.05)):
            summary = (await client.get(f"/v1/matches/{match_id}")).json()
            if summary["status"] == "finished":
                break
            await asyncio.sleep(0.05)
        head = summary["seq"]
    if head < events:
        raise RuntimeError(f"the catch-up match has only {head} events")
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        (sub,) = await subscribe(
            server.port, [f"/v1/matches/{match_id}/stream?spectate=1&after={head - events}"], None
        )

        await asyncio.wait_for(_until_seq(sub, head), GUARD)
        times.append(sub.events[-1][1] - t0)
        seqs = [s for s, _ in sub.events]
        assert seqs == sorted(set(seqs)) and seqs[-1] == head  # one frame per commit, in order
        sub.close()
        await asyncio.sleep(0.2)
    return times


async def _until_seq(sub: Sub, seq: int) -> None:
    while not sub.events or sub.events[-1][0] < seq:  # noqa: ASYNC110 - the protocol appends
        await asyncio.sleep(0.0005)


# -- the run -----------------------------------------------------------------------------------------


@contextlib.asynccontextmanager
async def throwaway_database(url: str) -> AsyncIterator[str]:
    dsn = "postgresql://" + url.split("://", 1)[1]
    name = f"drago_bench_{os.getpid()}_{uuid.uuid4().hex[:6]}"
    admin = await asyncpg.connect(dsn)
    try:
        await admin.execute(f'CREATE DATABASE "{name}"')
    finally:
        await admin.close()
    base, _, _ = dsn.rpartition("/")
    try:
        yield f"postgresql+asyncpg://{base.split('://', 1)[1]}/{name}"
    finally:
        admin = await asyncpg.connect(dsn)
        try:
            await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        finally:
            await admin.close()


async def run(args: argparse.Namespace) -> None:
    os.sched_setaffinity(0, {1})
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # servers inherit it
    sizes = [int(s) for s in args.subscribers.split(",")]
    log_dir = Path(args.logs)
    log_dir.mkdir(parents=True, exist_ok=True)  # noqa: ASYNC240 - once, before anything runs
    app_env = {"DRAGO_DATABASE_URL": args.database_url, "DRAGO_LOG_LEVEL": "WARNING"}
    rows: list[Row] = []
    notes: list[str] = []
    print(f"client on core 1, servers on core 0; {args.actions} actions per run after {args.warmup} warm-up")
    print("latency of a frame: from the POST of its action until its last subscriber has it")
    print(HEADER)

    def show(row: Row) -> None:
        rows.append(row)
        print(row.show(), flush=True)

    bare_rows: dict[int, Row] = {}
    ratios: dict[int, list[tuple[float, float, float | None]]] = defaultdict(list)  # p50, CPU, net CPU
    async with contextlib.AsyncExitStack() as servers:
        one = await servers.enter_async_context(serving("one", DRAGO, app_env, log_dir))
        bare = None
        if not args.no_baseline:
            bare = await servers.enter_async_context(serving("bare", "bench.stream:bare_app", {}, log_dir))
        async with httpx.AsyncClient(base_url=one.url) as client:
            match_id, tokens = await new_match(client)
        mem = await idle_memory(one, stream_paths(match_id, tokens, 1000))
        notes.append(f"drago: {mem / 1024:.1f} KiB RSS per idle connection (1,000, seats and spectators)")
        if bare is not None:
            mem = await idle_memory(bare, [f"/ws/{i % 4}" for i in range(1000)])
            notes.append(f"bare reference: {mem / 1024:.1f} KiB RSS per idle connection (1,000)")
        setup = f"drago, 1 process ({args.database_url.split(':')[0]})"
        # Each size runs on drago and then at once on the bare server, round after round: the
        # machine's drift over a run hits both sides of each ratio alike. Each run is preceded by
        # one without subscribers on the same server (the actions' own latency and CPU), which the
        # "net" CPU per frame subtracts: measured once for all, the machine's drift between it and
        # a run made the 2-subscriber net figure swing from x0.3 to x3.
        for round_ in range(args.rounds):
            for n in sizes:
                seed = n + 1000 * round_
                idle = await measure(setup, one, one, 0, args.actions, args.warmup, seed)
                show(idle)
                row = await measure(setup, one, one, n, args.actions, args.warmup, seed)
                row.net_of(idle)
                show(row)
                if bare is not None:
                    bare_idle = await measure_bare(bare, 0, idle.counts, args.warmup)
                    show(bare_idle)
                    ref = bare_rows[n] = await measure_bare(bare, n, row.counts, args.warmup)
                    ref.net_of(bare_idle)
                    show(ref)
                    if ref.frames and row.frames:
                        p50 = percentile(row.lat, 50) / percentile(ref.lat, 50)
                        ratios[n].append((p50, row.per_frame() / ref.per_frame(), _net_ratio(row, ref)))
        times = await catch_up(one, 500, args.repeat)
        median, first, worst = (1000 * t for t in (statistics.median(times), times[0], max(times)))
        notes.append(
            f"reconnect with after catching up 500 events (spectator): median {median:.1f} ms,"
            f" first {first:.1f} ms, max {worst:.1f} ms over {len(times)}"
        )

    broadcasters = [("postgres", args.pg), ("redis", args.redis)] if args.cross and not args.quick else []
    for kind, url in broadcasters:
        if not url or not args.pg:
            notes.append(f"2 processes with {kind}: skipped (no URL)")
            continue
        async with throwaway_database(args.pg) as db:
            env = {
                "DRAGO_DATABASE_URL": db,
                "DRAGO_BROADCAST_URL": db if kind == "postgres" else url,
                "DRAGO_BROADCAST_PREFIX": f"bench{os.getpid()}",
                "DRAGO_LOG_LEVEL": "WARNING",
            }
            # One after the other: the first migrates the database.
            async with (
                serving("a", DRAGO, env, log_dir) as a,
                serving("b", DRAGO, env, log_dir) as b,
            ):
                for n in filter(None, args.cross.split(",")):
                    setup = f"drago, 2 processes ({kind})"
                    show(await measure(setup, a, b, int(n), args.actions, args.warmup, 7))

    for note in notes:
        print(note)
    for row in rows:  # the 2-process runs against the last bare run of their size
        last = bare_rows.get(row.subs)
        if row.setup.startswith("drago, 2") and last is not None and last.frames and row.frames:
            p50 = percentile(row.lat, 50) / percentile(last.lat, 50)
            vs = f"frame p50 ×{p50:.2f}, CPU/frame ×{_cpu(row, last)}"
            print(f"{row.setup}, {row.subs} subs vs the last bare run: {vs}")
    for n, triples in ratios.items():
        p50s, cpus, nets = zip(*triples, strict=True)
        known = [x for x in nets if x is not None]
        net = f"×{statistics.median(known):.2f}" if known else "n/a"
        each = ", ".join(f"×{a:.2f}/×{b:.2f}/{_times(c)}" for a, b, c in triples)
        head = f"drago, 1 process, {n} subs vs reference, median of {len(triples)} rounds"
        print(
            f"{head}: frame p50 ×{statistics.median(p50s):.2f}, CPU/frame ×{statistics.median(cpus):.2f},"
            f" net of the actions' own CPU {net} (each round, p50/CPU/net: {each})"
        )


def _net_ratio(row: Row, ref: Row) -> float | None:
    """CPU per frame net of the actions' own, ours / bare; None when either is below the clock's
    noise (0.5 µs; with 2 subscribers the subtraction can even go negative)."""
    if row.net is None or ref.net is None or min(row.net, ref.net) <= 0.5e-6:
        return None
    return row.net / ref.net


def _times(ratio: float | None) -> str:
    return "n/a" if ratio is None else f"×{ratio:.2f}"


def _cpu(row: Row, ref: Row) -> str:
    net = _net_ratio(row, ref)
    return f"{row.per_frame() / ref.per_frame():.2f}" + ("" if net is None else f" (net ×{net:.2f})")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--subscribers", default="2,100,1000", help="subscriber counts on one process")
    parser.add_argument(
        "--cross", default="100,1000", help="subscriber counts for the 2-process runs (empty: none)"
    )
    parser.add_argument(
        "--actions", type=int, default=600, help="measured actions per run (a new match when one ends)"
    )
    parser.add_argument("--warmup", type=int, default=10)
    parser.add_argument("--repeat", type=int, default=5, help="catch-up reconnects")
    parser.add_argument("--rounds", type=int, default=3, help="runs of each size, drago then bare")
    parser.add_argument("--database-url", default="memory://", help="store of the 1-process runs")
    parser.add_argument(
        "--pg", default=os.environ.get("TEST_DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/test")
    )
    parser.add_argument("--redis", default=os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/0"))
    parser.add_argument("--no-baseline", action="store_true")
    parser.add_argument("--quick", action="store_true", help="50 actions, no 2-process runs")
    parser.add_argument("--logs", default="/tmp/bench-stream", help="server logs")
    args = parser.parse_args()
    if args.quick:
        args.actions = min(args.actions, 50)
    asyncio.run(run(args))


if __name__ == "__main__":
    main()
