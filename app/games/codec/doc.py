"""`Doc`, the annotation that documents a field of a wire dataclass, and the JSON aliases.

A field written `value: Annotated[int, Doc("Printed value.", minimum=1, maximum=5)]` gets that
description in its JSON Schema, and the decoder enforces the bounds it names (`BOUNDS`): one
declaration feeds both directions, so a published schema cannot drift from what the server accepts.
Annotations nest: an alias such as `CardValue = Annotated[int, Doc(minimum=1, maximum=5)]` can be
annotated again at a field with its own text; the innermost keywords are overridden by outer ones.
`ONCE` is an encoding hint in the same place (see `Once`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Final

JSON = Any  # a value made of dict, list, str, int, float, bool and None, read without checks
JSONValue = None | bool | int | float | str | Sequence["JSONValue"] | Mapping[str, "JSONValue"]
"""A JSON value, exactly typed (read-only containers, so `dict[str, int]` is one too)."""
JSONObject = Mapping[str, JSONValue]

# The keywords the decoder enforces; any other keyword only goes into the schema.
BOUNDS: Final = ("minimum", "maximum", "minItems", "maxItems")


class Doc:
    """A description and extra JSON Schema keywords for one annotated type.

    Compared by identity (it is used inside `typing.Annotated`, whose hash must be cheap and stable).
    """

    __slots__ = ("keywords", "text")

    def __init__(self, text: str = "", **keywords: JSON) -> None:
        self.text = text
        self.keywords = keywords

    def __repr__(self) -> str:
        return f"Doc({self.text!r}, **{self.keywords!r})"


class Once:
    """Marker for `Annotated` members whose value is one long-lived object shown many times (a
    match's track or options in every view): the encoder memoizes its JSON by identity."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "ONCE"


ONCE: Final = Once()

PER_SEAT: Final = Doc("One entry per seat, in seat order.")
"""The description of a tuple with one entry per seat (`Annotated[tuple[int, ...], PER_SEAT]`)."""


def merged(metadata: Iterable[object]) -> Doc:
    """One `Doc` from every `Doc` in `metadata` (an `Annotated` type's extras); later ones win."""
    text = ""
    keywords: dict[str, JSON] = {}
    for item in metadata:
        if isinstance(item, Doc):
            text = item.text or text
            keywords.update(item.keywords)
    return Doc(text, **keywords)
