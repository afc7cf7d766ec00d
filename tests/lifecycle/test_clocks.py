"""Turn clocks over HTTP with a fake clock (no sleeping), on every store: a deadline in the views,
`turn_timed_out` then the bot's decision exactly once, takeover after repeated timeouts, forfeits,
bank clocks, and a deadline that passed while no server ran fires when one starts.

The sweeper is driven by hand (`sweep_once`) when the fake clock says a deadline is due; the bot
runner decides on its own, outside the requests, as in production.
"""

from __future__ import annotations

from typing import Any

from app.matches.events import RESERVED_TAGS
from tests.api.conftest import started
from tests.api.helpers import FakeClock, Table, eventually
from tests.lifecycle.support import commits, drago, following, frames_through, kinds, moved_past

SECOND: dict[str, Any] = {"clock": {"per_decision_s": 1}}


def game_events_of(group: list[Any], seat: int) -> bool:
    """A commit of the game's own events only, the decision of `seat` (its first event names it)."""
    return not RESERVED_TAGS & set(kinds(group)) and group[0]["data"]["seat"] == seat


async def test_nobody_acting_a_timeout_then_the_bots_decision_exactly_once(database_url: str) -> None:
    clock = FakeClock()
    async with started(database_url, clock=clock) as (app, client):
        table = await drago(client, **SECOND)
        summary = await table.summary()
        start = summary["seq"]
        assert summary["clock"] == [{"seat": 0, "deadline": clock.stamp(1), "bank_s": None}]
        assert (await table.view(1))["clock"] == summary["clock"]
        sweeper = app.state.sweeper
        async with following(app, table) as spectator, following(app, table, token=table.tokens[0]) as seat0:
            assert await sweeper.sweep_once() == 0  # not yet due
            clock.advance(1)
            assert await sweeper.sweep_once() == 1
            assert await sweeper.sweep_once() == 0  # fired once
            await moved_past(table, start + 1)  # the bot's decision, made by the runner
            history = commits(await table.events(None, after=start))
            assert kinds(history[0]) == ["turn_timed_out"]
            assert history[0][0]["data"] == {"type": "turn_timed_out", "seat": 0, "policy": "bot"}
            assert game_events_of(history[1], 0), history[1]
            assert sum(kinds(g).count("turn_timed_out") for g in history) == 1
            for reader in (spectator, seat0):  # the stream followers saw both commits
                seen = await frames_through(reader, history[1][-1]["seq"])
                assert seen[:2] == [kinds(history[0]), kinds(history[1])]
        assert await sweeper.sweep_once() == 0
        types = await table.types()
        assert types.count("turn_timed_out") == 1


async def test_repeated_timeouts_hand_the_seat_to_a_bot_for_good(database_url: str) -> None:
    clock = FakeClock()
    async with started(database_url, clock=clock) as (app, client):
        table = await drago(client, clock={"per_decision_s": 10}, takeover_after=2)
        timeouts = 0
        while timeouts < 2:  # seat 0 never acts: its decisions time out, a bot makes them
            summary = await table.settled()
            if 0 not in summary["to_act"]:
                await whole_turn(table, 1)  # seat 1 plays in between, in time
                continue
            seq = summary["seq"]
            clock.advance(10)
            assert await app.state.sweeper.sweep_once() == 1
            timeouts += 1
            await moved_past(table, seq + 1)
        summary = await eventually(lambda: _taken_over(table), "the takeover")
        assert summary["seats"][0]["bot"] and summary["seats"][0]["level"] == "random"
        log = await table.events(None, limit=1000)
        takeover = [e for e in log if e["type"] == "seat_taken_over"]
        assert [e["data"] for e in takeover] == [
            {"type": "seat_taken_over", "seat": 0, "reason": "timeout", "level": "random"}
        ]
        timed_out = [e for e in log if e["type"] == "turn_timed_out"]
        assert len(timed_out) == 2 and timed_out[1]["commit"] == takeover[0]["commit"]
        assert all(c["seat"] != 0 for c in (await table.view(0))["clock"])  # a bot's turns have no deadline


async def _taken_over(table: Table) -> Any:
    summary = await table.summary()
    return summary if summary["seats"][0]["bot"] else None


async def test_forfeit_ends_a_two_player_match(database_url: str) -> None:
    clock = FakeClock()
    async with started(database_url, clock=clock) as (app, client):
        table = await drago(client, clock={"per_decision_s": 30}, on_timeout="forfeit")
        async with following(app, table) as spectator:
            start = (await table.summary())["seq"]
            clock.advance(30)
            assert await app.state.sweeper.sweep_once() == 1
            summary = await table.summary()
            assert summary["status"] == "finished" and summary["winners"] == [1] and summary["to_act"] == []
            (group,) = commits(await table.events(None, after=start))
            assert [e["data"] for e in group] == [
                {"type": "turn_timed_out", "seat": 0, "policy": "forfeit"},
                {"type": "match_ended", "reason": "timeout", "winners": [1], "scores": None},
            ]
            assert await frames_through(spectator, summary["seq"]) == [kinds(group)]
            view = await table.view(0)
            assert view["status"] == "finished" and view["outcome"]["reason"] == "timeout"
        assert await app.state.sweeper.sweep_once() == 0


async def test_a_bank_clock_shows_the_bank_and_earns_the_increment(database_url: str) -> None:
    clock = FakeClock()
    async with started(database_url, clock=clock) as (_, client):
        table = await drago(client, clock={"initial_s": 100, "increment_s": 5})
        assert (await table.summary())["clock"] == [
            {"seat": 0, "deadline": clock.stamp(100), "bank_s": 100.0}
        ]
        clock.advance(30)
        commits_of_seat0 = await whole_turn(table, 0)  # 30 s in: a play, perhaps a rider choice
        summary = await table.summary()
        assert summary["clock"] == [{"seat": 1, "deadline": clock.stamp(100), "bank_s": 100.0}]
        clock.advance(1)
        await whole_turn(table, 1)
        (bank,) = (await table.summary())["clock"]
        assert bank["seat"] == 0 and bank["bank_s"] == 100 - 30 + 5 * commits_of_seat0  # 5 per commit


async def whole_turn(table: Table, seat: int) -> int:
    """`seat` plays its first legal action until the turn passes; returns how many commits it made."""
    view = await table.view(seat)
    made = 0
    while seat in view["to_act"]:
        r = await table.act(seat, view["legal_actions"][0])
        assert r.status_code == 200, r.text
        view = r.json()["view"]
        made += 1
    return made


async def test_a_deadline_that_passed_while_no_server_ran_fires_at_the_start(sql_database_url: str) -> None:
    clock = FakeClock()
    async with started(sql_database_url, clock=clock) as (_, client):
        table = await drago(client, **SECOND)
        start = (await table.summary())["seq"]
    clock.advance(3600)  # the server is down an hour
    async with started(sql_database_url, clock=clock) as (app, client):
        table = table.on(client)
        assert await table.types(start) == []
        assert await app.state.sweeper.sweep_once() == 1  # its first pass
        await moved_past(table, start + 1)
        assert (await table.types(start))[0] == "turn_timed_out"
        assert (await table.types()).count("turn_timed_out") == 1
