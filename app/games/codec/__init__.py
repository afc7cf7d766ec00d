"""The JSON codec shared by every game: one declaration of a type, three uses.

Actions arrive as JSON from players, events are stored as JSON, views and redacted events leave as
JSON, and each of these payloads is published as a JSON Schema. All of it is derived here from the
games' frozen dataclasses: `to_json` encodes (`encode`), `from_json` and `decode_tagged` decode
with errors naming the path (`decode`), and `json_schema` writes the schema (`schema`). A tagged
dataclass declares `TYPE: ClassVar[str]`; its JSON form is an object whose `"type"` member names
it. Fields are documented and bounded with `Annotated[X, Doc(...)]` (`doc`).
"""

from app.games.codec.decode import DecodeError, by_tag, decode_tagged, from_json
from app.games.codec.doc import JSON, ONCE, PER_SEAT, Doc, JSONObject, JSONValue
from app.games.codec.encode import encode_once, to_json
from app.games.codec.memo import json_key, memo_json
from app.games.codec.schema import DRAFT, json_schema

__all__ = [
    "DRAFT",
    "JSON",
    "ONCE",
    "PER_SEAT",
    "DecodeError",
    "Doc",
    "JSONObject",
    "JSONValue",
    "by_tag",
    "decode_tagged",
    "encode_once",
    "from_json",
    "json_key",
    "json_schema",
    "memo_json",
    "to_json",
]
