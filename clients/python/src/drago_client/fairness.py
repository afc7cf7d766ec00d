"""An independent verifier of `drago-fair-2` matches, written from docs/fairness.md (standard library only).

    from drago_client.fairness import verify
    verdict = verify(reveal, catalogue)   # GET …/reveal and GET /v1/games/{game}'s `catalogue`
    verdict.ok, verdict.field, verdict.message

It checks the commitment, the seats' seeds against their `seat_joined` events, re-deals the match
from the revealed seeds and the catalogue, and follows every later random outcome in the log (Mount
Drago's draws and reshuffles, Yutakâ's draws and revealed tiles), returning the first mismatch by name.
`python -m drago_client verify <server> <match>` runs it on a finished match.
"""

from __future__ import annotations

import hashlib
import hmac
from collections import Counter
from collections.abc import Mapping, MutableSequence, Sequence
from dataclasses import dataclass
from typing import Any, Final

__all__ = ["ALGORITHM", "Stream", "Verdict", "combined_seed", "commitment", "deal", "verify"]

ALGORITHM: Final = "drago-fair-2"
HAND: Final = 6  # Mount Drago's hand size and Yutakâ's opening hand
SLOTS: Final = 4  # Yutakâ's tiles per island
_U32: Final = 1 << 32


def _u32(n: int) -> bytes:
    return n.to_bytes(4, "big")


def _text(s: str) -> bytes:
    raw = s.encode("utf-8")
    return _u32(len(raw)) + raw


def commitment(server_seed: bytes) -> str:
    return hashlib.sha256(server_seed + ALGORITHM.encode("utf-8")).hexdigest()


def combined_seed(server_seed: bytes, match_id: str, seeds: Sequence[str]) -> bytes:
    message = _text(match_id) + _u32(len(seeds)) + b"".join(_text(s) for s in seeds)
    return hmac.new(server_seed, message, hashlib.sha256).digest()


class Stream:
    """The byte stream of one decision: HMAC-SHA256(combined, text(context) ‖ u32(block))…"""

    def __init__(self, combined: bytes, context: str) -> None:
        self.combined, self.context = combined, _text(context)
        self.counter, self.buffer = 0, b""

    def block(self, counter: int) -> bytes:
        return hmac.new(self.combined, self.context + _u32(counter), hashlib.sha256).digest()

    def word(self) -> int:
        if len(self.buffer) < 4:  # blocks are 32 bytes: words never straddle two blocks
            self.buffer = self.block(self.counter)
            self.counter += 1
        w, self.buffer = int.from_bytes(self.buffer[:4], "big"), self.buffer[4:]
        return w

    def uniform(self, n: int) -> int:
        limit = _U32 - _U32 % n
        while True:
            w = self.word()
            if w < limit:
                return w % n

    def shuffle(self, items: MutableSequence[Any]) -> None:
        for i in range(len(items) - 1, 0, -1):
            j = self.uniform(i + 1)
            items[i], items[j] = items[j], items[i]


@dataclass(frozen=True, slots=True)
class Verdict:
    """`ok`, or the first field that differs (`field`, e.g. `game_started.hands[1][3]`) and why."""

    ok: bool
    algorithm: str
    field: str | None = None
    message: str = "deal verified"


class Mismatch(Exception):
    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field, self.message = field, message


def _first_difference(path: str, expected: Any, got: Any) -> str | None:
    if isinstance(expected, Mapping) and isinstance(got, Mapping):
        for key in expected:
            if key not in got:
                return f"{path}.{key}"
            d = _first_difference(f"{path}.{key}", expected[key], got[key])
            if d is not None:
                return d
        return None
    if isinstance(expected, list) and isinstance(got, list):
        for i, (e, g) in enumerate(zip(expected, got, strict=False)):
            d = _first_difference(f"{path}[{i}]", e, g)
            if d is not None:
                return d
        return None if len(expected) == len(got) else path
    return None if expected == got else path


# The deals (docs/fairness.md §5)


def _drago_deck(catalogue: Mapping[str, Any]) -> list[dict[str, Any]]:
    values = sorted(catalogue["cards"]["values_per_dragon"])
    return [{"dragon": d, "value": v} for d in catalogue["dragons"] for v in values]


