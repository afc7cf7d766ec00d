"""`/v1/players/me/webhooks`: a player's notices POSTed to its URL, signed (docs/matchmaking.md)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Response

from app.api.deps import AppSettings, CallerDep, Mm, RecordId
from app.api.errors import error_responses
from app.api.seek_schemas import (
    CreateWebhook,
    DeliveryOut,
    DeliveryPage,
    WebhookCreatedOut,
    WebhookOut,
    WebhookPage,
)
from app.service import webhooks

router = APIRouter(prefix="/v1/players/me/webhooks", tags=["webhooks"])


@router.post(
    "",
    operation_id="createWebhook",
    status_code=201,
    response_model=WebhookCreatedOut,
    summary="Register a webhook; returns its signing secret, once",
    description="Each of the player's notices of the chosen types is POSTed to `url` as JSON, at least "
    "once, signed with HMAC-SHA256 (`Drago-Webhook-Signature`); see docs/matchmaking.md. URLs on "
    "loopback, private or link-local addresses are refused unless the operator allows them.",
    responses=error_responses(401, 413, 422),
)
async def create_webhook(
    body: CreateWebhook, caller: CallerDep, mm: Mm, settings: AppSettings
) -> WebhookCreatedOut:
    made = await webhooks.create_webhook(
        mm, caller, body.url, body.events, allow_private=settings.webhook_allow_private
    )
    out = WebhookOut.of(made.webhook)
    return WebhookCreatedOut(**out.model_dump(), secret=made.secret)


@router.get(
    "",
    operation_id="listWebhooks",
    response_model=WebhookPage,
    summary="The player's webhooks (never their secrets)",
    responses=error_responses(401),
)
async def list_webhooks(caller: CallerDep, mm: Mm) -> WebhookPage:
    return WebhookPage(items=[WebhookOut.of(w) for w in await webhooks.my_webhooks(mm, caller)])


@router.delete(
    "/{webhook_id}",
    operation_id="deleteWebhook",
    status_code=204,
    response_class=Response,
    summary="Remove a webhook",
    responses=error_responses(401, 403, 404, 422),
)
async def delete_webhook(webhook_id: RecordId, caller: CallerDep, mm: Mm) -> Response:
    await webhooks.delete_webhook(mm, caller, webhook_id)
    return Response(status_code=204)


@router.get(
    "/{webhook_id}/deliveries",
    operation_id="listDeliveries",
    response_model=DeliveryPage,
    summary="The webhook's last delivery attempts, newest first",
    responses=error_responses(401, 403, 404, 422),
)
async def deliveries(
    webhook_id: RecordId, caller: CallerDep, mm: Mm, limit: Annotated[int, Query(ge=1, le=100)] = 50
) -> DeliveryPage:
    found = await webhooks.deliveries(mm, caller, webhook_id, limit)
    return DeliveryPage(items=[DeliveryOut.of(a) for a in found])
