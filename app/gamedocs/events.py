"""The events sections of a game page: commits, then every event type in each form it is received.

An event type may reach readers in several forms (`cards_drawn` with the cards for the seat that
drew, with a count for everybody else, as stored in the reveal): each form is an alternative of the
served `event` schema. For each form the page shows who received it in the captured matches, its
members and the first real example. A form nobody received is an error, unless the game's prose
holds a constructed example of that event (one no real match produces).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Final

from app.gamedocs.capture import Capture, Seen
from app.gamedocs.prose import MATCH, Prose
from app.gamedocs.sections import Doc, code, json_block, members_of
from app.gamedocs.words import form_of
from app.games.codec import JSON
from app.games.registry import GAMES

HEADINGS: Final = ("Match-level events",)
"""Second-level headings of this module besides "Events" (for the contents)."""
READERS: Final = {"reveal": "the reveal", "spectator": "a spectator"}
MIN_REPLY: Final = 3
"""The example reply is the first with at least this many events."""


def sections(doc: Doc, prose: Prose, capture: Capture) -> str:
    alternatives = doc.alternatives()
    glossary = {**MATCH.glossary, **prose.glossary}
    game_types = list(GAMES[capture.game].event_types)
    reply = next(r for r in capture.replies if len(r["events"]) >= MIN_REPLY)
    out = [
        "## Events",
        "Everything that happens to a match is an event with a `seq` (1, 2, 3… without gaps), a `type`, "
        "its `data` (whose `type` is the same), `recorded_at` and `commit`: the seq of the last event of "
        "the commit (the one request) it belongs to. History pages (`GET …/events`), action replies and "
        "`commit` frames carry them; every reader receives each event in the form it may see. "
        + doc.schema.get("description", ""),
        f"An action reply with its commit of {len(reply['events'])} events (its `view`, the seat's new "
        "view, left out):",
        json_block({"seq": reply["seq"], "events": reply["events"]}),
        *_types(game_types, alternatives, prose.events, prose, capture, glossary),
        "## Match-level events",
        "The same in every game: seats, the start, resignations, clocks, the host's decisions, the end "
        "and turn drafts. They share the match's stream and seqs with the game's events.",
        *_types(list(MATCH.events), alternatives, MATCH.events, MATCH, capture, glossary),
    ]
    return "\n\n".join(out)


def _types(
    types: list[str],
    alternatives: Mapping[str, Mapping[str, JSON]],
    texts: Mapping[str, str],
    prose: Prose,
    capture: Capture,
    glossary: Mapping[str, str],
) -> Iterator[str]:
    for kind in types:
        if not texts.get(kind):
            raise ValueError(f"no text for event {kind}: add it to app/gamedocs/prose/")
        yield f"### {code(kind)}"
        yield texts[kind]
        forms = {n: a for n, a in alternatives.items() if a["properties"]["type"]["const"] == kind}
        for name, schema in forms.items():
            who, example = _example_of(kind, name, forms, prose, capture)
            described = f" — {schema['description']}" if schema.get("description") else ""
            yield f"**{code(name)}**{described} {who}"
            yield members_of(schema, glossary)
            yield json_block(example)
        field = prose.variants.get(kind) or MATCH.variants.get(kind)
        if field is not None:
            yield from _variants(kind, field, capture)


def _received(kind: str, capture: Capture) -> Iterator[tuple[Seen, str, JSON]]:
    for seen in capture.events:
        for reader, data in seen.forms.items():
            if data.get("type") == kind:
                yield seen, reader, data


def _example_of(
    kind: str, name: str, forms: Mapping[str, Mapping[str, JSON]], prose: Prose, capture: Capture
) -> tuple[str, JSON]:
    """Who received the form `name` of `kind` (in the first event that had it), and its data."""
    for seen, _, data in _received(kind, capture):
        if form_of(data, forms) == name:
            readers = [
                r for r, d in seen.forms.items() if d.get("type") == kind and form_of(d, forms) == name
            ]
            return _who(readers, seen), data
    if kind in prose.constructed:
        return "No real match produces it: a constructed example.", prose.constructed[kind]
    raise ValueError(f"no {kind} event reached anybody as {name} in the captured matches")


def _who(readers: list[str], seen: Seen) -> str:
    where = f"(the {seen.scenario} match, seq {seen.seq})"
    names = ", ".join(READERS.get(r, r) for r in readers)
    if set(readers) == set(seen.forms):
        return f"Every reader received it so: {names} {where}."
    return f"Received so by {names} {where}; the others received another form."


def _variants(kind: str, field: str, capture: Capture) -> Iterator[str]:
    """One more example for each other value of `field` (say, each reason a match ended for)."""
    shown: dict[JSON, JSON] = {}
    for _, _, data in _received(kind, capture):
        shown.setdefault(data[field], data)
    others = list(shown.values())[1:]
    if others:
        yield f"With other values of {code(field)}:"
        yield from (json_block(data) for data in others)
