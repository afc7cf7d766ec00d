"""What both clients share: each API request described once (`Calls` builds a `Call`), and the
reading of a response into JSON or a `DragoError`. No I/O here; `client.py` sends the calls.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote

import httpx

from clients.drago_client.errors import DragoError, error_from_envelope

JSON = dict[str, Any]


@dataclass(frozen=True)
class SeatToken:
    """A joined seat and its secret bearer token (the server shows it only once)."""

    match_id: str
    seat: int
    token: str = field(repr=False)  # a secret: kept out of reprs and logs


@dataclass(frozen=True)
class Call:
    """One HTTP request, independent of sync or async."""

    method: str
    path: str
    params: dict[str, Any] = field(default_factory=dict)
    json: Any = None
    headers: dict[str, str] = field(default_factory=dict)

    def request(self) -> dict[str, Any]:
        """Keyword arguments for `httpx.Client.request` (and its async twin)."""
        return {
            "method": self.method,
            "url": self.path,
            "params": self.params,
            "json": self.json,
            "headers": self.headers,
        }


def read(response: httpx.Response) -> JSON:
    """The JSON object of a success; a `DragoError` subclass for anything else."""
    try:
        body = response.json()
    except ValueError:
        body = None
    if response.is_success and isinstance(body, dict):
        return body
    if response.is_success:
        raise DragoError("http_error", "the server's answer is not a JSON object", response.text[:200], 0)
    raise error_from_envelope(body if body is not None else response.text[:200], response.status_code)


def seat_token(body: Any) -> SeatToken:
    return SeatToken(match_id=body["match_id"], seat=body["seat"], token=body["token"])


def _match(match_id: str) -> str:
    return f"/v1/matches/{quote(match_id, safe='')}"


class Calls:
    """The requests of the API, shared by both clients; `token` is the client's default."""

    def __init__(self, token: str | None) -> None:
        self.token = token

    def _auth(self, token: str | None) -> dict[str, str]:
        chosen = token if token is not None else self.token
        return {} if chosen is None else {"Authorization": f"Bearer {chosen}"}

    def _list_games(self) -> Call:
        return Call("GET", "/v1/games")

    def _get_game(self, name: str) -> Call:
        return Call("GET", f"/v1/games/{quote(name, safe='')}")

    def _create_match(self, game: str, players: int, options: JSON | None, bots: list[int] | None) -> Call:
        body = {"game": game, "players": players, "options": options or {}, "bots": bots or []}
        return Call("POST", "/v1/matches", json=body)

    def _list_matches(
        self, status: str | None, game: str | None, limit: int | None, offset: int | None
    ) -> Call:
        params = {"status": status, "game": game, "limit": limit, "offset": offset}
        return Call("GET", "/v1/matches", params={k: v for k, v in params.items() if v is not None})

    def _join_seat(self, match_id: str, seat: int, name: str) -> Call:
        return Call("POST", f"{_match(match_id)}/seats/{seat}", json={"name": name})

    def _get_match(self, match_id: str) -> Call:
        return Call("GET", _match(match_id))

    def _get_view(self, match_id: str, at: int | None, token: str | None) -> Call:
        params = {} if at is None else {"at": at}
        return Call("GET", f"{_match(match_id)}/view", params=params, headers=self._auth(token))

    def _submit_action(
        self, match_id: str, action: JSON, expected_seq: int | None, key: str | None, token: str | None
    ) -> Call:
        headers = self._auth(token)
        if key is not None:
            headers["Idempotency-Key"] = key
        body = {"action": action, "expected_seq": expected_seq}
        return Call("POST", f"{_match(match_id)}/actions", json=body, headers=headers)

    def _list_events(self, match_id: str, after: int, limit: int | None, token: str | None) -> Call:
        params: dict[str, Any] = {"after": after} if limit is None else {"after": after, "limit": limit}
        return Call("GET", f"{_match(match_id)}/events", params=params, headers=self._auth(token))

    def _reveal(self, match_id: str) -> Call:
        return Call("GET", f"{_match(match_id)}/reveal")
