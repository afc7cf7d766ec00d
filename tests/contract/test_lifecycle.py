"""The match-level events a random match does not produce, through the real app, every payload
checked against the contract: an aborted match, a reissued token, a seat handed to a bot, a
resignation, a clock that runs out (forfeit, and a bot taking over), server bots' moves, samples.

Each scenario is watched by a spectator stream with views and the streams of the seats involved,
and ends by reading every viewer's history and the reveal.
"""

from __future__ import annotations

from typing import Any

import pytest

from app.games.registry import GAMES
from app.service.bots import BotRunner, random_chooser
from tests.contract.checker import Contract
from tests.contract.server import Server, load_contract, serving
from tests.stream.helpers import Reader, open_stream


class Match:
    """One match of a scenario: HTTP calls checked by the contract, streams read in the background."""

    def __init__(self, server: Server, contract: Contract, game: str) -> None:
        self.server, self.contract, self.game = server, contract, game
        self.id = ""
        self.host = ""
        self.tokens: dict[int, str] = {}
        self.readers: list[Reader] = []

    async def call(
        self, method: str, path: str, operation: str, status: int, token: str | None = None, body: Any = None
    ) -> Any:
        if body is not None:
            self.contract.request(operation, body)
        headers = {} if token is None else {"Authorization": f"Bearer {token}"}
        url = f"/v1/matches/{self.id}{path}" if self.id else "/v1/matches"
        r = await self.server.client.request(method, url, json=body, headers=headers)
        assert r.status_code == status, (operation, r.text)
        self.contract.response(operation, status, r.json(), self.game)
        return r.json()

    async def create(self, join: bool = True, **settings: Any) -> None:
        players = GAMES[self.game].info.min_players
        body = {"game": self.game, "players": players, "seed": f"lifecycle-{self.game}", **settings}
        created = await self.call("POST", "", "createMatch", 201, body=body)
        self.id, self.host = created["id"], created["host_token"]
        spectator = open_stream(self.server.app, self.id, spectate=True, views=True)
        self.readers.append(Reader(await spectator.__aenter__()))
        for seat in range(players if join else 0):
            grant = await self.call("POST", f"/seats/{seat}", "joinSeat", 201, body={"name": f"p{seat}"})
            self.tokens[seat] = grant["token"]

    async def watch(self, seat: int) -> None:
        ws = await open_stream(self.server.app, self.id, token=self.tokens[seat], views=True).__aenter__()
        self.readers.append(Reader(ws))

    async def finish(self) -> list[str]:
        """Read the end back (streams, histories, reveal); the event types of the match."""
        summary = await self.call("GET", "", "getMatch", 200)
        for reader in self.readers:
            await reader.wait_for(lambda fs: any(f["seq"] >= summary["seq"] for f in fs if "seq" in f))
            await reader.stop()
            for frame in reader.frames:
                self.contract.server_frame(frame, self.game)
        types: list[str] = []
        for token in [None, *self.tokens.values()]:
            page = await self.call("GET", "/events", "listEvents", 200, token=token)
            types = [e["type"] for e in page["events"]]
            await self.call("GET", "/view", "getView", 200, token=token)
        await self.call("GET", "/reveal", "revealMatch", 200)
        return types


@pytest.fixture
async def server() -> Any:
    async with serving() as s:
        yield s


GAME_NAMES = sorted(GAMES)


@pytest.mark.parametrize("game", GAME_NAMES)
async def test_an_aborted_match(server: Server, game: str) -> None:
    match = Match(server, await load_contract(server.client), game)
    await match.create(join=False)
    await match.call("POST", "/abort", "abortMatch", 200, token=match.host)
    assert (await match.finish())[-2:] == ["match_aborted", "match_ended"]


@pytest.mark.parametrize("game", GAME_NAMES)
async def test_a_reissued_token_a_seat_handed_to_a_bot_and_a_resignation(server: Server, game: str) -> None:
    match = Match(server, await load_contract(server.client), game)
    await match.create()
    await match.watch(1)
    grant = await match.call("POST", "/seats/0/token", "reissueSeatToken", 201, token=match.host)
    match.tokens[0] = grant["token"]
    await match.call("POST", "/seats/1/bot", "handSeatToBot", 200, token=match.host)
    await BotRunner(server.app.state.ctx, random_chooser).play(match.id)
    await match.call("POST", "/samples", "sampleHiddenState", 200, token=match.tokens[0], body={"n": 2})
    await match.call("POST", "/resign", "resign", 200, token=match.tokens[0])
    types = await match.finish()
    for kind in ("seat_token_reissued", "seat_taken_over", "seat_resigned", "match_ended"):
        assert kind in types


@pytest.mark.parametrize("game", GAME_NAMES)
@pytest.mark.parametrize("on_timeout", ["forfeit", "bot"])
async def test_a_clock_that_runs_out(server: Server, game: str, on_timeout: str) -> None:
    match = Match(server, await load_contract(server.client), game)
    clock = {"initial_s": 60, "increment_s": 5} if on_timeout == "bot" else {"per_decision_s": 60}
    await match.create(clock=clock, on_timeout=on_timeout, takeover_after=1)
    await match.watch(0)
    view = await match.call("GET", "/view", "getView", 200, token=match.tokens[0])
    assert view["clock"]
    server.clock.advance(61)
    assert await server.app.state.sweeper.sweep_once() == 1
    runner = BotRunner(server.app.state.ctx, random_chooser)
    await runner.play(match.id)
    if on_timeout == "bot":  # the match goes on with the bot in seat 0: seat 1 gives up
        await match.call("POST", "/resign", "resign", 200, token=match.tokens[1])
    types = await match.finish()
    assert "turn_timed_out" in types
    assert ("seat_taken_over" in types) == (on_timeout == "bot") and runner.decisions >= (on_timeout == "bot")
