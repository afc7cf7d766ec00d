"""Webhooks over every backend, against a loopback receiver the test starts (the operator setting
that allows private targets is on): every notice of a run of matches arrives, signed, duplicates only
with the same id; with the receiver down, the deliveries arrive once it is back (the injected clock
drives the retries); a process that dies mid-delivery loses nothing; bad registrations change
nothing."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from datetime import timedelta

import pytest

from app.service import webhooks as wh
from app.service.acting import resign
from app.service.auth import Caller
from app.service.bans import ban_player, unban_player
from app.service.challenges import ChallengeRequest, accept, create_challenge
from app.service.errors import ValidationFailed
from app.service.seeks import Matchmaking
from tests.matchmaking.conftest import FakeClock, matchmaking, new_player
from tests.matchmaking.receiver import Received, Receiver

MATCHES = 20


@pytest.fixture
async def receiver() -> AsyncIterator[Receiver]:
    r = Receiver()
    await r.start()
    try:
        yield r
    finally:
        await r.stop()


@pytest.fixture
async def sender() -> AsyncIterator[wh.Sender]:
    send, close = wh.httpx_sender()
    try:
        yield send
    finally:
        await close()


async def _run(mm: Matchmaking, ann: Caller, bob: Caller, matches: int) -> None:
    """`matches` matches: ann challenges bob, bob accepts, ann resigns."""
    assert bob.player_id is not None
    for _ in range(matches):
        c = (await create_challenge(mm, ann, ChallengeRequest(to=[bob.player_id], game="yutaka"))).challenge
        done = (await accept(mm, bob, c.id)).challenge
        assert done.match_id is not None
        await resign(mm.ctx, done.match_id, ann)


def _check(received: list[Received], secret: str) -> dict[str, bytes]:
    """Every delivery's signature is valid; returns the bodies by id (a repeated id, the same body)."""
    by_id: dict[str, bytes] = {}
    for r in received:
        delivery, ts = r.headers["drago-webhook-id"], int(r.headers["drago-webhook-timestamp"])
        assert r.headers["drago-webhook-signature"] == wh.signature(secret, delivery, ts, r.body)
        assert json.loads(r.body)["id"] == delivery
        assert by_id.setdefault(delivery, r.body) == r.body
    return by_id


async def test_every_notice_of_a_run_arrives_signed(
    mm: Matchmaking, receiver: Receiver, sender: wh.Sender, clock: FakeClock
) -> None:
    ann, bob = await new_player(mm, "ann"), await new_player(mm, "bob")
    assert ann.player_id is not None
    hook = await wh.create_webhook(mm, ann, receiver.url, None, allow_private=True)
    assert hook.secret.startswith("whsec_")
    await _run(mm, ann, bob, MATCHES)
    deliverer = wh.Deliverer(mm, sender, allow_private=True)
    while await deliverer.deliver_once():
        pass
    notices = await mm.ctx.store.read_notices(ann.player_id)
    by_id = _check(receiver.received, hook.secret)
    assert set(by_id) == {wh.delivery_id(ann.player_id, n.cursor) for n in notices}
    kinds = [json.loads(b)["type"] for b in by_id.values()]
    assert kinds.count("match_ended") == MATCHES and kinds.count("challenge_accepted") == MATCHES
    for body in by_id.values():  # public facts only: never a key, a token or a secret
        text = body.decode()
        assert "pk_" not in text and "whsec_" not in text and "secret" not in text
    attempts = await wh.deliveries(mm, ann, hook.webhook.id, 500)
    assert len(attempts) == len(notices) and {a.outcome for a in attempts} == {"delivered"}


async def test_a_receiver_down_gets_everything_once_back(
    mm: Matchmaking, receiver: Receiver, sender: wh.Sender, clock: FakeClock
) -> None:
    ann, bob = await new_player(mm, "ann"), await new_player(mm, "bob")
    assert ann.player_id is not None
    hook = await wh.create_webhook(mm, ann, receiver.url, None, allow_private=True)
    deliverer = wh.Deliverer(mm, sender, allow_private=True)
    receiver.failing = True  # answers 503
    await _run(mm, ann, bob, 2)
    assert await deliverer.deliver_once() == 0
    await receiver.stop()  # then refuses connections, for a minute
    for _ in range(6):
        clock.advance(10)
        assert await deliverer.deliver_once() == 0
    attempts = await wh.deliveries(mm, ann, hook.webhook.id, 50)
    assert attempts and {a.outcome for a in attempts} == {"retry"}
    assert attempts[0].attempt == len(attempts)  # the same notice, again and again
    receiver.failing = False
    await receiver.start()
    clock.advance(wh.backoff(len(attempts)))
    while await deliverer.deliver_once():
        clock.advance(1)
    notices = await mm.ctx.store.read_notices(ann.player_id)
    assert set(_check(receiver.received, hook.secret)) == {
        wh.delivery_id(ann.player_id, n.cursor) for n in notices
    }


