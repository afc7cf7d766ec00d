"""The training environments' observations and action ids, from the view JSON a seat receives.

A policy trained in the server's environments (`app.envs` of the server distribution: PettingZoo,
Gymnasium) reads a fixed-size list of numbers and answers an action id. This module builds the same
numbers from the view the server sends to a seat, and turns ids into actions, so such a policy
plays on a live server through this client:

    view = api.get_view(match_id, token=token)
    numbers, legal = observe(view), legal_ids(view)
    api.submit_action(match_id, action_for(view, policy(numbers, legal)), token=token)

`observe(view)` is the observation of the view's seat (floats, layouts in the server's docs,
docs/training.md); `legal_ids(view)` the ids of its legal actions (empty when it is not to act);
`mask(view)` the same as 0/1 over the game's action space; `action_for(view, id)` the action JSON
to submit. `view` is a `games.View` or its JSON (`wire.encode(view)`). Standard library only.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from drago_client.wire import encode

ACTIONS: Final = {"mount_drago": 116, "yutaka": 126}
OBSERVATION: Final = {"mount_drago": 340, "yutaka": 396}
CLIP: Final = 10.0

# Mount Drago (see docs/training.md for the layout).
DRAGONS: Final = (
    "blue", "brown", "black", "red", "yellow", "green", "gray", "light_blue", "purple", "orange",
)  # fmt: skip
MD_VALUES: Final = 5
MD_CODES: Final = len(DRAGONS) * MD_VALUES  # 50
MD_KEEP, MD_SWITCH, MD_END_TURN = 50, 51, 115
MD_DISCARD_BASE: Final = 51
MD_HAND: Final = 6
MD_SEATS: Final = 5
MD_KINDS: Final = ("start", "plain", "blue", "green", "summit")
MD_PHASES: Final = ("play", "choose_rider", "discard", "over")
MD_OPTIONS: Final = (
    "negative_floor",
    "explicit_end_turn",
    "refill_after_discard_empty",
    "zero_scoring_counts",
)
SUMMIT_SPACES: Final = 4

# Yutakâ.
YU_KINDS: Final = ("idol", "dagger", "amphora", "crystal", "equipment")
YU_TYPES: Final = 21
YU_DYNAMITE: Final = 20
YU_ISLANDS, YU_SLOTS = 5, 4
YU_REVEAL_BASE: Final = YU_TYPES * YU_ISLANDS  # 105
YU_END_TURN: Final = 125
YU_PER_SLOT: Final = 7
YU_PER_ISLAND: Final = YU_SLOTS * YU_PER_SLOT + 2 * YU_TYPES  # 70
YU_PHASES: Final = ("opening", "play", "confirm", "reveal", "over")
YU_MODES: Final = ("mysteria", "tactika", "mixed")


def _json(view: Any) -> Mapping[str, Any]:
    return view if isinstance(view, Mapping) else encode(view)


def _game(view: Mapping[str, Any]) -> str:
    game = view.get("game")
    if game not in ACTIONS:
        raise ValueError(f"no observation layout for the game {game!r}")
    return str(game)


def _seat(view: Mapping[str, Any]) -> int:
    seat = view.get("seat")
    if not isinstance(seat, int):
        raise ValueError("observations are per seat: this is a spectator's view")
    return seat


def observe(view: Any) -> list[float]:
    """The observation of the view's seat (the environments' layout for the view's game)."""
    v = _json(view)
    out = _mount_drago(v) if _game(v) == "mount_drago" else _yutaka(v)
    return [min(CLIP, max(-CLIP, x)) for x in out]


def _code(card: Mapping[str, Any]) -> int:
    return DRAGONS.index(card["dragon"]) * MD_VALUES + int(card["value"]) - 1


def _mount_drago(v: Mapping[str, Any]) -> list[float]:
    out = [0.0] * OBSERVATION["mount_drago"]
    me, players = _seat(v), v["players"]
    track = v["track"]
    last, summit = len(track) - 1, len(track) - SUMMIT_SPACES
    positions = [v["positions"][d] for d in DRAGONS]
    lowest = min(positions)
    rider_of = {DRAGONS.index(d): (s - me) % players for s, d in enumerate(v["riders"])}
    for i, p in enumerate(positions):
        at = i * 15
        out[at] = p / last
        out[at + 1] = float(p >= summit)
        out[at + 2] = track[p]["value"] / 8
        out[at + 3 + MD_KINDS.index(track[p]["kind"])] = 1.0
        out[at + 8 + rider_of.get(i, MD_SEATS)] = 1.0
        out[at + 14] = float(p == lowest)
    for card in v["hand"] or ():
        out[150 + _code(card)] += 1
    for s in range(players):
        at = 200 + ((s - me) % players) * 5
        out[at] = 1.0
        out[at + 1] = v["scores"][s] / 50
        out[at + 2] = v["hand_sizes"][s] / MD_HAND
        out[at + 3] = v["rider_piles"][s]["size"] / 20
        out[at + 4] = float(s == v["current_player"])
    out[225 + MD_PHASES.index(v["phase"])] = 1.0
    out[229] = float(me in v["to_act"])
    out[230] = v["draw_pile_size"] / 110
    for card in v["discard_pile"]:
        out[231 + _code(card)] += 1
    if v["pending_card"] is not None:
        out[281 + _code(v["pending_card"])] = 1.0
    out[331] = float(v["turn_scored"])
    for i, flag in enumerate(MD_OPTIONS):
        out[332 + i] = float(v["options"][flag])
    out[336 + players - 2] = 1.0
    return out


