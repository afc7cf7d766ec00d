/**
 * Verifying a webhook delivery from the server (docs/matchmaking.md, "Webhooks").
 *
 * The signature is `v1=` and the hex HMAC-SHA256, keyed by the webhook's secret, of
 * `"{Drago-Webhook-Id}.{Drago-Webhook-Timestamp}.{raw body}"`; a timestamp further than
 * `toleranceS` from now is refused (a replay). De-duplicate by the notice's `id`: a delivery may
 * come twice. Uses WebCrypto (`crypto.subtle`), in browsers and Node ≥ 20.
 */

/** The request is not a valid delivery for this secret (missing header, bad signature, stale). */
export class InvalidWebhook extends Error {
  override readonly name = "InvalidWebhook";
}

const encoder = new TextEncoder();

function hex(bytes: ArrayBuffer): string {
  return Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** The `Drago-Webhook-Signature` value the server sends for these. */
export async function webhookSignature(
  secret: string,
  deliveryId: string,
  timestamp: string | number,
  body: Uint8Array | string,
): Promise<string> {
  const key = await crypto.subtle.importKey(
    "raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"],
  );
  const raw = typeof body === "string" ? encoder.encode(body) : body;
  const prefix = encoder.encode(`${deliveryId}.${timestamp}.`);
  const message = new Uint8Array(prefix.length + raw.length);
  message.set(prefix);
  message.set(raw, prefix.length);
  return `v1=${hex(await crypto.subtle.sign("HMAC", key, message))}`;
}

function equal(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

export interface VerifyOptions {
  /** Seconds a timestamp may be away from now (default 300). */
  toleranceS?: number;
  /** Now, in Unix seconds (default: the clock). */
  now?: number;
}

/** The delivered notice (the JSON body) if the request is signed with `secret` and recent;
 * throws `InvalidWebhook` otherwise. `headers` may be a `Headers` or a plain record. */
export async function verifyWebhook(
  secret: string,
  headers: Headers | Record<string, string>,
  body: Uint8Array | string,
  options: VerifyOptions = {},
): Promise<Record<string, unknown>> {
  const get = (name: string): string | undefined => {
    if (headers instanceof Headers) return headers.get(name) ?? undefined;
    const found = Object.keys(headers).find((k) => k.toLowerCase() === name);
    return found === undefined ? undefined : headers[found];
  };
  const id = get("drago-webhook-id");
  const stamp = get("drago-webhook-timestamp");
  const sent = get("drago-webhook-signature");
  if (id === undefined || stamp === undefined || sent === undefined) {
    throw new InvalidWebhook("missing a Drago-Webhook header");
  }
  if (!equal(await webhookSignature(secret, id, stamp, body), sent)) {
    throw new InvalidWebhook("the signature does not match");
  }
  const at = Number(stamp);
  const now = options.now ?? Date.now() / 1000;
  if (!Number.isInteger(at) || Math.abs(now - at) > (options.toleranceS ?? 300)) {
    throw new InvalidWebhook("the timestamp is too far from now");
  }
  const text = typeof body === "string" ? body : new TextDecoder().decode(body);
  const notice = JSON.parse(text) as Record<string, unknown>;
  if (notice["id"] !== id) throw new InvalidWebhook("the body's id is not the header's");
  return notice;
}
