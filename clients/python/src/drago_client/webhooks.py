"""Verifying a webhook delivery from the server (docs/matchmaking.md, "Webhooks").

    notice = verify_webhook(secret, request.headers, raw_body)   # raises InvalidWebhook

The signature is `v1=` and the hex HMAC-SHA256, keyed by the webhook's secret, of
`"{Drago-Webhook-Id}.{Drago-Webhook-Timestamp}.{raw body}"`; a timestamp further than `tolerance_s`
from now is refused (a replay). De-duplicate by the notice's `id`: a delivery may come twice.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import time
from collections.abc import Mapping
from typing import Any

__all__ = ["InvalidWebhook", "signature", "verify_webhook"]


class InvalidWebhook(ValueError):
    """The request is not a valid delivery for this secret (missing header, bad signature, stale)."""


def signature(secret: str, delivery_id: str, timestamp: str | int, body: bytes) -> str:
    """The `Drago-Webhook-Signature` value the server sends for these."""
    message = f"{delivery_id}.{timestamp}.".encode() + body
    return "v1=" + hmac.new(secret.encode(), message, hashlib.sha256).hexdigest()


def verify_webhook(
    secret: str,
    headers: Mapping[str, str],
    body: bytes,
    *,
    tolerance_s: float = 300.0,
    now: float | None = None,
) -> dict[str, Any]:
    """The delivered notice (the JSON body) if the request is signed with `secret` and recent."""
    lower = {k.lower(): v for k, v in headers.items()}
    try:
        delivery, stamp, sent = (
            lower["drago-webhook-id"],
            lower["drago-webhook-timestamp"],
            lower["drago-webhook-signature"],
        )
    except KeyError as e:
        raise InvalidWebhook(f"missing header {e.args[0]}") from None
    if not hmac.compare_digest(signature(secret, delivery, stamp, body), sent):
        raise InvalidWebhook("the signature does not match")
    try:
        at = int(stamp)
    except ValueError:
        raise InvalidWebhook("the timestamp is not a number") from None
    if abs((time.time() if now is None else now) - at) > tolerance_s:
        raise InvalidWebhook("the timestamp is too far from now")
    notice: dict[str, Any] = json.loads(body)
    if notice.get("id") != delivery:
        raise InvalidWebhook("the body's id is not the header's")
    return notice
