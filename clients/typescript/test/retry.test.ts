/** Retries with a scripted `fetch`: which failures are tried again, the waits (Retry-After), and an
 * action's retries all carrying one idempotency key, so that it is never applied twice. */

import assert from "node:assert/strict";
import { test } from "node:test";

import { DragoClient, RateLimited, TransportError, Unavailable } from "../src/index.js";

type Answer = Response | Error;

function scripted(answers: Answer[]) {
  const seen: { url: string; init: RequestInit }[] = [];
  const waits: number[] = [];
  const fetch = (async (url: URL | string, init: RequestInit = {}) => {
    seen.push({ url: String(url), init });
    const answer = answers.shift();
    if (answer === undefined) throw new Error("no more answers");
    if (answer instanceof Error) throw answer;
    return answer;
  }) as typeof globalThis.fetch;
  const api = new DragoClient("http://test", { fetch, retry: { attempts: 4, backoff: 0.1 } });
  api.sleep = async (seconds: number) => {
    waits.push(seconds);
  };
  return { api, seen, waits };
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } });
const error = (status: number, code: string, headers: Record<string, string> = {}) =>
  json(status, { error: { code, message: code, details: null } }, headers);
const refused = () => new TypeError("fetch failed", { cause: { code: "ECONNREFUSED" } });
const reset = () => new TypeError("fetch failed", { cause: { code: "ECONNRESET" } });
const header = (init: RequestInit, name: string) => (init.headers as Record<string, string>)[name];

test("a GET is retried after 502/503/504 and broken connections, with growing waits", async () => {
  const { api, seen, waits } = scripted([error(503, "unavailable"), new Response("bad gateway", { status: 502 }), reset(), json(200, { status: "ok" })]);
  assert.equal((await api.healthz()).status, "ok");
  assert.equal(seen.length, 4);
  assert.ok(waits[0]! >= 0.05 && waits[0]! <= 0.1 && waits[1]! >= 0.1 && waits[1]! <= 0.2 && waits[2]! >= 0.2 && waits[2]! <= 0.4);
});

test("429 waits for Retry-After; a Retry-After too long throws at once", async () => {
  const first = scripted([error(429, "rate_limited", { "Retry-After": "3" }), json(200, { status: "ok" })]);
  await first.api.healthz();
  assert.deepEqual(first.waits, [3]);
  const second = scripted([error(429, "rate_limited", { "Retry-After": "600" })]);
  await assert.rejects(second.api.healthz(), (e: unknown) => e instanceof RateLimited && e.retryAfter === 600);
  assert.deepEqual(second.waits, []);
});

test("the attempts run out", async () => {
  await assert.rejects(scripted(Array.from({ length: 4 }, () => error(503, "unavailable"))).api.healthz(), Unavailable);
  await assert.rejects(scripted(Array.from({ length: 4 }, refused)).api.healthz(), TransportError);
});

test("an unsafe POST is retried only when the server saw nothing", async () => {
  const lost = scripted([error(503, "unavailable")]);
  await assert.rejects(lost.api.createPlayer({ name: "Ada" }), Unavailable);
  assert.equal(lost.seen.length, 1);
  const broken = scripted([reset()]);
  await assert.rejects(broken.api.createPlayer({ name: "Ada" }), TransportError);
  assert.equal(broken.seen.length, 1);
  const ok = scripted([refused(), error(429, "rate_limited", { "Retry-After": "0" }), json(201, { player_id: "p", name: "Ada", key: "pk_x" })]);
  assert.equal((await ok.api.createPlayer({ name: "Ada" })).key, "pk_x");
  assert.equal(ok.seen.length, 3);
});

test("an action is retried with one key the client made up; a given key and token are sent", async () => {
  const reply = { seq: 3, events: [], view: {} };
  const { api, seen } = scripted([reset(), error(502, "bad_gateway"), json(200, reply)]);
  await api.submitAction("m", { action: { type: "end_turn" } }, { token: "t" });
  const keys = new Set(seen.map((s) => header(s.init, "Idempotency-Key")));
  assert.equal(seen.length, 3);
  assert.equal(keys.size, 1);
  assert.match([...keys][0]!, /^ts-[0-9a-f]{32}$/);
  assert.deepEqual(seen.map((s) => JSON.parse(String(s.init.body))), Array(3).fill({ action: { type: "end_turn" } }));
  assert.equal(header(seen[0]!.init, "Authorization"), "Bearer t");
  const given = scripted([json(200, reply)]);
  await given.api.submitAction("m", { action: { type: "end_turn" } }, { token: "t", idempotencyKey: "mine" });
  assert.equal(header(given.seen[0]!.init, "Idempotency-Key"), "mine");
});

test("query parameters and paths are encoded", async () => {
  const { api, seen } = scripted([json(200, { items: [], total: 0, limit: 5, offset: 0 }), json(200, {})]);
  await api.listMatches({ status: "waiting", open: true, limit: 5, game: null });
  assert.equal(seen[0]!.url, "http://test/v1/matches?status=waiting&open=true&limit=5");
  await api.getMatch("a/b");
  assert.equal(seen[1]!.url, "http://test/v1/matches/a%2Fb");
});
