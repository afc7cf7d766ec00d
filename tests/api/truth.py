"""The hidden truth of a finished match, from its revealed log, and the checks that every response
and frame a viewer received shows only what that viewer may know.

`Truth` folds the revealed (unredacted) log commit by commit, as the server's own fold does, so
it knows the match at every position anyone saw: a viewer's view at seq N must be exactly
`view_of(match at N, viewer)`, an event exactly its redaction for the viewer. Independently of
that oracle, `check_secrets` looks for what must never show (another seat's hand, committed or
drafted; the deck order; a face-down value; a credential), and `check_draft_privacy` checks that
another seat's open turn draft changes nothing a viewer sees but the seq: its view equals the
view it had before the draft began, and the draft's events reach it as `draft_changed` naming only
the seat.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from app.games.codec import JSON, to_json
from app.games.registry import GAMES
from app.matches.fold import Match, fold, new_match
from app.matches.settings import stored_settings
from app.matches.views import record_of, view_of

Record = tuple[int | None, str, Any]
"""(viewer seat or None, kind, JSON body) of one response or frame a viewer received."""

SUMMARY_KEYS = {
    "id", "game", "players", "options", "settings", "status", "seq", "to_act", "clock", "scores",
    "winners", "commitment", "created_at", "updated_at", "seats", "visibility",
}  # fmt: skip
NEVER = {"secret", "draw_pile", "decks", "token", "token_hash", "host_token", "host_token_hash", "invite"}
PRIVATE_DRAFT = ("draft_step", "draft_undone")


def normal(value: Any) -> Any:
    return json.loads(json.dumps(value))


def walk(value: Any) -> Iterator[Any]:
    yield value
    if isinstance(value, dict):
        for v in value.values():
            yield from walk(v)
    elif isinstance(value, list):
        for v in value:
            yield from walk(v)


def multiset(items: list[Any]) -> list[str]:
    return sorted(json.dumps(i, sort_keys=True) for i in items)


@dataclass(frozen=True, slots=True)
class Envelope:
    seq: int
    type: str
    data: dict[str, JSON]
    recorded_at: datetime
    commit: int


class Truth:
    """A finished match as the server folded it, at every commit boundary of its revealed log."""

    def __init__(self, summary: Any, revealed: Any) -> None:
        self.game = GAMES[summary["game"]]
        self.players: int = summary["players"]
        settings = stored_settings({**summary["settings"], "lifecycle": True})
        match = new_match(summary["id"], self.game, self.players, settings)
        self.envelopes = [
            Envelope(e["seq"], e["type"], e["data"], datetime.fromisoformat(e["recorded_at"]), e["commit"])
            for e in revealed["events"]
        ]
        self.at: dict[int, Match] = {}
        self._undrafted: dict[int, int] = {}  # commit → the last commit up to it with no open draft
        group: list[Envelope] = []
        undrafted = 0
        for env in self.envelopes:
            group.append(env)
            if env.seq == env.commit:
                match = fold(match, group)
                self.at[env.seq] = match
                if match.draft is None:
                    undrafted = env.seq
                self._undrafted[env.seq] = undrafted
                group = []
        assert not group, "the log ends inside a commit"
        self.final = match

    @property
    def seq(self) -> int:
        return self.final.seq

    def commits(self) -> list[int]:
        return sorted(self.at)

    def view(self, seq: int, seat: int | None) -> Any:
        assert seq in self.at, f"seq {seq} does not end a commit"
        return normal(view_of(self.at[seq], seat).to_json())

    def event(self, seq: int, seat: int | None) -> Any:
        return normal(record_of(self.game, self.envelopes[seq - 1], seat).to_json()["data"])

    def hands(self, seq: int, seat: int) -> list[list[Any]]:
        """`seat`'s hand at `seq`: as committed and, with an open draft, as drafted."""
        match = self.at[seq]
        out = []
        drafted = match.state_for(seat)
        for state in (match.state, drafted) if drafted is not match.state else (match.state,):
            hand = normal(to_json(self.game.view(state, seat))).get("hand")
            if hand is not None:
                out.append(hand)
        return out

    def draft_base(self, seq: int) -> tuple[int, int] | None:
        """(the drafting seat, the last commit before its open draft began) at `seq`, if a draft is open."""
        draft = self.at[seq].draft
        if draft is None:
            return None
        return draft.seat, self._undrafted[seq]


