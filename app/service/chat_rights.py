"""Who reads and writes which chat room of a match (docs/chat.md), and who is hidden from whom.

A match has two rooms. `players`: its seated players read and write it (by seat token or by a
player key holding a seat). `spectators`: anybody with a player key who holds no seat writes it,
and anybody who may watch the match (anonymous spectators included) reads it. Until the match
ends the seated players neither read nor write `spectators`, and nobody else reads `players`;
once it is over (`finished` or `aborted`) everyone who may watch reads both and the players write
both. A match created with `"spectator_chat": false` has no spectators' room: nobody reads it
and writing it is `chat_closed`. Rights are worked out from the match as committed at the moment
a message is read or written, so a spectator who takes a seat stops reading `spectators` at once.
"""

from __future__ import annotations

from dataclasses import dataclass

from app.matches.events import MatchAborted, MatchEnded, SeatJoined, SeatTakenOver
from app.service.auth import Caller, seat_in
from app.service.cache import Loaded
from app.service.chat_ports import ROOMS, ChatMessage, Room
from app.service.errors import Forbidden

OVER = ("finished", "aborted")
RIGHTS_EVENTS = frozenset(e.TYPE for e in (SeatJoined, SeatTakenOver, MatchEnded, MatchAborted))
"""Events after which a stream's readable rooms may differ: it reads its chat again."""


@dataclass(frozen=True, slots=True)
class Reader:
    """Who reads or writes: the seat held (None: a spectator) and the player, when known."""

    seat: int | None
    player_id: str | None
    name: str | None


def reader_of(loaded: Loaded, caller: Caller | None) -> Reader:
    """The caller as a chat participant of `loaded` (a seat token of another match is 403; a
    player key without a seat is a spectator with a name)."""
    if caller is None:
        return Reader(None, None, None)
    if caller.kind == "player":
        for held in loaded.seats:
            if held.player_id == caller.player_id:
                break
        else:
            return Reader(None, caller.player_id, None)
    seat = seat_in(loaded, caller)
    state = loaded.match.seats[seat]
    return Reader(seat, state.player_id, state.name)


def spectator_chat(loaded: Loaded) -> bool:
    """Whether the match has a spectators' room (its settings, decoded when it was loaded)."""
    return loaded.match.settings.spectator_chat


def readable(loaded: Loaded, reader: Reader) -> tuple[Room, ...]:
    """The rooms `reader` may read now, in `ROOMS` order."""
    over = loaded.match.status in OVER
    rooms: list[Room] = []
    if reader.seat is not None or over:
        rooms.append("players")
    if spectator_chat(loaded) and (reader.seat is None or over):
        rooms.append("spectators")
    return tuple(r for r in ROOMS if r in rooms)


def writable(loaded: Loaded, reader: Reader) -> tuple[Room, ...]:
    """The rooms `reader` may write now (a closed spectators' room included: that is `chat_closed`)."""
    over = loaded.match.status in OVER
    if reader.seat is not None:
        return ("players", "spectators") if over else ("players",)
    return ("spectators",) if reader.player_id is not None else ()


def check_writable(loaded: Loaded, reader: Reader, room: Room) -> None:
    if room not in writable(loaded, reader):
        who = "a seated player" if reader.seat is not None else "a spectator"
        if reader.seat is None and reader.player_id is None:
            who = "an anonymous spectator"
        raise Forbidden(f"{who} may not write in the {room} room now", {"field": "room", "room": room})


def shown(message: ChatMessage, hidden: frozenset[str]) -> bool:
    """Whether a message reaches a reader who hides the players in `hidden` (blocked or banned)."""
    return message.author_player_id is None or message.author_player_id not in hidden
