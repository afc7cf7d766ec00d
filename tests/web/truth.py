"""What a spectator may see, from a finished match's revealed log (`GET …/reveal`): the engine folds
the full, unredacted log into the true state at every seq, and its spectator view and redactions
say what is public. A page's snapshot at seq N (pages.snapshot) must show exactly the public zones
of that state, no hand at all, no face-down tile's value nor a hidden type, and in its history no
card beyond the spectator's redaction of each true event.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from typing import Any

from app.games.codec import to_json
from app.games.core import decode_event
from app.games.registry import GAMES


def _json(value: Any) -> Any:
    return json.loads(json.dumps(to_json(value)))


def card_id(card: dict[str, Any]) -> str:
    """As the page writes `data-card`: Mount Drago `dragon-value`, Yutakâ `kind-value`."""
    return f"{card.get('dragon', card.get('kind'))}-{card['value']}"


def _cards(value: Any) -> Iterator[str]:
    if isinstance(value, dict):
        if "value" in value and ("dragon" in value or "kind" in value):
            yield card_id(value)
            return
        for item in value.values():
            yield from _cards(item)
    elif isinstance(value, list):
        for item in value:
            yield from _cards(item)


class Truth:
    def __init__(self, reveal: dict[str, Any]) -> None:
        self.game = GAMES[reveal["game"]]
        self.states: dict[int, Any] = {}
        self.events: dict[int, Any] = {}
        state: Any = None
        for event in reveal["events"]:
            if event["type"] in self.game.event_types:
                decoded = decode_event(self.game, event["data"])
                self.events[event["seq"]] = decoded
                state = (
                    self.game.initial_state(decoded) if state is None else self.game.evolve(state, decoded)
                )
            self.states[event["seq"]] = state

    def public(self, seq: int) -> dict[str, Any]:
        view: dict[str, Any] = _json(self.game.view(self.states[seq], None))
        return view

    def last_played(self, seq: int) -> str | None:
        """The card of the newest `card_played` up to `seq` (public: a played card is face up)."""
        played = [e for s, e in self.events.items() if s <= seq and type(e).__name__ == "CardPlayed"]
        return card_id(_json(played[-1])["card"]) if played else None

    def public_event_cards(self, seq: int) -> Counter[str]:
        event = self.events.get(seq)
        return Counter() if event is None else Counter(_cards(_json(self.game.redact(event, None))))


def check_spectator(truth: Truth, shot: dict[str, Any]) -> None:
    """Everything the spectator page shows at `shot["seq"]` is public then; nothing else is."""
    seq = shot["seq"]
    public = truth.public(seq)
    assert shot["hand"] == 0, f"seq {seq}: the spectator's page shows a hand"
    for entry in shot["log"]:
        extra = Counter(entry["cards"]) - truth.public_event_cards(entry["seq"])
        assert not extra, f"history at seq {entry['seq']} shows hidden cards {dict(extra)}: {entry['text']}"
    if truth.game.info.name == "mount_drago":
        _check_mount_drago(public, shot)
        assert _zone(shot, "played") == ([truth.last_played(seq)] if truth.last_played(seq) else []), (
            f"seq {seq}"
        )
    else:
        _check_yutaka(public, shot)


def _zone(shot: dict[str, Any], zone: str) -> list[str]:
    return [card for z, card, _seat, _island in shot["board"] if z == zone]


def _check_mount_drago(public: dict[str, Any], shot: dict[str, Any]) -> None:
    seq = shot["seq"]
    assert {z for z, *_ in shot["board"]} <= {"rider-top", "discard", "pending", "played"}, (
        f"seq {seq}: {shot['board']}"
    )
    assert _zone(shot, "rider-top") == [card_id(p["top"]) for p in public["rider_piles"]], f"seq {seq}"
    assert _zone(shot, "discard") == [card_id(c) for c in public["discard_pile"]], f"seq {seq}"
    pending = [card_id(public["pending_card"])] if public["pending_card"] else []
    assert _zone(shot, "pending") == pending, f"seq {seq}"


def _check_yutaka(public: dict[str, Any], shot: dict[str, Any]) -> None:
    seq = shot["seq"]
    tiles = {(i["island"], t["slot"]): t for i in public["islands"] for t in i["tiles"]}
    assert len(shot["tiles"]) == len(tiles), f"seq {seq}"
    for shown in shot["tiles"]:
        true = tiles[(shown["island"], shown["slot"])]
        where = f"seq {seq}, island {shown['island']} slot {shown['slot']}"
        assert (shown["face"] == "up") == true["face_up"], where
        assert shown["type"] == true["type"], f"{where}: shows type {shown['type']}, public {true['type']}"
        shown_value = None if shown["value"] is None else int(shown["value"])
        assert shown_value == true["value"], f"{where}: shows value {shown['value']}"
        if not true["face_up"]:
            assert not any(ch.isdigit() for ch in shown["text"]), f"{where}: {shown['text']!r}"
    for isle in public["islands"]:
        for seat, cards in enumerate(isle["cards"]):
            on_page = [
                c
                for z, c, s, i in shot["board"]
                if z == "column" and s == str(seat) and i == str(isle["island"])
            ]
            assert on_page == [card_id(c) for c in cards], f"seq {seq}, island {isle['island']}, seat {seat}"
    assert {z for z, *_ in shot["board"]} <= {"column"}, f"seq {seq}: {shot['board']}"
    set_aside = [[t["type"], str(t["value"])] for t in public["set_aside"] or []]
    assert shot["setAside"] == set_aside, f"seq {seq}: set-aside tiles {shot['setAside']}, public {set_aside}"
