"""The published match envelope (`app.matches.contract.Envelope`) documents exactly the members a
view carries besides the game's state (`app.matches.views.View`), in the same order."""

from __future__ import annotations

import dataclasses

from app.matches.contract import Envelope
from app.matches.views import ENVELOPE_FIELDS, View


def test_the_envelope_documents_exactly_the_views_members_besides_state() -> None:
    view_fields = [f.name for f in dataclasses.fields(View) if f.name != "state"]
    envelope_fields = [f.name for f in dataclasses.fields(Envelope)]
    assert view_fields == envelope_fields
    assert tuple(view_fields) == ENVELOPE_FIELDS
