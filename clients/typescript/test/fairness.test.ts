/** The TypeScript verifier (`verifyMatch`) against the committed test vectors, and against finished
 * matches of every game, mode and player count on a real server, each then tampered field by field. */

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, test } from "node:test";

import { Stream, combinedSeed, commitment, deal, toHex, verifyMatch, type DragoClient } from "../src/index.js";
import { REPO, ServerProcess } from "./server.js";
import { client, pick, play, rng, seated } from "./support.js";

/* eslint-disable @typescript-eslint/no-explicit-any */
const VECTORS: any = JSON.parse(readFileSync(join(REPO, "docs", "fairness-vectors.json"), "utf-8"));
const MATCHES = Number(process.env.FAIR_MATCHES ?? "1"); // per configuration

let server: ServerProcess;
let api: DragoClient;

before(async () => {
  server = await ServerProcess.start("memory");
  api = client(server.url);
});
after(async () => server.close());

function hex(s: string): Uint8Array {
  return Uint8Array.from(s.match(/../g)!.map((b) => parseInt(b, 16)));
}

test("the primitives give the committed vectors", async () => {
  const seed = hex(VECTORS.server_seed);
  assert.equal(await commitment(seed), VECTORS.commitment);
  const combined = await combinedSeed(seed, VECTORS.match_id, VECTORS.seat_seeds);
  assert.equal(toHex(combined), VECTORS.combined_seed);
  for (const b of VECTORS.blocks) assert.equal(toHex(await new Stream(combined, b.context).block(b.counter)), b.block);
  for (const c of VECTORS.integers) {
    const s = new Stream(combined, c.context);
    const got = [];
    for (let i = 0; i < c.values.length; i++) got.push(await s.uniform(c.n));
    assert.deepEqual(got, c.values, `n = ${c.n}`);
  }
  for (const c of [...VECTORS.permutations, VECTORS.decision_permutation]) {
    const items = Array.from({ length: c.size }, (_, i) => i);
    await new Stream(combined, c.context).shuffle(items);
    assert.deepEqual(items, c.permutation);
  }
});

test("the deals give the committed vectors", async () => {
  for (const c of VECTORS.deals) {
    const catalogue = (await api.getGame(c.game)).catalogue;
    const combined = await combinedSeed(hex(VECTORS.server_seed), VECTORS.match_id, c.seat_seeds);
    const dealt = await deal(c.game, combined, c.players, c.options, catalogue);
    for (const k of Object.keys(dealt)) assert.deepEqual(dealt[k], c.game_started[k], `${c.game} ${c.players}: ${k}`);
  }
});

const CONFIGS: [string, number, Record<string, unknown>][] = [
  ["mount_drago", 2, {}],
  ["mount_drago", 3, {}],
  ["mount_drago", 4, {}],
  ["mount_drago", 5, {}],
  ["yutaka", 2, { mode: "mysteria" }],
  ["yutaka", 2, { mode: "tactika", first_player: "random" }],
  ["yutaka", 2, { mode: "mixed" }],
];

function tampered(reveal: any, random: () => number): [string, any][] {
  const out: [string, any][] = [];
  const variant = (what: string, change: (r: any) => void) => {
    const r = structuredClone(reveal);
    change(r);
    out.push([what, r]);
  };
  const events: any[] = reveal.events;
  const start = events.findIndex((e) => e.type === "game_started");
  variant("seat_seeds", (r) => (r.seat_seeds[0] += "x"));
  variant("secret", (r) => (r.secret = (r.secret[0] === "0" ? "1" : "0") + r.secret.slice(1)));
  if (reveal.game === "mount_drago") {
    variant("game_started.riders", (r) => {
      const d = r.events[start].data;
      d.riders[0].value = d.riders[0].value === 1 ? 2 : 1;
    });
    const reshuffles = events.flatMap((e, i) => (e.type === "draw_pile_reshuffled" ? [i] : []));
    if (reshuffles.length) {
      const i = pick(reshuffles, random);
      const pile = events[i].data.draw_pile;
      const j = pile.findIndex((c: any) => c.dragon !== pile[0].dragon || c.value !== pile[0].value);
      if (j > 0) variant(`seq ${events[i].seq} draw_pile_reshuffled.draw_pile`, (r) => {
        const p = r.events[i].data.draw_pile;
        [p[0], p[j]] = [p[j], p[0]];
      });
    }
    const draws = events.flatMap((e, i) => (e.type === "cards_drawn" ? [i] : []));
    const i = pick(draws, random);
    variant(`seq ${events[i].seq} cards_drawn.cards[0]`, (r) => {
      const c = r.events[i].data.cards[0];
      c.value = c.value === 1 ? 2 : 1;
    });
  } else {
    variant("game_started.islands", (r) => (r.events[start].data.islands[0][0].value += 1));
    const draws = events.flatMap((e, i) => (e.type === "card_drawn" ? [i] : []));
    const i = pick(draws, random);
    variant(`seq ${events[i].seq} card_drawn.card`, (r) => (r.events[i].data.card = { kind: "idol", value: r.events[i].data.card.value === 1 ? 2 : 1 }));
    const reveals = events.flatMap((e, i) => (e.type === "tile_revealed" ? [i] : []));
    const k = pick(reveals, random);
    variant(`seq ${events[k].seq} tile_revealed.tile`, (r) => (r.events[k].data.tile.value += 1));
  }
  return out;
}

test("finished matches of every game, mode and player count verify, and every tampered field is named", async () => {
  const random = rng(39);
  const kinds = new Set<string>();
  for (const [game, players, options] of CONFIGS) {
    const catalogue = (await api.getGame(game)).catalogue;
    for (let n = 0; n < MATCHES; n++) {
      const { matchId, tokens } = await seated(api, game, players, { options });
      const final = await play(api, matchId, tokens, random);
      assert.equal(final.status, "finished");
      const reveal: any = await api.revealMatch(matchId);
      assert.equal(reveal.algorithm, "drago-fair-2");
      const verdict = await verifyMatch(reveal, catalogue);
      assert.ok(verdict.ok, JSON.stringify(verdict));
      for (const [what, changed] of tampered(reveal, random)) {
        const bad = await verifyMatch(changed, catalogue);
        assert.equal(bad.ok, false, what);
        assert.ok(bad.field !== null && bad.field.startsWith(what.split("[")[0]!), `${what}: ${bad.field}`);
        kinds.add(what.split(" ").pop()!.split("[")[0]!);
      }
    }
  }
  for (const k of ["secret", "seat_seeds", "game_started.riders", "game_started.islands", "cards_drawn.cards", "card_drawn.card", "tile_revealed.tile"]) {
    assert.ok(kinds.has(k), k);
  }
});
