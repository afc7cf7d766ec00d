"""`Prose`: the hand-written explanations of one game's payloads (see `app.gamedocs.prose`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from app.games.codec import JSON


@dataclass(frozen=True)
class Prose:
    intro: str
    vocabulary: Mapping[str, str]  # a `$defs` name → what it is for
    view: str  # about the view as a whole
    members: Mapping[str, str]  # view member → what a client does with it
    actions: Mapping[str, str]  # action type → when and how
    events: Mapping[str, str]  # event type → what happened and what to do
    glossary: Mapping[str, str] = field(
        default_factory=dict
    )  # member name → meaning, where the schema has none
    constructed: Mapping[str, JSON] = field(default_factory=dict)  # events no real match produces
    variants: Mapping[str, str] = field(
        default_factory=dict
    )  # event type → a member worth one example per value