async def test_a_notice_is_given_up_after_the_documented_period(
    mm: Matchmaking, receiver: Receiver, sender: wh.Sender, clock: FakeClock
) -> None:
    ann, bob = await new_player(mm, "ann"), await new_player(mm, "bob")
    hook = await wh.create_webhook(mm, ann, receiver.url, ["match_ended"], allow_private=True)
    deliverer = wh.Deliverer(mm, sender, allow_private=True)
    receiver.failing = True
    await _run(mm, ann, bob, 1)
    waited = 0.0
    while waited < wh.GIVE_UP_S:
        await deliverer.deliver_once()
        clock.advance(wh.MAX_RETRY_S)
        waited += wh.MAX_RETRY_S
    await deliverer.deliver_once()
    attempts = await wh.deliveries(mm, ann, hook.webhook.id, 100)
    assert attempts[0].outcome == "failed" and receiver.received == []
    assert all(a.type == "match_ended" for a in attempts)  # the other notices were not asked for


async def test_a_process_that_dies_mid_delivery_loses_nothing(
    sql_url: str, receiver: Receiver, sender: wh.Sender, clock: FakeClock
) -> None:
    first = matchmaking(sql_url, clock)
    ann, bob = await new_player(first, "ann"), await new_player(first, "bob")
    assert ann.player_id is not None
    hook = await wh.create_webhook(first, ann, receiver.url, None, allow_private=True)
    await _run(first, ann, bob, 3)
    # The first process takes the lease and dies before delivering anything.
    leased = await first.store.lease_webhook(
        hook.webhook.id, clock(), clock() + timedelta(seconds=wh.LEASE_S)
    )
    assert leased is not None
    await first.ctx.store.close()
    other = matchmaking(sql_url, clock)
    try:
        deliverer = wh.Deliverer(other, sender, allow_private=True)
        assert await deliverer.deliver_once() == 0  # leased: not yet
        clock.advance(wh.LEASE_S)
        while await deliverer.deliver_once():
            pass
        notices = await other.ctx.store.read_notices(ann.player_id)
        assert set(_check(receiver.received, hook.secret)) == {
            wh.delivery_id(ann.player_id, n.cursor) for n in notices
        }
    finally:
        await other.ctx.store.close()


async def test_bad_registrations_change_nothing(mm: Matchmaking) -> None:
    ann = await new_player(mm, "ann")
    for url, events in (
        ("ftp://example.com/x", None),
        ("http://example.com/" + "x" * 2000, None),
        ("not a url", None),
        ("http://127.0.0.1:9/hook", None),  # loopback, and the operator did not allow it
        ("http://10.1.2.3/hook", None),
        ("http://169.254.169.254/latest", None),
        ("http://[::1]/hook", None),
        ("https://example.com/hook", ["nope"]),
        ("https://example.com/hook", []),
    ):
        with pytest.raises(ValidationFailed):
            await wh.create_webhook(mm, ann, url, events, allow_private=False)
    assert await wh.my_webhooks(mm, ann) == []


def test_the_signature_test_vector() -> None:
    """The vector docs/matchmaking.md prints (HMAC-SHA256 over `d1.1767268800.<body>`)."""
    body = b'{"id":"d1","type":"your_turn"}'
    assert wh.signature("whsec_test", "d1", 1767268800, body) == (
        "v1=20df156de1d47b955755277f90120389f70dbc5c2e961059ea60276e03cfa8dd"
    )


async def test_a_banned_players_webhooks_deliver_nothing_until_the_ban_is_lifted(
    mm: Matchmaking, receiver: Receiver, sender: wh.Sender, clock: FakeClock
) -> None:
    """Nothing reaches a banned player's receiver; after the ban is lifted the deliveries go on from
    where they paused (within `BANNED_PAUSE_S`), each notice once. Bob, not banned, gets his."""
    ann, bob = await new_player(mm, "ann"), await new_player(mm, "bob")
    assert ann.player_id is not None and bob.player_id is not None
    hook = await wh.create_webhook(mm, ann, receiver.url, None, allow_private=True)
    theirs = await wh.create_webhook(mm, bob, receiver.url, None, allow_private=True)
    await _run(mm, ann, bob, 2)
    await ban_player(mm.ctx, ann.player_id, "spam")
    deliverer = wh.Deliverer(mm, sender, allow_private=True)
    while await deliverer.deliver_once():
        pass
    assert receiver.received  # bob's
    assert set(_check(receiver.received, theirs.secret)) == {
        wh.delivery_id(bob.player_id, n.cursor) for n in await mm.ctx.store.read_notices(bob.player_id)
    }
    receiver.received.clear()
    clock.advance(wh.BANNED_PAUSE_S)
    assert await deliverer.deliver_once() == 0 and not receiver.received  # still banned
    await unban_player(mm.ctx, ann.player_id)
    assert await wh.deliveries(mm, ann, hook.webhook.id, 50) == []  # none was even attempted
    assert await deliverer.deliver_once() == 0  # paused until the next look
    clock.advance(wh.BANNED_PAUSE_S)
    while await deliverer.deliver_once():
        pass
    notices = await mm.ctx.store.read_notices(ann.player_id)
    assert notices and set(_check(receiver.received, hook.secret)) == {
        wh.delivery_id(ann.player_id, n.cursor) for n in notices
    }
