"""`commit_records`: a commit's events redacted for a viewer, the same records `record_of` gives,
never those of other events; encoded once per (state, viewer) by the service's cache
(`Renderings.commit_json`), shared by the actor's reply and its stream frame."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import orjson
import pytest

from app.games.codec import to_json
from app.matches import decide
from app.matches.fold import advance
from app.matches.views import commit_records, record_of
from app.service.cache import Renderings
from app.service.ports import StoredEvent
from tests.service.test_evolve_once import AT, started


def test_a_commits_records_are_built_once_per_viewer_and_match_record_of() -> None:
    rng = random.Random(3)
    after = started("mount_drago", 2, 3)
    events: list[Any] = []
    while len(events) < 2:  # a commit of several events (a card played, then a card drawn…)
        before, seat = after, after.to_act[0]
        action = to_json(rng.choice(before.game.legal_actions(before.state, seat)))
        events = list(decide.act(before, seat, action, random.Random(1)).events)
        after = advance(before, events, AT)
    first = before.seq + 1
    stored = [StoredEvent("m", first + i, e.TYPE, to_json(e), AT, after.seq, e) for i, e in enumerate(events)]
    renderings = Renderings()
    for viewer in (0, 1, None):
        records = commit_records(after, stored, viewer, [e.decoded for e in stored])
        assert records == tuple(record_of(after.game, e, viewer) for e in stored)
        assert commit_records(after, stored, viewer) == records
        encoded = renderings.commit_json(after, stored, viewer, [e.decoded for e in stored])
        assert orjson.loads(encoded) == [r.to_json() for r in records]
        assert renderings.commit_json(after, stored, viewer) is encoded  # encoded once
        # What the viewer sees whole is the JSON committed, not encoded again; what it may not
        # see is encoded from the redacted event (compared with `record_of` above either way).
        for record, event in zip(records, stored, strict=True):
            redacted = after.game.redact(event.decoded, viewer) is not event.decoded
            assert (record.data is event.data) is not redacted
    tail = commit_records(after, stored[1:], 0)  # a commit's tail is not the whole commit
    assert tail == tuple(record_of(after.game, e, 0) for e in stored[1:])
    with pytest.raises(ValueError, match="do not end"):
        commit_records(before, stored, 0)  # not the commit that made this state
    with pytest.raises(ValueError, match="do not end"):
        commit_records(after, [], 0)
    given = Renderings()  # the records a caller built already are encoded, not built again
    mine = commit_records(after, stored, 0)
    assert given.commit_json(after, stored, 0, records=mine[:1]) == orjson.dumps([mine[0].to_json()])


def test_renderings_keep_each_matchs_newest_state_only() -> None:
    """A newer state replaces its match's older one; an older state asked for afterwards is built
    again, equal to the first build (renderings are pure), and does not displace the newer one."""
    rng = random.Random(5)
    first = started("mount_drago", 2, 3)
    seat = first.to_act[0]
    action = to_json(rng.choice(first.game.legal_actions(first.state, seat)))
    second = advance(first, list(decide.act(first, seat, action, random.Random(2)).events), AT)
    renderings = Renderings(states=1)
    old = renderings.view(first, 0)
    assert renderings.view(first, 0) is old  # built once per state and viewer
    new = renderings.view(second, 0)
    assert renderings.view(second, 0) is new
    again = renderings.view(first, 0)  # superseded: built for the asker, not kept
    assert again is not old and again.json_bytes() == old.json_bytes()
    assert renderings.view(second, 0) is new  # the newest state stays
    assert len(renderings) == 1
    two = Renderings()  # by default the state before the newest stays too (a burst's fan-out)
    kept_old, kept_new = two.view(first, 0), two.view(second, 0)
    assert two.view(first, 0) is kept_old and two.view(second, 0) is kept_new and len(two) == 2
    small = Renderings(size=1)
    small.view(first, 0)
    other = dataclasses.replace(started("mount_drago", 2, 4), match_id="n")
    kept = small.view(other, 1)
    assert small.view(other, 1) is kept and len(small) == 1  # the least recently used match went


def test_renderings_find_a_state_by_its_match_and_seq_whatever_the_object() -> None:
    """Another object of the same state (as a reload builds) shares its renderings, before and
    after the object last asked for; a state superseded since it was last asked for is not kept."""
    first = started("mount_drago", 2, 3)
    twin = dataclasses.replace(first)
    assert twin is not first
    renderings = Renderings(states=1)
    built = renderings.view(first, 0)
    assert renderings.view(twin, 0) is built and renderings.view(first, 0) is built
    seat = first.to_act[0]
    action = to_json(random.Random(1).choice(first.game.legal_actions(first.state, seat)))
    second = advance(first, list(decide.act(first, seat, action, random.Random(2)).events), AT)
    newer = renderings.view(second, 0)
    assert renderings.view(first, 0) is not built  # superseded: built again, not kept
    assert renderings.view(twin, 0) is not built
    assert renderings.view(second, 0) is newer


def test_renderings_remember_each_matchs_last_state_while_other_matches_are_asked() -> None:
    """Matches asked in turn each find their state's renderings again; a match pushed out of the
    `size` kept goes with what remembered its last state, and is built again when asked."""
    a = started("mount_drago", 2, 3)
    b = dataclasses.replace(started("mount_drago", 2, 4), match_id="n")
    renderings = Renderings(size=2)
    view_a, view_b = renderings.view(a, 0), renderings.view(b, 0)
    assert renderings.view(a, 0) is view_a and renderings.view(b, 0) is view_b
    # Another object of the same state is looked up afresh: a becomes the most recent match.
    assert renderings.view(dataclasses.replace(a), 0) is view_a
    renderings.view(dataclasses.replace(started("mount_drago", 2, 5), match_id="o"), 0)  # b goes
    assert renderings.view(a, 0) is view_a
    again = renderings.view(b, 0)
    assert again is not view_b and again.json_bytes() == view_b.json_bytes()
    assert len(renderings) == 2
