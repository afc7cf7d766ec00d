"""Ours against a yardstick in paired runs: both up at once, taking turns.

    python -m bench.paired [--stores pg,sqlite,memory] [--peers reference,bgio] [--via http,ws]
                           [--pairs 8] [--actions N] [--pg-url URL]

`bench.api` runs our server, then `../shared/bench-reference/reference.sh`, a minute apart; on
this shared machine the same loop of pure Python takes 60 to 135 ms from one second to the next, so
one round's ratio can land anywhere from 0.7x to 1.4x. Here both servers run at once on the same
store (each pinned to core 0, each on its own database), and short runs alternate (ours then the
reference, then the reference then ours, …), each driven by its own load client as in
`bench.api` (ours: `bench.api.run_load`; the reference: its `game_load.js`, pinned to core 1): a
pair's two runs see the same speed of the machine, and the median of the pairs' ratios is steady
from one invocation to the next. With 16 matches each run plays 1,600 actions (100 per match); with
1 match, 600.

With `memory` both servers keep nothing (ours on its in-memory store, the reference without its
INSERT+COMMIT): the ratio of what the servers cost without their stores.

`--peers bgio` pairs ours with boardgame.io (`../shared/bench-reference/bgio`: its server, in
memory whatever our store, pinned to core 0, and its own load client `bgio_load.js` pinned to core
1, as `run.sh` runs them), `--peers reference,bgio` with each in turn. `bench.api` runs boardgame.io
once a round, a minute from our run, and its CPU ratio swung from 1.7x to 3.1x between the rounds
of one invocation (2026-12-07); paired, each ratio compares runs seconds apart. `--via ws` sends our
actions over the match stream (`bench.api --via ws`), `--via http,ws` pairs each transport.
`--actions N` sets the actions of each run of 16 matches (1 match: N * 3 / 8; default 1,600: longer
runs read the CPU clock, which ticks in 10 ms, more finely).

The reference is set up as `reference.sh` sets it up (its venv and its `ws` module under
`$REFERENCE_WORK`, default /tmp/bench-reference) and started with the same settings.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import shutil
import statistics
import subprocess
import time
import urllib.request
from pathlib import Path

from bench.api import DEFAULT_PG, REFERENCE, OurServer, free_port, run_load

HERE = REFERENCE.parent
WORK = Path(os.environ.get("REFERENCE_WORK", "/tmp/bench-reference"))
BGIO = HERE / "bgio"
RUN_ACTIONS = 1_600  # a run of 16 matches; of 1 match, 3/8 of it (600)
WARM_ACTIONS = 400


def prepare_reference() -> None:
    """The reference's venv and node module, as `reference.sh` makes them."""
    WORK.mkdir(parents=True, exist_ok=True)
    python = WORK / "venv" / "bin" / "python"
    if not python.exists():
        subprocess.run(["python3", "-m", "venv", str(WORK / "venv")], check=True)
    subprocess.run(
        [str(WORK / "venv" / "bin" / "pip"), "install", "-q", "-r", str(HERE / "requirements.txt")],
        check=True,
    )
    if not (WORK / "node_modules" / "ws").is_dir():
        shutil.copy(HERE / "package.json", WORK)
        subprocess.run(["npm", "install", "--no-audit", "--no-fund", "-s"], cwd=WORK, check=True)


