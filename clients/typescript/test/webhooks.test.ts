/** The webhook signature helper: the documented test vector, and the refusals. */

import assert from "node:assert/strict";
import { test } from "node:test";

import { InvalidWebhook, verifyWebhook, webhookSignature } from "../src/index.js";

const BODY = '{"id":"d1","type":"your_turn"}';
const VECTOR = "v1=20df156de1d47b955755277f90120389f70dbc5c2e961059ea60276e03cfa8dd";

test("the documented test vector", async () => {
  assert.equal(await webhookSignature("whsec_test", "d1", 1767268800, BODY), VECTOR);
});

test("a valid delivery is accepted, anything else refused", async () => {
  const headers = { "Drago-Webhook-Id": "d1", "Drago-Webhook-Timestamp": "1767268800", "Drago-Webhook-Signature": VECTOR };
  const notice = await verifyWebhook("whsec_test", headers, new TextEncoder().encode(BODY), { now: 1767268810 });
  assert.equal(notice["type"], "your_turn");
  const refused = [
    () => verifyWebhook("whsec_other", headers, BODY, { now: 1767268800 }),
    () => verifyWebhook("whsec_test", headers, BODY + " ", { now: 1767268800 }),
    () => verifyWebhook("whsec_test", headers, BODY, { now: 1767268800 + 301 }),
    () => verifyWebhook("whsec_test", { "Drago-Webhook-Id": "d1" }, BODY, { now: 1767268800 }),
  ];
  for (const attempt of refused) await assert.rejects(attempt, InvalidWebhook);
});
