"""The published contract of one game's matches: the JSON Schemas of what clients send and receive.

A game publishes the schemas of its own payloads (`Game.schemas()`); a client of a match receives
more than that — the match envelope around every view, match-level events in every history — and
may send the draft actions. `wire_schemas(game)` composes them, generated from the same dataclasses
the server encodes with (`app.games.codec.json_schema`), so they cannot drift from the wire:

- `view`: the game's view and the envelope (`app.matches.views.View` without `state`) side by side
  in one closed object — exactly what `GET …/view` returns;
- `action`: one of the game's actions, or `undo` / `finish_turn` (matches with drafts only);
- `event`: the `data` of any event a viewer may receive: the game's (public or redacted, and the
  stored, unredacted forms that `GET …/reveal` publishes after the end) or a match-level one
  (`app.matches.events`, with a draft's steps seen by its own seat only);
- `options`, `setup`: the game's own.

The view's `game` is a constant (the game's name), so a union of several games' views is
discriminated by it. `game_event_schema` and `match_event_schema` are the two halves of `event`,
for documents that name them separately (the OpenAPI components).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Annotated, ClassVar, Final, Union

from app.games.codec import DRAFT, JSON, Doc, json_schema
from app.games.core import AnyGame
from app.matches import events
from app.matches.views import ENVELOPE_FIELDS, DraftInfo, MatchOutcome, SeatClock


@dataclass(frozen=True, slots=True)
class Undo:
    """Drafts only: take back the last step of your open turn draft."""

    TYPE: ClassVar[str] = "undo"


@dataclass(frozen=True, slots=True)
class FinishTurn:
    """Drafts only: end your turn; the draft becomes public and the game goes on (e.g. the draw)."""

    TYPE: ClassVar[str] = "finish_turn"


@dataclass(frozen=True, slots=True)
class Envelope:
    """The match's part of every view (the game's members are beside these, in the same object)."""

    match_id: str
    game: Annotated[str, Doc("The game's name.")]
    seq: Annotated[int, Doc("The match's seq this view is at (the last event's).", minimum=0)]
    status: Annotated[str, Doc("", enum=["waiting", "active", "finished", "aborted"])]
    seat: Annotated[int | None, Doc("The viewer's seat; null for a spectator.")]
    to_act: Annotated[tuple[int, ...], Doc("Seats whose decision it is (empty unless active).")]
    legal_actions: Annotated[
        tuple[Mapping[str, JSON], ...],
        Doc("The viewer's legal actions (empty unless it is to act): `action` objects."),
    ]
    outcome: Annotated[MatchOutcome | None, Doc("How the match ended; null while it runs.")]
    clock: Annotated[tuple[SeatClock, ...], Doc("Deadlines of the seats to act under a turn clock.")]
    draft: Annotated[DraftInfo | None, Doc("The viewer's own open turn draft (drafts only).")]


SeenMatchEvent = (
    events.SeatJoined
    | events.MatchStarted
    | events.SeatResigned
    | events.TurnTimedOut
    | events.SeatTakenOver
    | events.SeatTokenReissued
    | events.MatchAborted
    | events.MatchEnded
    | events.RatingsChanged
    | events.DraftStep
    | events.DraftUndone
    | events.DraftChanged
    | events.DraftPublished
)
"""Every match-level event as some viewer may receive it (`DraftChanged` is how others see a draft)."""

KINDS: Final = ("view", "action", "event", "options", "setup")


def match_event_schema() -> dict[str, JSON]:
    return json_schema(
        SeenMatchEvent,
        "Match-level event",
        "What happens to a match besides its game: seats, start, resignations, clocks, the host, "
        "the end, a rated match's rating changes, and turn drafts (a draft's steps reach only its "
        "own seat).",
    )


def game_event_schema(game: AnyGame) -> dict[str, JSON]:
    """The game's events in every form a client may receive: as viewers see them during the match
    (`Game.schemas()["event"]`, redacted forms included) and as stored, which the reveal shows."""
    stored = json_schema(Union[tuple(game.event_types.values())])  # noqa: UP007  # a runtime union
    return _one_of(
        f"{game.info.title} game event",
        "A game event as one viewer receives it: public events as they happened, secret ones redacted for "
        "that viewer, and after the end (`GET …/reveal`) every event as stored. Alternatives may share a "
        "`type` (an event and its redacted form).",
        [game.schemas()["event"], stored],
    )


def wire_schemas(game: AnyGame) -> dict[str, JSON]:
    """The five schemas of `GET /v1/games/{game}` as clients see the payloads (see the docstring)."""
    own = game.schemas()
    title = game.info.title
    action = _one_of(
        f"{title} action",
        "An action a seat sends (`POST …/actions`, or an `action` frame). The view's legal_actions lists "
        "the legal ones; `undo` and `finish_turn` exist in matches with drafts only.",
        [own["action"], json_schema(Undo), json_schema(FinishTurn)],
    )
    view = _merge_objects(own["view"], json_schema(Envelope), f"{title} view")
    view["properties"]["game"] = {**view["properties"]["game"], "const": game.info.name}
    # The legal actions are the game's own actions (and the draft ones), as `action` says.
    legal = view["properties"]["legal_actions"]
    view["properties"]["legal_actions"] = {**legal, "items": {"anyOf": action["anyOf"]}}
    view["$defs"] = _defs(view, action)
    event = _one_of(
        f"{title} event data",
        "The `data` of an event as one viewer receives it: the game's events (public or redacted for "
        "the viewer; as stored in the log `GET …/reveal` publishes after the end) and the match-level "
        "events. Several alternatives may share a `type`.",
        [game_event_schema(game), match_event_schema()],
    )
    return {"view": view, "action": action, "event": event, "options": own["options"], "setup": own["setup"]}


def _merge_objects(
    game_view: Mapping[str, JSON], envelope: Mapping[str, JSON], title: str
) -> dict[str, JSON]:
    """One closed object with the members of both (the envelope's win: a game never uses them)."""
    props = {k: v for k, v in game_view.get("properties", {}).items() if k not in ENVELOPE_FIELDS}
    props.update(envelope["properties"])
    required = sorted(
        {*(r for r in game_view.get("required", ()) if r not in ENVELOPE_FIELDS), *envelope["required"]}
    )
    out: dict[str, JSON] = {
        "$schema": DRAFT,
        "title": title,
        "description": "What one seat (or a spectator) sees of a match: the game's own members and the "
        f"match envelope's ({', '.join(ENVELOPE_FIELDS)}) in one object.",
        "type": "object",
        "properties": props,
        "required": required,
        "additionalProperties": game_view.get("additionalProperties", True) is not False
        and "properties" not in game_view,
    }
    defs = _defs(game_view, envelope)
    if defs:
        out["$defs"] = defs
    return out


def _one_of(title: str, description: str, parts: list[Mapping[str, JSON]]) -> dict[str, JSON]:
    alternatives: list[JSON] = []
    for part in parts:
        root = {k: v for k, v in part.items() if k not in ("$schema", "$defs", "title", "description")}
        union = root.get("oneOf", root.get("anyOf")) if len(root) == 1 else None
        for alternative in union if isinstance(union, list) else [root]:
            if alternative not in alternatives:  # an event both seen and stored as it is
                alternatives.append(alternative)
    out: dict[str, JSON] = {
        "$schema": DRAFT,
        "title": title,
        "description": description,
        "anyOf": alternatives,
    }
    defs = _defs(*parts)
    if defs:
        out["$defs"] = defs
    return out


def _defs(*docs: Mapping[str, JSON]) -> dict[str, JSON]:
    merged: dict[str, JSON] = {}
    for doc in docs:
        for name, schema in doc.get("$defs", {}).items():
            if merged.setdefault(name, schema) != schema:
                raise ValueError(f"two different schemas are both named {name}")
    return dict(sorted(merged.items()))
