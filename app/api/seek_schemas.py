"""Request and response models of matchmaking (`/v1/seeks`, `/v1/challenges`, the bot flag)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import Field, StrictBool, StrictFloat, StrictInt, StrictStr

from app.api.schemas import MAX_PLAYERS, MIN_PLAYERS, BankClock, Model, Out, PerDecisionClock
from app.games.codec import JSON
from app.matches.settings import MAX_TAKEOVER_AFTER
from app.service.challenges import ChallengeRequest, ChallengeView
from app.service.seek_ports import AttemptRecord, SeekRecord, WebhookRecord
from app.service.seeks import MAX_BOTS_AFTER_S, MAX_EXPIRY_S, RATING_BOUNDS, SeekRequest

Count = Annotated[StrictInt, Field(ge=MIN_PLAYERS, le=MAX_PLAYERS)]
Counts = Annotated[list[Count], Field(min_length=1, max_length=MAX_PLAYERS)]
Seconds = StrictInt | StrictFloat
Bound = Annotated[StrictInt | StrictFloat, Field(ge=RATING_BOUNDS[0], le=RATING_BOUNDS[1])]


class MatchSettingsIn(Model):
    """The match settings a seek or a challenge carries (as for `createMatch`)."""

    clock: PerDecisionClock | BankClock | None = Field(None, description="The match's turn clock.")
    on_timeout: Literal["bot", "forfeit"] = "bot"
    takeover_after: StrictInt = Field(3, ge=1, le=MAX_TAKEOVER_AFTER)
    drafts: StrictBool = Field(False, description="Private turn drafts with `undo` and `finish_turn`.")
    rated: StrictBool = Field(
        False, description="The match counts for ratings (every seat is a player's, or a server bot)."
    )

    def match_settings(self) -> dict[str, JSON]:
        return {
            "clock": None if self.clock is None else self.clock.model_dump(),
            "on_timeout": self.on_timeout,
            "takeover_after": self.takeover_after,
            "drafts": self.drafts,
            "rated": self.rated,
        }


class RatingRange(Model):
    """Displayed ratings (μ − 3σ) accepted for the other seekers, bounds included."""

    min: Bound
    max: Bound

    @classmethod
    def of(cls, bounds: tuple[float, float]) -> RatingRange:
        return cls(min=bounds[0], max=bounds[1])


class CreateSeek(MatchSettingsIn):
    game: StrictStr = Field(
        min_length=1, max_length=64, pattern=r"^[a-z0-9_]+$", description="A game name from `listGames`.",
        examples=["mount_drago"],
    )  # fmt: skip
    players: Count | Counts = Field(
        description="A player count, or the list of acceptable counts (Mount Drago plays 2 to 5).",
        examples=[2, [3, 4, 5]],
    )
    options: dict[str, Any] = Field(
        default_factory=dict, description="Game options; seeks match only with equal options."
    )
    opponents: Literal["humans", "bots", "any"] = Field(
        "humans",
        description="Which seekers this seek accepts: `humans` (players not marked as bots), `bots` "
        "(players marked as bots) or `any`.",
    )
    bots_after_s: Seconds | None = Field(
        None,
        ge=0,
        le=MAX_BOTS_AFTER_S,
        description="After this many seconds without a full group, server bots fill the missing seats.",
    )
    expires_s: Seconds | None = Field(
        None, ge=1, le=MAX_EXPIRY_S, description="Seconds until the seek expires (default 3600)."
    )
    rating_range: RatingRange | None = Field(
        None,
        description="Match only with seekers whose displayed rating in the game lies in this range "
        "(a player without a rating has a newcomer's, 0); `min` at most `max` (422 otherwise).",
    )

    def request(self) -> SeekRequest:
        bounds = self.rating_range
        return SeekRequest(
            self.game, self.players, self.options, self.match_settings(), self.opponents,
            None if self.bots_after_s is None else float(self.bots_after_s),
            None if self.expires_s is None else float(self.expires_s),
            None if bounds is None else (float(bounds.min), float(bounds.max)),
        )  # fmt: skip


class SeekOut(Out):
    seek_id: str
    player_id: str
    name: str = Field(description="The seeking player's name.")
    bot: bool = Field(description="Whether the seeking player is a bot.")
    game: str
    players: list[int] = Field(description="The acceptable player counts.")
    options: dict[str, Any]
    settings: dict[str, Any]
    opponents: Literal["humans", "bots", "any"]
    bots_welcome: bool = Field(description="Whether players marked as bots may match this seek.")
    bots_after_s: float | None
    rating_range: RatingRange | None = Field(description="The accepted ratings of other seekers.")
    created_at: datetime
    expires_at: datetime
    status: Literal["open", "matched", "cancelled", "expired"]
    match_id: str | None = Field(description="The match, once matched.")
    seat: int | None = Field(description="The seat in it, once matched.")

    @classmethod
    def of(cls, s: SeekRecord) -> SeekOut:
        settings = {k: v for k, v in s.settings.items() if k != "lifecycle"}
        return cls(
            seek_id=s.id, player_id=s.player_id, name=s.name, bot=s.bot, game=s.game, players=list(s.counts),
            options=dict(s.options), settings=settings, opponents=s.opponents,
            bots_welcome=s.opponents != "humans", bots_after_s=s.bots_after_s,
            rating_range=None if s.rating_range is None else RatingRange.of(s.rating_range),
            created_at=s.created_at,
            expires_at=s.expires_at, status=s.status, match_id=s.match_id, seat=s.seat,
        )  # fmt: skip


class SeekPage(Out):
    items: list[SeekOut]


PlayerIdStr = Annotated[StrictStr, Field(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_-]+$")]


class CreateChallenge(MatchSettingsIn):
    to: list[PlayerIdStr] = Field(
        min_length=1, max_length=MAX_PLAYERS - 1, description="The invited players' ids (`player_id`)."
    )
    game: StrictStr = Field(min_length=1, max_length=64, pattern=r"^[a-z0-9_]+$", examples=["yutaka"])
    players: Count | None = Field(
        None, description="Seats: the challenger and everyone invited (the default)."
    )
    options: dict[str, Any] = Field(default_factory=dict, description="Game options.")
    expires_s: Seconds | None = Field(
        None, ge=1, le=MAX_EXPIRY_S, description="Seconds until the challenge expires (default 86400)."
    )

    def request(self) -> ChallengeRequest:
        expires = None if self.expires_s is None else float(self.expires_s)
        settings = self.match_settings()
        return ChallengeRequest(self.to, self.game, self.players, self.options, settings, expires)


class DeclineChallenge(Model):
    reason: StrictStr | None = Field(None, max_length=200, description="Why, in a few words (optional).")


class InvitedOut(Out):
    player_id: str
    name: str
    bot: bool = Field(description="Whether this player says it is a bot.")
    answer: Literal["accepted", "declined"] | None


class ChallengeOut(Out):
    challenge_id: str
    player_id: str = Field(description="The challenger.")
    name: str
    bot: bool = Field(description="Whether the challenger says it is a bot.")
    to: list[InvitedOut]
    game: str
    players: int
    options: dict[str, Any]
    settings: dict[str, Any]
    status: Literal["open", "accepted", "declined", "expired"]
    reason: str | None = Field(description="The reason given with a decline.")
    created_at: datetime
    expires_at: datetime
    match_id: str | None = Field(description="The match, once everyone accepted.")

    @classmethod
    def of(cls, v: ChallengeView) -> ChallengeOut:
        c = v.challenge
        to = [
            InvitedOut(player_id=p, name=n, bot=v.bots.get(p, False), answer=c.answers.get(p))  # type: ignore[arg-type]
            for p, n in zip(c.to_ids, c.to_names, strict=True)
        ]
        return cls(
            challenge_id=c.id, player_id=c.from_id, name=c.from_name, bot=v.bots.get(c.from_id, False), to=to,
            game=c.game, players=c.players, options=dict(c.options),
            settings={k: val for k, val in c.settings.items() if k != "lifecycle"},
            status="expired" if v.expired else c.status, reason=c.reason, created_at=c.created_at,
            expires_at=c.expires_at, match_id=c.match_id,
        )  # fmt: skip


class ChallengePage(Out):
    items: list[ChallengeOut]


class UpdatePlayer(Model):
    bot: StrictBool = Field(
        description="Whether this player is a bot (shown on its profile, seeks, challenges)."
    )


class PlayerBotOut(Out):
    player_id: str
    name: str
    bot: bool


class CreateWebhook(Model):
    url: StrictStr = Field(
        min_length=1, max_length=2000, description="An http(s) URL; private addresses are refused by default."
    )
    events: list[StrictStr] | None = Field(
        None, max_length=20, description="Notice types to send (default: every type)."
    )


class WebhookOut(Out):
    webhook_id: str
    url: str
    events: list[str]
    created_at: datetime
    cursor: int = Field(description="The last notice handled (delivered, skipped or given up).")
    failing_since: datetime | None
    next_attempt_at: datetime | None

    @classmethod
    def of(cls, w: WebhookRecord) -> WebhookOut:
        return cls(
            webhook_id=w.id, url=w.url, events=list(w.events), created_at=w.created_at, cursor=w.cursor,
            failing_since=w.failing_since, next_attempt_at=w.next_at,
        )  # fmt: skip


class WebhookCreatedOut(WebhookOut):
    secret: str = Field(description="The signing secret (`whsec_…`), shown this once.")


class WebhookPage(Out):
    items: list[WebhookOut]


class DeliveryOut(Out):
    delivery_id: str = Field(description="The notice's id, the same in every attempt.")
    cursor: int
    type: str
    attempt: int
    at: datetime
    outcome: Literal["delivered", "retry", "failed"]
    status_code: int | None
    error: str | None

    @classmethod
    def of(cls, a: AttemptRecord) -> DeliveryOut:
        return cls(
            delivery_id=a.delivery_id, cursor=a.cursor, type=a.type, attempt=a.attempt, at=a.at,
            outcome=a.outcome, status_code=a.status_code, error=a.error,
        )  # fmt: skip


class DeliveryPage(Out):
    items: list[DeliveryOut]