def check_secrets(truth: Truth, viewer: int | None, seq: int, body: Any, finished: bool) -> None:
    """Nothing in `body` (received by `viewer` when the match was at `seq`) that it may not know."""
    others = [o for o in range(truth.players) if o != viewer]
    hidden = [multiset(h) for o in others for h in truth.hands(seq, o) if len(h) >= 3]
    own = [multiset(h) for h in truth.hands(seq, viewer)] if viewer is not None else []
    for node in walk(body):
        if isinstance(node, dict):
            assert not NEVER & set(node), node
            if "hands" in node:  # a deal redacted for the viewer
                assert all(h is None for i, h in enumerate(node["hands"]) if i != viewer), node
            if node.get("type") in ("cards_drawn", "card_drawn") and node.get("seat") != viewer:
                assert "cards" not in node and "card" not in node, node
            if node.get("face_up") is False:
                assert node.get("value") is None, node
            if node.get("set_aside") is not None:
                assert finished, node
            if node.get("type") in PRIVATE_DRAFT and "data" not in node:  # a payload, not its envelope
                assert node.get("seat") == viewer, f"another seat's draft reached {viewer}: {node}"
            if node.get("type") == "draft_changed" and "data" not in node:
                assert set(node) == {"type", "seat"} and node["seat"] != viewer, node
        elif isinstance(node, list) and len(node) >= 3:
            ms = multiset(node)
            assert ms in own or ms not in hidden, f"another seat's hand reached seat {viewer}"


def strip_seq(view: Any) -> Any:
    return {k: v for k, v in view.items() if k != "seq"}


def check_draft_privacy(truth: Truth, viewer: int | None, view: Any) -> None:
    """While another seat drafts, `viewer` sees exactly what it saw before that draft began."""
    base = truth.draft_base(view["seq"])
    if base is None or base[0] == viewer:
        return
    assert strip_seq(view) == strip_seq(truth.view(base[1], viewer)), (viewer, view["seq"])


def check_view(truth: Truth, viewer: int | None, view: Any) -> None:
    seq = view["seq"]
    assert normal(view) == truth.view(seq, viewer), (viewer, seq)
    check_secrets(truth, viewer, seq, view, view["status"] in ("finished", "aborted"))
    check_draft_privacy(truth, viewer, view)


def check_event(truth: Truth, viewer: int | None, event: Any) -> None:
    seq = event["seq"]
    assert normal(event["data"]) == truth.event(seq, viewer), (viewer, event)
    assert event["commit"] == truth.envelopes[seq - 1].commit
    commit = truth.envelopes[seq - 1].commit
    check_secrets(truth, viewer, commit, event, event["type"] in ("game_ended", "match_ended"))
    if truth.envelopes[seq - 1].type in PRIVATE_DRAFT and truth.envelopes[seq - 1].data["seat"] != viewer:
        owner = truth.envelopes[seq - 1].data["seat"]
        assert event["data"] == {"type": "draft_changed", "seat": owner}, event


def verify(truth: Truth, records: list[Record]) -> int:
    """Check every recorded response; returns how many views and events were checked."""
    checked = 0
    for viewer, kind, body in records:
        if kind == "summary":
            assert set(body) == SUMMARY_KEYS
            assert not NEVER & {k for node in walk(body) if isinstance(node, dict) for k in node}
            continue
        if kind == "error":
            assert set(body) == {"error"} and not NEVER & set(json.dumps(body).split('"'))
            continue
        views = [body] if kind == "view" else [body["view"]] if kind == "reply" else []
        events = body["events"] if kind in ("reply", "events") else []
        for view in views:
            check_view(truth, viewer, view)
        for event in events:
            check_event(truth, viewer, event)
        checked += len(views) + len(events)
    return checked