class _Peer:
    """A yardstick: its server, pinned to core 0 and up once `health` answers, and its own load
    client (node, pinned to core 1), which prints its figures as one JSON line after `marker`.
    `server` is the server's command, to which its port is appended."""

    name: str
    load: Path  # the load client's script
    marker: str

    def __init__(self, server: list[str], env: dict[str, str], health: str, cwd: Path | None = None) -> None:
        self.port = free_port()
        self.env, self.cwd = env, cwd
        self.proc = subprocess.Popen(
            ["taskset", "-c", "0", *server, str(self.port)],
            cwd=cwd,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for _ in range(300):
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{self.port}{health}", timeout=1):
                    return
            except OSError:
                if self.proc.poll() is not None:
                    break
                time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"the {self.name} server did not start")

    def run(self, matches: int, moves: int) -> dict[str, float]:
        """One run of its load client: `moves` over `matches` matches, as `run_load`'s figures (the
        server's CPU as its share of the run's seconds, read from /proc by the client)."""
        out = subprocess.run(
            [
                *("taskset", "-c", "1", "node", str(self.load), "--port", str(self.port)),
                *("--matches", str(matches), "--moves", str(moves // matches), "--warmup", "50"),
                *("--max-seconds", "40", "--server-pid", str(self.proc.pid)),
            ],
            cwd=self.cwd,
            env=self.env,
            capture_output=True,
            text=True,
            check=False,
        )
        found = re.search(self.marker + r" (\{.*\})", out.stdout)
        if found is None:
            raise RuntimeError(f"the {self.name}'s load client failed: {out.stderr.strip()[-300:]}")
        data = json.loads(found.group(1))
        if not data.get("complete", True):
            raise RuntimeError(f"the run did not play every move it was given: {data}")
        cpu = data["server_cpu_pct"] / 100 * data["seconds"] / data["moves"] * 1e6
        return {"actions_per_s": data["moves_per_s"], "p50_ms": data["p50_us"] / 1e3, "cpu_us": cpu}

    def stop(self) -> None:
        self.proc.terminate()
        self.proc.wait(timeout=20)


class Reference(_Peer):
    """The reference server on `store`, and its load client."""

    name = "reference"
    load = HERE / "game_load.js"
    marker = "GAMEJSON"

    def __init__(self, store: str, pg_url: str) -> None:
        env = dict(os.environ, NODE_PATH=str(WORK / "node_modules"))
        if store == "sqlite":
            for old in WORK.glob("paired.db*"):
                old.unlink()
            env |= {
                "BENCH_STORE": "sqlite",
                "BENCH_DB_PATH": str(WORK / "paired.db"),
                "BENCH_SQLITE_SYNC": "FULL",
                "BENCH_POOL_SIZE": "1",
            }
        elif store == "memory":
            env |= {"BENCH_STORE": "memory"}
        else:
            env |= {"BENCH_STORE": "pg", "BENCH_PG_DSN": pg_url, "BENCH_POOL_SIZE": "5"}
        python = str(WORK / "venv" / "bin" / "python")
        server = [
            *(python, "-m", "uvicorn", "game_app:app", "--app-dir", str(HERE), "--host", "127.0.0.1"),
            *("--no-access-log", "--log-level", "warning", "--ws-per-message-deflate", "false", "--port"),
        ]
        super().__init__(server, env, "/health")


def prepare_bgio() -> None:
    """boardgame.io's node modules, as `bgio/run.sh` installs them."""
    if not (BGIO / "node_modules" / "boardgame.io").is_dir():
        subprocess.run(["npm", "ci", "--no-audit", "--no-fund", "-s"], cwd=BGIO, check=True)


class Bgio(_Peer):
    """boardgame.io's server (in memory) and its load client, run as `bgio/run.sh` runs them."""

    name = "bgio"
    load = BGIO / "bgio_load.js"
    marker = "BGIOJSON"

    def __init__(self) -> None:
        super().__init__(["node", "bgio_server.js"], dict(os.environ, NODE_ENV="production"), "/games", BGIO)


def _label(store: str, via: str) -> str:
    """How a run is named in the output: the store, and the transport when it is not HTTP."""
    return store if via == "http" else f"{store}/{via}"


def pairs(store: str, peer_name: str, args: argparse.Namespace) -> None:
    ours = OurServer.start(store, args.pg_url)
    peer: _Peer | None = None
    vias = args.via.split(",")
    try:
        peer = Reference(store, args.pg_url) if peer_name == "reference" else Bgio()
        for matches in (1, 16):
            n = args.actions * 3 // 8 if matches == 1 else args.actions  # as RUN_ACTIONS says
            for via in vias:
                asyncio.run(run_load(ours.port, matches, WARM_ACTIONS, True, ours.proc.pid, via))
            peer.run(matches, WARM_ACTIONS)
            for via in vias:
                ratios = [one_pair(store, matches, n, i, ours, via, peer) for i in range(args.pairs)]
                rate, p50, cpu = (statistics.median(x) for x in zip(*ratios, strict=True))
                label = _label(store, via)
                print(
                    f"median of {args.pairs} pairs, to {peer.name:<9} {label:<9} {matches:>2} matches: "
                    f"actions/s {rate:.2f}x  p50 {p50:.2f}x  server CPU/action {cpu:.2f}x",
                    flush=True,
                )
    finally:
        if peer is not None:
            peer.stop()
        ours.stop()


def one_pair(
    store: str, matches: int, n: int, i: int, ours: OurServer, via: str, peer: _Peer
) -> tuple[float, float, float]:
    """One run of each, ours first in even pairs; the ratios ours / peer (actions/s, p50, CPU)."""
    runs: dict[str, dict[str, float]] = {}
    for who in ("ours", "peer") if i % 2 == 0 else ("peer", "ours"):
        if who == "ours":
            runs[who] = asyncio.run(run_load(ours.port, matches, n, True, ours.proc.pid, via))
        else:
            runs[who] = peer.run(matches, n)
    o, r = runs["ours"], runs["peer"]
    rate = o["actions_per_s"] / r["actions_per_s"]
    label = _label(store, via)
    print(
        f"{label:<9} {matches:>2} matches, pair {i + 1}: ours {o['actions_per_s']:5.0f} actions/s "
        f"({o['cpu_us']:4.0f} µs CPU each), {peer.name} {r['actions_per_s']:5.0f} ({r['cpu_us']:4.0f} µs): "
        f"{rate:.2f}x, CPU {o['cpu_us'] / r['cpu_us']:.2f}x",
        flush=True,
    )
    return rate, o["p50_ms"] / r["p50_ms"], o["cpu_us"] / r["cpu_us"]


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--stores", default="pg,sqlite", help="of pg, sqlite and memory (nothing persists)")
    parser.add_argument("--peers", default="reference", help="of reference and bgio (boardgame.io)")
    parser.add_argument("--via", default="http", help="how ours gets its actions: of http and ws")
    parser.add_argument("--pairs", type=int, default=8)
    parser.add_argument("--actions", type=int, default=RUN_ACTIONS, help="per run of 16 matches")
    parser.add_argument("--pg-url", default=os.environ.get("TEST_DATABASE_URL", DEFAULT_PG))
    args = parser.parse_args()
    if not REFERENCE.exists():
        parser.error(f"no reference beside this repository ({REFERENCE})")
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {1})
    peers = args.peers.split(",")
    if unknown := set(peers) - {"reference", "bgio"}:
        parser.error(f"unknown peers: {', '.join(sorted(unknown))}")
    if unknown := set(args.via.split(",")) - {"http", "ws"}:
        parser.error(f"unknown transports: {', '.join(sorted(unknown))}")
    if "reference" in peers:
        prepare_reference()
    if "bgio" in peers:
        prepare_bgio()
    for store in args.stores.split(","):
        for peer in peers:
            pairs(store, peer, args)


if __name__ == "__main__":
    main()