def _deal_drago(
    s: Stream, players: int, options: Mapping[str, Any], cat: Mapping[str, Any]
) -> dict[str, Any]:
    deck = _drago_deck(cat)
    s.shuffle(deck)
    riders: list[dict[str, Any]] = []
    aside: list[dict[str, Any]] = []
    i = 0
    while len(riders) < players:
        card = deck[i]
        i += 1
        (aside if any(r["dragon"] == card["dragon"] for r in riders) else riders).append(card)
    rest = deck[i:] + aside
    if aside:
        s.shuffle(rest)
    first = options.get("first_player")
    return {
        "riders": riders,
        "hands": [rest[k * HAND : (k + 1) * HAND] for k in range(players)],
        "draw_pile": rest[players * HAND :],
        "first_player": s.uniform(players) if first is None else first,
    }


def _deal_yutaka(
    s: Stream, players: int, options: Mapping[str, Any], cat: Mapping[str, Any]
) -> dict[str, Any]:
    decks = []
    for _ in range(players):
        deck = [dict(c) for c in cat["deck"]]
        s.shuffle(deck)
        decks.append(deck)
    values = options["tile_values"]
    tiles = [{"type": t["type"], "value": v} for t in cat["tile_types"] for v in sorted(values[t["type"]])]
    s.shuffle(tiles)
    islands = len(cat["islands"])
    first = options["first_player"]
    return {
        "decks": decks,
        "islands": [tiles[k * SLOTS : (k + 1) * SLOTS] for k in range(islands)],
        "set_aside": tiles[islands * SLOTS :],
        "first_player": s.uniform(players) if first == "random" else first,
    }


_DEALS: Final = {"mount_drago": _deal_drago, "yutaka": _deal_yutaka}


def deal(
    game: str, combined: bytes, players: int, options: Mapping[str, Any], catalogue: Mapping[str, Any]
) -> dict[str, Any]:
    """The members of `game_started` that chance decides, re-dealt from the combined seed."""
    return _DEALS[game](Stream(combined, "deal"), players, options, catalogue)


# The verification


def verify(reveal: Mapping[str, Any], catalogue: Mapping[str, Any]) -> Verdict:
    """Verify a revealed match (`GET …/reveal`) against the game's `catalogue`."""
    algorithm = str(reveal.get("algorithm"))
    try:
        _verify(reveal, catalogue)
    except Mismatch as m:
        return Verdict(False, algorithm, m.field, m.message)
    return Verdict(True, algorithm)


def _verify(reveal: Mapping[str, Any], catalogue: Mapping[str, Any]) -> None:
    if reveal.get("algorithm") != ALGORITHM:
        raise Mismatch(
            "algorithm", f"only {ALGORITHM} matches can be re-dealt, not {reveal.get('algorithm')}"
        )
    try:
        server = bytes.fromhex(reveal["secret"])
    except (ValueError, TypeError):
        raise Mismatch("secret", "the server seed is not hex") from None
    if len(server) != 32 or commitment(server) != reveal["commitment"]:
        raise Mismatch("secret", "the server seed does not match the commitment")
    players = reveal["players"]
    seeds = reveal["seat_seeds"]
    if not isinstance(seeds, list) or len(seeds) != players:
        raise Mismatch("seat_seeds", f"expected {players} seeds")
    events = reveal["events"]
    joined: set[int] = set()
    started = None
    for e in events:
        data = e["data"]
        if e["type"] == "seat_joined":
            seat = data["seat"]
            if data.get("seed") != seeds[seat]:
                raise Mismatch(
                    f"seat_seeds[{seat}]", f"seat {seat}'s seed differs from its seat_joined (seq {e['seq']})"
                )
            joined.add(seat)
        elif e["type"] == "game_started":
            started = e
            break
    if started is None:
        if reveal["outcome"].get("reason") == "aborted":
            return  # never dealt
        raise Mismatch("events", "no game_started event")
    if joined != set(range(players)):
        raise Mismatch(f"seq {started['seq']} game_started", "the deal came before every seat had joined")
    combined = combined_seed(server, reveal["match_id"], seeds)
    game = reveal["game"]
    dealt = started["data"]
    expected = deal(game, combined, players, dealt["options"], catalogue)
    where = _first_difference("game_started", expected, {k: dealt.get(k) for k in expected})
    if where is not None:
        raise Mismatch(where, f"the deal differs from the one the seeds give ({where})")
    if game == "mount_drago":
        _follow_drago(events, started, combined, {d: i for i, d in enumerate(catalogue["dragons"])})
    elif game == "yutaka":
        _follow_yutaka(events, started)


