"""The published schemas of every registered game: well-formed Draft 2020-12 documents, closed
objects, one vocabulary for cards, tiles and spaces, and every payload of random games valid.

The playouts cover every player count and every Yutakâ mode (with and without explicit_end_turn),
for each seat and a spectator: every view and every redacted event must validate against the
game's own `schemas()`, and every legal action against its action schema.
"""

from __future__ import annotations

from typing import Any

import pytest
from jsonschema import Draft202012Validator  # type: ignore[import-untyped]  # no stubs in the dev extras

from app.games.codec import DRAFT, to_json
from app.games.core import ENVELOPE, SCHEMA_KINDS
from app.games.registry import GAMES
from tests.games.support import cases, fast_validator, random_game, validator

# Match-level event types of the stream (docs of the match layer); no game may use them.
MATCH_EVENTS = {
    "seat_joined", "match_started", "seat_resigned", "turn_timed_out", "seat_taken_over",
    "seat_token_reissued", "match_aborted", "match_ended", "draft_step", "draft_undone", "draft_published",
}  # fmt: skip
# Members of the envelope around an event (stream frames, history pages, the store).
EVENT_ENVELOPE = {"match_id", "game", "seq", "commit", "recorded_at", "data"}
VOCABULARY = {
    "mount_drago": {"Card": ["dragon", "value"], "Space": ["kind", "value"]},
    "yutaka": {"Card": ["kind", "value"], "Tile": ["type", "value"]},
}


def _resolve(schema: dict[str, Any], node: dict[str, Any]) -> dict[str, Any]:
    ref = node.get("$ref")
    if ref is None:
        return node
    target: dict[str, Any] = schema["$defs"][ref.removeprefix("#/$defs/")]
    return target


def _alternatives(schema: dict[str, Any]) -> list[dict[str, Any]]:
    return [_resolve(schema, alt) for alt in schema["oneOf"]]


@pytest.mark.parametrize("name", sorted(GAMES))
def test_five_well_formed_schemas(name: str) -> None:
    schemas = GAMES[name].schemas()
    assert tuple(schemas) == SCHEMA_KINDS
    for kind, schema in schemas.items():
        Draft202012Validator.check_schema(schema)
        assert schema["$schema"] == DRAFT and schema["title"], kind
    assert GAMES[name].schemas() is schemas  # built once


@pytest.mark.parametrize("name", sorted(GAMES))
def test_views_and_events_are_closed_objects_without_envelope_members(name: str) -> None:
    schemas = GAMES[name].schemas()
    view = schemas["view"]
    assert view["type"] == "object" and view["additionalProperties"] is False
    assert not set(ENVELOPE) & set(view["properties"])
    assert view["required"] == list(view["properties"])  # every member is always present
    tags: dict[str, int] = {}
    for alternative in _alternatives(schemas["event"]):
        assert alternative["additionalProperties"] is False, alternative["title"]
        assert alternative["required"][0] == "type" and not EVENT_ENVELOPE & set(alternative["properties"])
        tag = alternative["properties"]["type"]["const"]
        tags[tag] = tags.get(tag, 0) + 1
    assert set(tags) == set(GAMES[name].event_types)  # every stored event reaches viewers in some form
    assert not set(tags) & MATCH_EVENTS
    assert any(count > 1 for count in tags.values())  # an event and its redacted form share a tag
    for alternative in _alternatives(schemas["action"]):
        assert alternative["additionalProperties"] is False and alternative.get("description")
    for definition in (d for s in schemas.values() for d in s.get("$defs", {}).values()):
        assert definition.get("additionalProperties") is not True


@pytest.mark.parametrize("name", sorted(GAMES))
def test_one_vocabulary_for_cards_tiles_and_spaces(name: str) -> None:
    for kind, schema in GAMES[name].schemas().items():
        for title, members in VOCABULARY[name].items():
            definition = schema.get("$defs", {}).get(title)
            if definition is None:
                continue
            assert definition["required"] == members, (kind, title)
            assert all(f'"{m}"' in definition["description"] for m in members), (kind, title)
    used = {title for schema in GAMES[name].schemas().values() for title in schema.get("$defs", {})}
    assert set(VOCABULARY[name]) <= used


def test_mount_drago_says_that_several_cards_may_be_discarded_at_once() -> None:
    (discard,) = [
        a for a in _alternatives(GAMES["mount_drago"].schemas()["action"]) if a["title"] == "Discard"
    ]
    assert "single-card discard" in discard["description"] and "several cards" in discard["description"]


@pytest.mark.slow
@pytest.mark.parametrize(("name", "players", "options"), cases())
def test_every_payload_of_random_games_fits_the_schemas(
    name: str, players: int, options: dict[str, Any]
) -> None:
    game = GAMES[name]
    views, events, actions = (fast_validator(name, kind) for kind in ("view", "event", "action"))
    viewers: list[int | None] = [*range(players), None]
    steps = list(random_game(game, players, options, seed=players))
    for step in steps:
        state = step.after[-1]
        for seat in viewers:
            views.validate(to_json(game.view(state, seat)))
            for event in step.events:
                events.validate(to_json(game.redact(event, seat)))
            if seat is not None:
                for action in game.legal_actions(state, seat):
                    actions.validate(to_json(action))
    assert len(steps) > 20
    # the published documents themselves, $refs and all, on the first and last positions
    for step in (steps[0], steps[-1]):
        for seat in viewers:
            validator(name, "view").validate(to_json(game.view(step.after[-1], seat)))
            for event in step.events:
                validator(name, "event").validate(to_json(game.redact(event, seat)))
