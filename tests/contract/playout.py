"""A random match played through the real app the way clients play it, every payload checked.

`play(server, contract, case)` creates a seeded match, seats a player with a player key (seat 0)
and the others with seat tokens, opens the live streams — one per seat with `views=1` (seat 0
authenticated by an `auth` frame), a spectator with and one without views, and the player's own
stream — then plays random legal actions taken from the views until the match ends: most over HTTP
with `expected_seq`, some as `action` frames on the seat's stream, and a few refused on purpose
(a stale seq, another seat's turn, a malformed action, a replay inside a commit). Afterwards it
reads every viewer's history in small pages, replays views at commit ends, the reveal, the lobby
and the player's matches, and checks every frame the streams received.

Every request body, response, view, event, action and frame goes through the `Contract`.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from tests.contract.checker import Contract
from tests.contract.server import Server
from tests.stream.asgi import AsgiSocket
from tests.stream.helpers import Reader, open_stream

MAX_DECISIONS = 5000  # a bound, not an expectation


@dataclass(frozen=True)
class Case:
    game: str
    players: int
    options: dict[str, Any] = field(default_factory=dict)
    drafts: bool = False
    seed: int = 1

    @property
    def id(self) -> str:
        parts = [self.game, f"{self.players}p", *(["drafts"] if self.drafts else [])]
        parts += [f"{k}={v}" for k, v in sorted(self.options.items())]
        return "-".join([*parts, f"s{self.seed}"])


@dataclass
class Table:
    """One match under test: who holds which seat and with what credential."""

    server: Server
    contract: Contract
    case: Case
    match_id: str = ""
    credentials: dict[int, str] = field(default_factory=dict)  # seat → token (seat 0: a player key)
    readers: dict[str, Reader] = field(default_factory=dict)
    sockets: dict[str, AsgiSocket] = field(default_factory=dict)

    def auth(self, seat: int | None) -> dict[str, str]:
        return {} if seat is None else {"Authorization": f"Bearer {self.credentials[seat]}"}

    async def call(
        self,
        method: str,
        url: str,
        operation: str,
        status: int,
        seat: int | None = None,
        body: Any = None,
        check_request: bool = True,
        params: dict[str, Any] | None = None,
    ) -> Any:
        """One HTTP request; its body (when valid on purpose) and its response are checked."""
        if body is not None and check_request:
            self.contract.request(operation, body)
            if operation == "submitAction":
                self.contract.action(self.case.game, body["action"])
        headers = self.auth(seat)
        r = await self.server.client.request(method, url, json=body, params=params or {}, headers=headers)
        assert r.status_code == status, (operation, r.status_code, r.text)
        self.contract.response(operation, r.status_code, r.json(), self.case.game)
        return r.json()


async def play(server: Server, contract: Contract, case: Case) -> Table:
    table = Table(server, contract, case)
    rng = random.Random(case.id)
    try:
        await _create_and_join(table)
        await _open_streams(table)
        final = await _play_to_end(table, rng)
        await _finish_streams(table, final)
        await _read_back(table, rng, final)
    finally:
        for reader in table.readers.values():
            await reader.stop()
    return table


async def _create_and_join(table: Table) -> None:
    case = table.case
    body = {"game": case.game, "players": case.players, "options": case.options, "drafts": case.drafts}
    created = await table.call("POST", "/v1/matches", "createMatch", 201, body={**body, "seed": case.id})
    table.match_id = created["id"]
    key = await table.call("POST", "/v1/players", "createPlayer", 201, body={"name": "Ada"})
    table.credentials[0] = key["key"]
    # The player stream first, so it sees the match start.
    ws = AsgiSocket(table.server.app, "/v1/players/me/stream", {"token": key["key"]})
    table.sockets["player"] = await ws.__aenter__()
    table.readers["player"] = Reader(ws, "player")
    for seat in range(case.players):
        grant = await table.call(
            "POST", f"/v1/matches/{table.match_id}/seats/{seat}", "joinSeat", 201,
            seat=0 if seat == 0 else None, body={"name": f"player {seat}"},
        )  # fmt: skip
        if seat:
            table.credentials[seat] = grant["token"]


async def _open_streams(table: Table) -> None:
    app, match_id = table.server.app, table.match_id
    for seat in range(table.case.players):
        if seat == 0:  # the browser way: the credential in the first frame
            ws = open_stream(app, match_id, views=True)
            await ws.__aenter__()
            auth = {"type": "auth", "token": table.credentials[0]}
            table.contract.client_frame(auth, table.case.game)
            await ws.send(auth)
        else:
            ws = await open_stream(app, match_id, token=table.credentials[seat], views=True).__aenter__()
        table.sockets[f"seat {seat}"] = ws
    table.sockets["spectator"] = await open_stream(app, match_id, spectate=True, views=True).__aenter__()
    table.sockets["spectator, no views"] = await open_stream(app, match_id, spectate=True).__aenter__()
    for name, ws in table.sockets.items():
        if name != "player":
            table.readers[name] = Reader(ws, name)


async def _play_to_end(table: Table, rng: random.Random) -> int:
    url = f"/v1/matches/{table.match_id}"
    frame_ids = iter(range(1, 1_000_000))
    for _ in range(MAX_DECISIONS):
        summary = await table.call("GET", url, "getMatch", 200)
        if summary["status"] != "active":
            return int(summary["seq"])
        seat = rng.choice(summary["to_act"])
        view = await table.call("GET", f"{url}/view", "getView", 200, seat=seat)
        if rng.random() < 0.1:
            await table.call("GET", f"{url}/view", "getView", 200)  # a spectator looks too
        action = choose(rng, view["legal_actions"])
        roll = rng.random()
        if roll < 0.03:
            await _refusals(table, seat, view)
        if roll < 0.2:  # on the seat's own stream
            frame_id = next(frame_ids)
            frame = {"type": "action", "id": frame_id, "action": action, "expected_seq": view["seq"]}
            table.contract.client_frame(frame, table.case.game)
            reader = table.readers[f"seat {seat}"]
            await reader.ws.send(frame)
            await reader.wait_for(partial(_answered, frame_id), f"the answer to {frame_id}")
            (answer,) = [f for f in reader.frames if f.get("id") == frame_id]
            assert answer["type"] == "ack", answer
        else:
            body = {"action": action, "expected_seq": view["seq"]}
            await table.call("POST", f"{url}/actions", "submitAction", 200, seat=seat, body=body)
    raise AssertionError("the match did not end")


def _answered(frame_id: int, frames: list[dict[str, Any]]) -> bool:
    return any(f.get("id") == frame_id for f in frames)


def choose(rng: random.Random, legal: list[Any]) -> Any:
    """A random legal action, its type first: rare kinds (a discard beside five plays) come up."""
    kind = rng.choice(sorted({a["type"] for a in legal}))
    return rng.choice([a for a in legal if a["type"] == kind])


async def _refusals(table: Table, seat: int, view: Any) -> None:
    """Requests the server must refuse, whose error replies are part of the contract too."""
    url = f"/v1/matches/{table.match_id}/actions"
    action = view["legal_actions"][0]
    stale = {"action": action, "expected_seq": view["seq"] - 1}
    await table.call("POST", url, "submitAction", 409, seat=seat, body=stale)
    bad = {"action": {"type": "no_such_action"}, "expected_seq": view["seq"]}
    await table.call("POST", url, "submitAction", 422, seat=seat, body=bad, check_request=False)
    others = [s for s in range(table.case.players) if s not in view["to_act"]]
    if others:
        body = {"action": action}
        await table.call("POST", url, "submitAction", 409, seat=others[0], body=body)
    # The same on the seat's stream: an `error` frame answers a refused action, `pong` a `ping`.
    reader = table.readers[f"seat {seat}"]
    for frame in ({"type": "action", "id": f"stale-{view['seq']}", **stale}, {"type": "ping"}):
        table.contract.client_frame(frame, table.case.game)
        before = len(reader.frames)
        await reader.ws.send(frame)
        await reader.wait_for(partial(_answer_after, before, frame), "the answer")


def _answer_after(before: int, frame: dict[str, Any], frames: list[dict[str, Any]]) -> bool:
    wanted = "pong" if frame["type"] == "ping" else "error"
    return any(f["type"] == wanted and f.get("id") == frame.get("id") for f in frames[before:])


async def _finish_streams(table: Table, final: int) -> None:
    def done(frames: list[dict[str, Any]]) -> bool:
        return any(f["type"] in ("commit", "hello") and f["seq"] >= final for f in frames)

    for name, reader in table.readers.items():
        if name != "player":
            await reader.wait_for(done, f"seq {final}")
    await table.readers["player"].wait_for(
        lambda frames: any(f.get("notice", {}).get("type") == "match_ended" for f in frames), "match_ended"
    )
    for name, reader in table.readers.items():
        await reader.stop()
        game = None if name == "player" else table.case.game
        assert reader.frames and reader.frames[0]["type"] == "hello", name
        for frame in reader.frames:
            table.contract.server_frame(frame, game)
        if game is not None:
            _check_commits(table, name, reader.frames, final)


def _check_commits(table: Table, name: str, frames: list[dict[str, Any]], final: int) -> None:
    """One frame per commit, in order, without gaps; a view only where the stream asked for them."""
    hello, commits = frames[0], [f for f in frames if f["type"] == "commit"]
    seqs = [e["seq"] for f in commits for e in f["events"]]
    assert seqs == list(range(hello["after"] + 1, final + 1)), name
    for f in commits:
        assert all(e["commit"] == f["seq"] for e in f["events"]) and f["events"][-1]["seq"] == f["seq"]
        assert ("view" in f) <= hello["views"], name


async def _read_back(table: Table, rng: random.Random, final: int) -> None:
    url = f"/v1/matches/{table.match_id}"
    ends: list[int] = []
    for seat in [*range(table.case.players), None]:
        records: list[Any] = []
        while not records or records[-1]["seq"] < final:
            after = records[-1]["seq"] if records else 0
            params = {"after": after, "limit": rng.randint(1, 60)}
            page = await table.call("GET", f"{url}/events", "listEvents", 200, seat=seat, params=params)
            records.extend(page["events"])
        assert [r["seq"] for r in records] == list(range(1, final + 1))
        ends = sorted({r["commit"] for r in records})
    inside = sorted(set(range(1, final + 1)) - set(ends))
    for at in rng.sample(ends, min(len(ends), 12)):
        await table.call("GET", f"{url}/view", "getView", 200, seat=rng.choice([None, 0]), params={"at": at})
    if inside:
        await table.call("GET", f"{url}/view", "getView", 422, params={"at": rng.choice(inside)})
    await table.call("GET", f"{url}/reveal", "revealMatch", 200)
    lobby = {"game": table.case.game, "status": "finished"}
    await table.call("GET", "/v1/matches", "listMatches", 200, params=lobby)
    await table.call("GET", "/v1/players/me", "getMe", 200, seat=0)
    await table.call("GET", "/v1/players/me/matches", "myMatches", 200, seat=0)
    for seat in [*range(table.case.players), None]:
        await table.call("GET", f"{url}/view", "getView", 200, seat=seat)