def _type(card: Mapping[str, Any]) -> int:
    if card["kind"] == "dynamite":
        return YU_DYNAMITE
    return YU_KINDS.index(card["kind"]) * 4 + int(card["value"]) - 1


def _yutaka(v: Mapping[str, Any]) -> list[float]:
    out = [0.0] * OBSERVATION["yutaka"]
    me = _seat(v)
    them = 1 - me
    for card in v["hand"] or ():
        out[_type(card)] += 1
    for island in v["islands"]:
        at = 21 + island["island"] * YU_PER_ISLAND
        for tile in island["tiles"]:
            slot = at + tile["slot"] * YU_PER_SLOT
            out[slot] = float(tile["face_up"])
            if tile["type"] is not None:
                out[slot + 1 + YU_KINDS.index(tile["type"])] = 1.0
            if tile["value"] is not None:
                out[slot + 6] = tile["value"] / 15
        columns = at + YU_SLOTS * YU_PER_SLOT
        for card in island["cards"][me]:
            out[columns + _type(card)] += 1
        for card in island["cards"][them]:
            out[columns + YU_TYPES + _type(card)] += 1
    out[371] = v["hand_sizes"][me] / 6
    out[372] = v["hand_sizes"][them] / 6
    out[373] = v["deck_sizes"][me] / 18
    out[374] = v["deck_sizes"][them] / 18
    out[375 + YU_PHASES.index(v["phase"])] = 1.0
    out[380] = float(me in v["to_act"])
    out[381] = float(v["turn"] == me)
    out[382] = float(v["first_player"] == me)
    out[383] = v["opening_reveals_left"] / 4
    out[384] = v["face_down"] / 20
    out[385] = v["cards_played"] / 48
    options = v["options"]
    out[386 + YU_MODES.index(options["mode"])] = 1.0
    for t in options["known_types"] or ():
        out[389 + YU_KINDS.index(t)] = 1.0
    out[394] = float(options["stacked"])
    out[395] = float(options["explicit_end_turn"])
    return out


def legal_ids(view: Any) -> list[int]:
    """The ids of the view's seat's legal actions, ascending (empty when it is not to act)."""
    v = _json(view)
    game = _game(v)
    if v.get("seat") not in v.get("to_act", ()):
        return []
    if game == "mount_drago" and v["phase"] == "discard":
        return [*_discards(v), MD_END_TURN]
    return sorted(_id_of(game, action) for action in v["legal_actions"])


def _discards(v: Mapping[str, Any]) -> list[int]:
    """Every set of summit cards of the hand (leftmost copies of equal cards), as discard ids."""
    summit = len(v["track"]) - SUMMIT_SPACES
    hand = [_code(card) for card in v["hand"]]
    usable = [v["positions"][DRAGONS[c // MD_VALUES]] >= summit for c in hand]
    ids = []
    for m in range(1, 1 << len(hand)):
        picked = [k for k in range(len(hand)) if m >> k & 1]
        if all(usable[k] and (k == 0 or hand[k - 1] != hand[k] or m >> (k - 1) & 1) for k in picked):
            ids.append(MD_DISCARD_BASE + m)
    return ids


def _id_of(game: str, action: Mapping[str, Any]) -> int:
    kind = action["type"]
    if game == "mount_drago":
        if kind == "play":
            return _code(action["card"])
        if kind == "choose_rider":
            return MD_KEEP if action["choice"] == "keep" else MD_SWITCH
        if kind == "end_turn":
            return MD_END_TURN
    elif kind == "play":
        return _type(action["card"]) * YU_ISLANDS + int(action["island"])
    elif kind == "reveal":
        return YU_REVEAL_BASE + int(action["island"]) * YU_SLOTS + int(action["slot"])
    elif kind == "end_turn":
        return YU_END_TURN
    raise ValueError(f"no action id for {dict(action)!r}")


def mask(view: Any) -> list[int]:
    """`legal_ids` as 0/1 over the game's whole action space."""
    v = _json(view)
    out = [0] * ACTIONS[_game(v)]
    for i in legal_ids(v):
        out[i] = 1
    return out


def action_for(view: Any, action_id: int) -> dict[str, Any]:
    """The action JSON of `action_id` for the view's seat (checked against its legal ids)."""
    v = _json(view)
    game = _game(v)
    if action_id not in legal_ids(v):
        raise ValueError(f"action {action_id} is not legal in this view (legal: {legal_ids(v)})")
    if game == "mount_drago":
        if action_id < MD_CODES:
            dragon, value = divmod(action_id, MD_VALUES)
            return {"type": "play", "card": {"dragon": DRAGONS[dragon], "value": value + 1}}
        if action_id in (MD_KEEP, MD_SWITCH):
            return {"type": "choose_rider", "choice": "keep" if action_id == MD_KEEP else "switch"}
        if action_id == MD_END_TURN:
            return {"type": "end_turn"}
        m = action_id - MD_DISCARD_BASE
        return {"type": "discard", "cards": [dict(c) for k, c in enumerate(v["hand"]) if m >> k & 1]}
    if action_id < YU_REVEAL_BASE:
        card_type, island = divmod(action_id, YU_ISLANDS)
        if card_type == YU_DYNAMITE:
            card = {"kind": "dynamite", "value": 0}
        else:
            card = {"kind": YU_KINDS[card_type // 4], "value": card_type % 4 + 1}
        return {"type": "play", "card": card, "island": island}
    if action_id == YU_END_TURN:
        return {"type": "end_turn"}
    island, slot = divmod(action_id - YU_REVEAL_BASE, YU_SLOTS)
    return {"type": "reveal", "island": island, "slot": slot}
