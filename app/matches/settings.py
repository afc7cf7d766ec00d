"""Match-level settings, given at creation beside the game's options: clock, timeouts, visibility,
turn drafts and the determinization endpoint.

They belong to the match, not to a game, so every game gets them alike. `parse_settings` decodes
them with the games' codec (so their JSON Schema and their parser cannot disagree) and then checks
the ranges; the record keeps `to_json(settings)`, which parses again to itself.

- `clock`: none (default), `{"per_decision_s": N}` (every decision within N seconds,
  correspondence style) or `{"initial_s": N, "increment_s": M}` (a bank per seat, Fischer style:
  each of the seat's commits adds M).
- `on_timeout`: `bot` (a server bot that sees only that seat makes the decision; after
  `takeover_after` consecutive timeouts it plays the seat for good) or `forfeit` (the seat loses:
  with two players the other wins; with more a bot plays on and the seat is ranked last).
- `visibility`: `public` (in the lobby) or `unlisted` (joined only with the invite code).
- `drafts`: private turn drafts with `undo` and `finish_turn` (see `app.matches.decide`).
- `allow_samples`: whether seats may ask `POST …/samples` for determinizations.
- `rated`: the match counts for ratings; people join its seats only with a player key.
- `spectator_chat`: whether the match has a spectators' chat room (the players' room always exists).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final, Literal

from app.games.codec import JSON, DecodeError, from_json, to_json

DAY: Final = 86_400
MAX_DECISION_S: Final = 30 * DAY
MAX_INCREMENT_S: Final = DAY
MAX_TAKEOVER_AFTER: Final = 100
DEFAULT_TAKEOVER_AFTER: Final = 3  # consecutive timeouts before a bot plays the seat for good (BGA's zombie)


class InvalidSettings(ValueError):
    """Settings a match refuses; `path` names the bad member (e.g. `clock.per_decision_s`)."""

    def __init__(self, message: str, path: str) -> None:
        super().__init__(message)
        self.message = message
        self.path = path


@dataclass(frozen=True, slots=True)
class PerDecision:
    """Every decision must be made within `per_decision_s` seconds."""

    per_decision_s: int


@dataclass(frozen=True, slots=True)
class Bank:
    """Each seat has a bank of `initial_s` seconds; each of its commits adds `increment_s`."""

    initial_s: int
    increment_s: int = 0


ClockSetting = PerDecision | Bank


@dataclass(frozen=True, slots=True)
class MatchSettings:
    clock: PerDecision | Bank | None = None
    on_timeout: Literal["bot", "forfeit"] = "bot"
    takeover_after: int = DEFAULT_TAKEOVER_AFTER
    visibility: Literal["public", "unlisted"] = "public"
    drafts: bool = False
    allow_samples: bool = True
    rated: bool = False  # the match counts for ratings (`app.service.ratings`): seats need player keys
    spectator_chat: bool = True  # the spectators' chat room (docs/chat.md); the players' is always on
    # Matches created before lifecycle events existed have none of them in their stream: their
    # seating comes from the seats table (see `app.matches.fold`). New matches set this.
    lifecycle: bool = False
    # How the match's dice are rolled (docs/fairness.md): matches created before drago-fair-2 have
    # none stored and keep drago-fair-1. The server's own, like `lifecycle`.
    fairness: Literal["drago-fair-1", "drago-fair-2"] = "drago-fair-1"


def parse_settings(raw: Mapping[str, JSON]) -> MatchSettings:
    """Decode and check user settings (raises `InvalidSettings`); `lifecycle` is the server's own."""
    for own in ("lifecycle", "fairness"):
        if own in raw:
            raise InvalidSettings(f"{own} is not a setting", own)
    try:
        settings = from_json(MatchSettings, dict(raw))
    except DecodeError as e:
        path = str(e).partition(": ")[0]
        raise InvalidSettings(str(e), path.removeprefix("$.").removeprefix("$")) from None
    clock = settings.clock
    if isinstance(clock, PerDecision):
        _within(clock.per_decision_s, 1, MAX_DECISION_S, "clock.per_decision_s")
    elif isinstance(clock, Bank):
        _within(clock.initial_s, 1, MAX_DECISION_S, "clock.initial_s")
        _within(clock.increment_s, 0, MAX_INCREMENT_S, "clock.increment_s")
    _within(settings.takeover_after, 1, MAX_TAKEOVER_AFTER, "takeover_after")
    return settings


def stored_settings(raw: Mapping[str, JSON]) -> MatchSettings:
    """The settings of a stored record (trusted: written by `to_json` of parsed settings)."""
    return from_json(MatchSettings, dict(raw)) if raw else MatchSettings()


def public_settings(settings: MatchSettings) -> dict[str, JSON]:
    """Everything a reader may see of the settings (all but the server's own `lifecycle` and
    `fairness`; the reveal names the latter)."""
    data: dict[str, JSON] = to_json(settings)
    del data["lifecycle"]
    del data["fairness"]
    return data


def _within(value: int, low: int, high: int, path: str) -> None:
    if not low <= value <= high:
        raise InvalidSettings(f"{path} must be from {low} to {high}", path)
