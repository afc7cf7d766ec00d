"""The export of a player's finished matches (NDJSON): each line validates against the published
`ExportLine` schema and is what the summary, `…/ratings` and `…/reveal` say; only finished matches,
public ones for anybody and unlisted ones only with the player's own key; `since`/`until`; bad
input refused with the envelope. And the export of 1,000 matches streams: the peak of memory
allocated while exporting stays far below what the whole export holds."""

from __future__ import annotations

import json
import tracemalloc
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
from jsonschema import Draft202012Validator  # type: ignore[import-untyped]
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from app.api.routes.exports import line
from app.service import exports
from tests.api.conftest import running, started
from tests.api.helpers import error_of
from tests.players.support import bearer, new_player

SPEC = json.loads((Path(__file__).resolve().parents[2] / "openapi" / "openapi.json").read_text())
REGISTRY = Registry().with_resource("urn:openapi", Resource.from_contents(SPEC, DRAFT202012))
LINE = Draft202012Validator({"$ref": "urn:openapi#/components/schemas/ExportLine"}, registry=REGISTRY)


async def finished_match(
    client: httpx.AsyncClient, key: str, *, rated: bool = False, visibility: str = "public"
) -> str:
    """A Yutakâ match against a bot that the player resigns at once (so it is finished)."""
    body = {"game": "yutaka", "players": 2, "bots": [1], "rated": rated, "visibility": visibility}
    created = (await client.post("/v1/matches", json=body)).json()
    join = {"name": "me", "invite": created.get("invite")}
    r = await client.post(f"/v1/matches/{created['id']}/seats/0", json=join, headers=bearer(key))
    assert r.status_code == 201, r.text
    r = await client.post(f"/v1/matches/{created['id']}/resign", headers=bearer(key))
    assert r.status_code == 200, r.text
    return str(created["id"])


async def export(client: httpx.AsyncClient, player: str, key: str | None = None, **params: Any) -> list[Any]:
    headers = {} if key is None else bearer(key)
    r = await client.get(f"/v1/players/{player}/matches", params=params, headers=headers)
    assert r.status_code == 200, r.text
    assert r.headers["content-type"].startswith("application/x-ndjson")
    lines = [json.loads(x) for x in r.text.splitlines()]
    for one in lines:
        LINE.validate(one)
    return lines


async def test_the_export_of_a_player() -> None:
    async with running("memory://") as client:
        ada, key = await new_player(client, "Ada")
        _, other_key = await new_player(client, "Bo")
        public = await finished_match(client, key)
        rated = await finished_match(client, key, rated=True)
        unlisted = await finished_match(client, key, visibility="unlisted")
        waiting = (await client.post("/v1/matches", json={"game": "yutaka", "players": 2})).json()["id"]
        await client.post(f"/v1/matches/{waiting}/seats/0", json={"name": "me"}, headers=bearer(key))
        mine = await export(client, ada, key)
        assert [x["summary"]["id"] for x in mine] == [unlisted, rated, public]  # newest first
        assert [x["summary"]["id"] for x in await export(client, ada)] == [rated, public]
        assert [x["summary"]["id"] for x in await export(client, ada, other_key)] == [rated, public]
        for x in mine:
            match_id = x["summary"]["id"]
            assert x["summary"] == (await client.get(f"/v1/matches/{match_id}")).json()
            assert x["reveal"] == (await client.get(f"/v1/matches/{match_id}/reveal")).json()
            assert x["ratings"] == (await client.get(f"/v1/matches/{match_id}/ratings")).json()
            assert x["seat"] == 0 and x["ranks"] == [2, 1]  # resigned: last
        assert mine[1]["ratings"]["rated"] and mine[1]["ratings"]["changes"][0]["player_id"] == ada
        ended = datetime.fromisoformat(mine[1]["reveal"]["events"][-1]["recorded_at"])
        assert [x["summary"]["id"] for x in await export(client, ada, key, since=ended.isoformat())] == [
            unlisted,
            rated,
        ]
        later = (ended + timedelta(microseconds=1)).isoformat()
        assert [x["summary"]["id"] for x in await export(client, ada, key, until=later)] == [rated, public]
        assert await export(client, ada, key, since=(ended + timedelta(days=1)).isoformat()) == []
        error_of(await client.get("/v1/players/nobody/matches"), 404, "not_found")
        error_of(
            await client.get(f"/v1/players/{ada}/matches", params={"status": "active"}),
            422,
            "validation_error",
        )
        error_of(
            await client.get(f"/v1/players/{ada}/matches", params={"format": "csv"}), 422, "validation_error"
        )
        error_of(  # an inverted range; an empty one (since == until) is an empty export
            await client.get(
                f"/v1/players/{ada}/matches", params={"since": later, "until": ended.isoformat()}
            ),
            422,
            "validation_error",
        )
        assert await export(client, ada, key, since=later, until=later) == []
        error_of(
            await client.get(f"/v1/players/{ada}/matches", headers=bearer("pk_forged")), 401, "unauthorized"
        )


async def test_the_export_of_1000_matches_streams() -> None:
    """Measured on the route's own generator (httpx's in-process transport gathers a whole body
    before handing it over, so the client side could not show streaming)."""
    async with started("memory://") as (app, client):
        ada, key = await new_player(client, "Ada")
        ids = [await finished_match(client, key) for _ in range(1000)]
        records = await exports.export_matches(app.state.ctx, ada, None)
        tracemalloc.start()
        try:
            base = tracemalloc.get_traced_memory()[0]
            seen, total = [], 0
            async for record in records:
                raw = line(record)
                seen.append(record.summary.id)
                total += len(raw)
            peak = tracemalloc.get_traced_memory()[1] - base
        finally:
            tracemalloc.stop()
        assert seen == ids[::-1]
        # The whole export is `total` bytes of JSON (several times that as Python objects); built a
        # page of matches at a time it never holds more than a small share of it.
        assert peak < total / 4, (peak, total)
