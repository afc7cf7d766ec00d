"""Actions over the stream: `ack` or `error` with the HTTP error codes; `views=1` for bots (the view
rides in the commit frame)."""

from __future__ import annotations

import asyncio
import random
from typing import Any

from app.api.closes import Close
from tests.api.helpers import new_table
from tests.stream.conftest import Live
from tests.stream.helpers import Reader, check_server_frame, open_stream


async def test_actions_are_acked_or_refused_with_the_http_codes(live: Live) -> None:
    app, client = live
    table = await new_table(client, "mount_drago", 2, seed="ws-actions")
    to_act = (await table.summary())["to_act"][0]
    other = 1 - to_act
    view = await table.view(to_act)
    legal = view["legal_actions"]
    async with (
        open_stream(app, table.match_id, token=table.tokens[to_act]) as mine,
        open_stream(app, table.match_id, token=table.tokens[other]) as theirs,
        open_stream(app, table.match_id, spectate=True) as watcher,
    ):
        me, them, spectator = Reader(mine, "mine"), Reader(theirs, "theirs"), Reader(watcher, "watcher")

        async def answer(reader: Reader, frame: dict[str, Any]) -> dict[str, Any]:
            await reader.ws.send(frame)
            await reader.wait_for(lambda fs: any(f.get("id") == frame["id"] for f in fs), f"answer {frame}")
            (reply,) = [f for f in reader.frames if f.get("id") == frame["id"]]
            check_server_frame(reply)
            return reply

        async def refused(reader: Reader, frame: dict[str, Any]) -> str:
            reply = await answer(reader, frame)
            assert reply["type"] == "error", reply
            code: str = reply["error"]["code"]
            return code

        seq = view["seq"]
        assert await refused(spectator, {"type": "action", "id": "s", "action": legal[0]}) == "unauthorized"
        assert await refused(them, {"type": "action", "id": 1, "action": legal[0]}) == "not_your_turn"
        assert await refused(me, {"type": "action", "id": 2, "action": {"type": "nonsense"}}) in (
            "validation_error",
            "illegal_action",
        )
        assert await refused(me, {"type": "action", "id": 3, "action": [1]}) == "validation_error"
        assert (
            await refused(me, {"type": "action", "id": 4, "action": {}, "expected_seq": -1})
            == "validation_error"
        )
        stale = {"type": "action", "id": 5, "action": legal[0], "expected_seq": seq - 1}
        assert await refused(me, stale) == "version_conflict"
        assert (await table.summary())["seq"] == seq  # refusals change nothing

        keyed = {
            "type": "action",
            "id": "k1",
            "action": legal[0],
            "expected_seq": seq,
            "idempotency_key": "key-1",
        }
        ack = await answer(me, keyed)
        assert ack["type"] == "ack" and ack["seq"] > seq
        again = await answer(me, {**keyed, "id": "k2"})
        assert again == {"type": "ack", "id": "k2", "seq": ack["seq"]}  # applied once
        reused = {**keyed, "id": "k3", "action": legal[-1], "expected_seq": None}
        if legal[-1] != legal[0]:
            assert await refused(me, reused) == "idempotency_key_reused"
        assert (await table.summary())["seq"] == ack["seq"]
        for reader in (me, them, spectator):
            await reader.wait_for_seq(ack["seq"])
            assert reader.seqs() == list(range(seq + 1, ack["seq"] + 1))
            await reader.stop()


async def test_a_bot_on_views_needs_no_rules_and_no_polling(live: Live) -> None:
    """Play a whole match over two sockets with views=1, acting only on the views the frames carry."""
    app, client = live
    table = await new_table(client, "yutaka", 2, seed="ws-bots")
    rng = random.Random(3)

    async def bot(seat: int, reader: Reader) -> None:
        handled = sent = 0
        while True:
            await reader.wait_for(lambda fs, n=handled: len(fs) > n, f"seat {seat}: a frame")  # type: ignore[misc]
            for frame in reader.frames[handled:]:
                handled += 1
                view = frame.get("view")
                if frame["type"] not in ("hello", "commit") or view is None:
                    continue
                if view["status"] == "finished":
                    return
                newest = max(f["seq"] for f in reader.frames if f["type"] in ("hello", "commit"))
                if view["seq"] == newest and seat in view["to_act"]:
                    sent += 1
                    await reader.ws.send(
                        {"type": "action", "id": sent, "action": rng.choice(view["legal_actions"])}
                    )

    async with (
        open_stream(app, table.match_id, token=table.tokens[0], views=True) as ws0,
        open_stream(app, table.match_id, token=table.tokens[1], views=True) as ws1,
    ):
        readers = [Reader(ws0, "seat 0"), Reader(ws1, "seat 1")]
        await asyncio.gather(*(bot(seat, reader) for seat, reader in enumerate(readers)))
        final = (await table.summary())["seq"]
        for seat, reader in enumerate(readers):
            await reader.wait_for_seq(final)
            commits = reader.of("commit")
            assert commits[-1]["seq"] == final and commits[-1]["view"] == await table.view(seat)
            # A view never splits a commit: it is the view at the frame's seq, its last event's.
            for frame in commits:
                assert frame["seq"] == frame["events"][-1]["seq"]
                if "view" in frame:
                    assert frame["view"]["seq"] == frame["seq"]
            assert all(f["type"] != "error" for f in reader.frames), reader.of("error")
            await reader.stop()


async def test_an_action_frame_reads_as_the_http_body_reads(live: Live) -> None:
    """A frame's text goes through the parser of HTTP bodies: an integer too large for any field is
    refused with the code `POST .../actions` gives it, and a lone surrogate, which no reply could
    encode, closes the stream as text that is not JSON (HTTP: 422), changing nothing."""
    app, client = live
    table = await new_table(client, "mount_drago", 2, seed="ws-json")
    to_act = (await table.summary())["to_act"][0]
    seq = (await table.view(to_act))["seq"]
    huge = '{"type": "play", "card": 0, "space": 123456789012345678901234567890}'
    headers = {"Authorization": f"Bearer {table.tokens[to_act]}", "Content-Type": "application/json"}
    url = f"/v1/matches/{table.match_id}/actions"
    by_http = await client.post(url, content=f'{{"action": {huge}}}', headers=headers)
    assert by_http.status_code in (409, 422), by_http.text
    lone = '{"type": "\\ud800"}'
    assert (await client.post(url, content=f'{{"action": {lone}}}', headers=headers)).status_code == 422
    async with open_stream(app, table.match_id, token=table.tokens[to_act]) as ws:
        me = Reader(ws, "mine")
        await ws.send(f'{{"type": "action", "id": 1, "action": {huge}}}')
        await me.wait_for(lambda fs: any(f.get("id") == 1 for f in fs), "the refusal")
        (reply,) = [f for f in me.frames if f.get("id") == 1]
        check_server_frame(reply)
        assert reply["type"] == "error" and reply["error"]["code"] == by_http.json()["error"]["code"]
        await me.stop()
    async with open_stream(app, table.match_id, token=table.tokens[to_act]) as ws:
        await ws.recv()  # the hello
        await ws.send(f'{{"type": "action", "id": 2, "action": {lone}}}')
        assert (await ws.closed()).code == Close.BAD_REQUEST
    assert (await table.summary())["seq"] == seq
