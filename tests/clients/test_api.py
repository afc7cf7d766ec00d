"""The async client against the real app in-process: every route, typed answers, refusals raised as
the class of their code."""

from __future__ import annotations

import random
from typing import get_args

import pytest
from drago_client import (
    AsyncClient,
    Forbidden,
    IllegalAction,
    MatchNotFinished,
    MatchStarted,
    NotFound,
    NotYourTurn,
    SeatTaken,
    Unauthorized,
    Unknown,
    ValidationError,
    VersionConflict,
    models,
)
from drago_client.games import common, mount_drago, yutaka

from tests.clients.support import play_out, seated

GAMES = ("mount_drago", "yutaka")


async def test_the_catalogue(api: AsyncClient) -> None:
    listing = await api.list_games()
    assert [g.name for g in listing.items] == sorted(GAMES)
    for name in GAMES:
        detail = await api.get_game(name)
        assert isinstance(detail, models.GameDetail) and detail.name == name
        assert set(detail.schemas) == {"view", "action", "event", "options", "setup"}
    with pytest.raises(NotFound) as caught:
        await api.get_game("chess")
    assert caught.value.status == 404 and caught.value.details == {"known": sorted(GAMES)}


@pytest.mark.parametrize("game", GAMES)
async def test_a_full_match_with_history_replay_and_reveal(api: AsyncClient, game: str) -> None:
    match_id, tokens = await seated(api, game, seed=f"full-{game}")
    final = await play_out(api, match_id, tokens, random.Random(game))
    assert final.status == "finished" and final.winners and final.scores is not None

    events: list[models.Event] = []
    while not events or events[-1].seq < final.seq:
        page = await api.list_events(
            match_id, after=events[-1].seq if events else 0, limit=50, token=tokens[0]
        )
        assert page.game == game and page.seq == final.seq
        events += page.events
    assert [e.seq for e in events] == list(range(1, final.seq + 1))
    module = mount_drago if game == "mount_drago" else yutaka
    for event in events:
        assert not isinstance(event.data, Unknown), event
        assert type(event.data).__module__ in (module.__name__, common.__name__)
        assert event.data.type == event.type
    assert isinstance(events[-1].data, common.MatchEnded) and events[-1].data.reason == "finished"

    commits = sorted({e.commit for e in events})
    past = await api.get_view(match_id, at=commits[len(commits) // 2], token=tokens[1])
    assert isinstance(past, module.View) and past.seq == commits[len(commits) // 2] and past.seat == 1
    inside = [e.seq for e in events if e.seq != e.commit]
    if inside:
        with pytest.raises(ValidationError):
            await api.get_view(match_id, at=inside[0], token=tokens[1])

    reveal = await api.reveal_match(match_id)
    assert reveal.commitment == final.commitment and len(reveal.events) == final.seq


async def test_refusals_raise_the_class_of_their_code(api: AsyncClient) -> None:
    match_id, tokens = await seated(api, "mount_drago", options={"first_player": 0})
    view = await api.get_view(match_id, token=tokens[0])
    assert isinstance(view, mount_drago.View)
    action = view.legal_actions[0]
    with pytest.raises(NotYourTurn) as not_yours:
        await api.submit_action(match_id, action, token=tokens[1])
    assert not_yours.value.status == 409
    with pytest.raises(VersionConflict):
        await api.submit_action(match_id, action, expected_seq=view.seq - 1, token=tokens[0])
    with pytest.raises(Unauthorized):
        await api.get_view(match_id, token="not-a-token")
    with pytest.raises(SeatTaken):
        await api.join_seat(match_id, 0, "late")
    with pytest.raises(MatchNotFinished):
        await api.reveal_match(match_id)
    with pytest.raises(ValidationError) as invalid:
        await api.submit_action(
            match_id, {"type": "play", "card": {"dragon": "red", "value": 9}}, token=tokens[0]
        )
    assert "$.card.value" in invalid.value.message
    hand = {(c.dragon, c.value) for c in view.hand or ()}
    missing = next((d, v) for d in get_args(mount_drago.Dragon) for v in range(1, 6) if (d, v) not in hand)
    not_held = mount_drago.Play(type="play", card=mount_drago.Card(dragon=missing[0], value=missing[1]))
    with pytest.raises(IllegalAction):
        await api.submit_action(match_id, not_held, token=tokens[0])
    assert (await api.get_match(match_id)).seq == view.seq  # nothing changed


async def test_a_typed_action_is_sent_as_its_json(api: AsyncClient) -> None:
    match_id, tokens = await seated(api, "yutaka", options=yutaka.Options(first_player=0))
    view = await api.get_view(match_id, token=tokens[0])
    assert isinstance(view, yutaka.View) and view.phase == "opening"
    legal = view.legal_actions[0]
    action = yutaka.Reveal(type="reveal", island=legal["island"], slot=legal["slot"])
    reply = await api.submit_action(match_id, action, expected_seq=view.seq, token=tokens[0])
    assert isinstance(reply.events[0].data, yutaka.TileRevealed) and reply.view.seq == reply.seq


async def test_the_lobby_and_the_host_controls(api: AsyncClient) -> None:
    public = await api.create_match("yutaka", 2)
    hidden = await api.create_match("yutaka", 2, visibility="unlisted")
    assert public.host_token.startswith("ht_") and public.invite is None and hidden.invite
    lobby = await api.list_matches(status="waiting", game="yutaka", open=True, limit=10, offset=0)
    assert [m.id for m in lobby.items] == [public.id] and lobby.total == 1
    with pytest.raises(Forbidden):
        await api.join_seat(hidden.id, 0, "Ada")
    await api.join_seat(hidden.id, 0, "Ada", invite=hidden.invite)

    aborted = await api.abort_match(hidden.id, hidden.host_token)
    assert aborted.status == "aborted"
    with pytest.raises(Forbidden):
        await api.abort_match(public.id, "ht_wrong")

    seat0 = await api.join_seat(public.id, 0, "Ada")
    await api.join_seat(public.id, 1, "Bo")
    with pytest.raises(MatchStarted):
        await api.abort_match(public.id, public.host_token)
    fresh = await api.reissue_seat_token(public.id, 0, public.host_token)
    assert fresh.seat == 0 and fresh.token != seat0.token
    with pytest.raises(Unauthorized):
        await api.get_view(public.id, token=seat0.token)
    assert (await api.get_view(public.id, token=fresh.token)).seat == 0
    handed = await api.hand_seat_to_bot(public.id, 1, public.host_token)
    assert handed.seats[1].bot


async def test_players_resign_and_samples(api: AsyncClient) -> None:
    player = await api.create_player("Ada")
    assert player.key.startswith("pk_")
    assert (await api.get_me(token=player.key)).player_id == player.player_id
    match = await api.create_match("mount_drago", 2, options={"first_player": 0})
    await api.join_seat(match.id, 0, "Ada", token=player.key)
    await api.join_seat(match.id, 1, "Bo")
    mine = await api.my_matches(to_act="me", token=player.key)
    assert [(i.match.id, i.seat, i.my_turn) for i in mine.items] == [(match.id, 0, True)]

    samples = await api.sample_hidden_state(match.id, n=2, seed=7, token=player.key)
    assert samples.seat == 0 and len(samples.samples) == 2

    rotated = await api.rotate_key(token=player.key)
    with pytest.raises(Unauthorized):
        await api.get_me(token=player.key)
    reply = await api.resign(match.id, token=rotated.key)
    assert isinstance(reply.events[-1].data, common.MatchEnded) and reply.events[-1].data.reason == "resigned"
    assert (await api.get_match(match.id)).winners == (1,)


async def test_operations(api: AsyncClient) -> None:
    assert (await api.healthz()).status == "ok"
    assert (await api.readyz()).status == "ok"
    assert "drago" in await api.get_metrics()


async def test_the_default_token_and_one_call_tokens(api: AsyncClient) -> None:
    match_id, tokens = await seated(api, "yutaka")
    api.token = tokens[1]
    assert (await api.get_view(match_id)).seat == 1
    assert (await api.get_view(match_id, token=tokens[0])).seat == 0
    other = await api.create_match("yutaka", 2)
    await api.join_seat(other.id, 0, "Ada")  # the default (a seat token) is not sent: nothing to bind
    api.token = None
    assert (await api.get_view(match_id)).seat is None  # a spectator