def _follow_drago(
    events: Sequence[Mapping[str, Any]], started: Mapping[str, Any], combined: bytes, order: Mapping[str, int]
) -> None:
    """Every draw takes the pile's top; every reshuffle is the pool in canonical order, shuffled with
    the stream of its decision (one stream per commit, read on by a second reshuffle)."""
    dealt = started["data"]
    everything = dealt["riders"] + [c for h in dealt["hands"] for c in h] + dealt["draw_pile"]
    full = Counter((c["dragon"], c["value"]) for c in everything)
    pile = [(c["dragon"], c["value"]) for c in dealt["draw_pile"]]
    hands = [Counter((c["dragon"], c["value"]) for c in h) for h in dealt["hands"]]
    tops = [(c["dragon"], c["value"]) for c in dealt["riders"]]
    discards: Counter[tuple[str, int]] = Counter()
    firsts: dict[int, int] = {}
    for e in events:
        firsts.setdefault(e["commit"], e["seq"])
    streams: dict[int, Stream] = {}
    for e in events:
        if e["seq"] <= started["seq"]:
            continue
        data, kind, seq = e["data"], e["type"], e["seq"]
        if kind == "card_played":
            hands[data["seat"]][(data["card"]["dragon"], data["card"]["value"])] -= 1
        elif kind == "rider_settled" and data["result"] in ("on_top", "switched"):
            tops[data["seat"]] = (data["card"]["dragon"], data["card"]["value"])
        elif kind == "cards_discarded":
            for c in data["cards"]:
                hands[data["seat"]][(c["dragon"], c["value"])] -= 1
                discards[(c["dragon"], c["value"])] += 1
        elif kind == "cards_drawn":
            for i, c in enumerate(data["cards"]):
                card = (c["dragon"], c["value"])
                if not pile or pile[0] != card:
                    raise Mismatch(
                        f"seq {seq} cards_drawn.cards[{i}]", "a drawn card is not the top of the draw pile"
                    )
                pile.pop(0)
                hands[data["seat"]][card] += 1
        elif kind == "draw_pile_reshuffled":
            got = [(c["dragon"], c["value"]) for c in data["draw_pile"]]
            pool = full - sum(hands, Counter()) - Counter(tops) - Counter(pile)
            if not data["summit_discards"]:
                pool -= discards
            if Counter(got) != pool:
                raise Mismatch(
                    f"seq {seq} draw_pile_reshuffled.draw_pile", "the reshuffled cards are not the pool"
                )
            canonical = sorted(got, key=lambda card: (order[card[0]], card[1]))
            stream = streams.setdefault(e["commit"], Stream(combined, f"seq:{firsts[e['commit']] - 1}"))
            stream.shuffle(canonical)
            where = _first_difference(f"seq {seq} draw_pile_reshuffled.draw_pile", canonical, got)
            if where is not None:
                raise Mismatch(where, "the reshuffle's order is not the one the seeds give")
            pile = got
            if data["summit_discards"]:
                discards = Counter()


def _follow_yutaka(events: Sequence[Mapping[str, Any]], started: Mapping[str, Any]) -> None:
    dealt = started["data"]
    drawn = [HAND] * len(dealt["decks"])
    for e in events:
        if e["seq"] <= started["seq"]:
            continue
        data, kind, seq = e["data"], e["type"], e["seq"]
        if kind == "card_drawn":
            seat = data["seat"]
            deck = dealt["decks"][seat]
            if drawn[seat] >= len(deck) or deck[drawn[seat]] != data["card"]:
                raise Mismatch(
                    f"seq {seq} card_drawn.card", f"seat {seat} drew a card that is not the next of its deck"
                )
            drawn[seat] += 1
        elif kind == "tile_revealed" and dealt["islands"][data["island"]][data["slot"]] != data["tile"]:
            raise Mismatch(f"seq {seq} tile_revealed.tile", "a revealed tile is not the one dealt there")
