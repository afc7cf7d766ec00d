/** Matchmaking from the TypeScript client against a real server: quick play by seeks, a challenge
 * accepted and one declined, the bot flag, and a webhook target the server refuses. */

import assert from "node:assert/strict";
import { after, before, test } from "node:test";

import { ChallengeClosed, Forbidden, SeekClosed, TooManySeeks, ValidationError, type DragoClient } from "../src/index.js";
import { ServerProcess } from "./server.js";
import { client } from "./support.js";

let server: ServerProcess;

before(async () => {
  server = await ServerProcess.start("memory");
});
after(async () => server.close());

async function player(name: string): Promise<{ id: string; api: DragoClient }> {
  const made = await client(server.url).createPlayer({ name });
  return { id: made.player_id, api: client(server.url, made.key) };
}

test("two seeks become one match", async () => {
  const [ann, bob] = [await player("ann"), await player("bob")];
  const a = await ann.api.createSeek({ game: "yutaka", players: 2 });
  assert.equal(a.status, "open");
  assert.ok((await client(server.url).listSeeks()).items.some((s) => s.seek_id === a.seek_id));
  await bob.api.createSeek({ game: "yutaka", players: 2 });
  let mine = (await ann.api.listMySeeks()).items[0]!;
  for (let i = 0; i < 400 && mine.status === "open"; i++) {
    await new Promise((r) => setTimeout(r, 50));
    mine = (await ann.api.listMySeeks()).items[0]!;
  }
  assert.equal(mine.status, "matched");
  const view = await ann.api.getView(mine.match_id!);
  assert.equal(view.seat, mine.seat);
  await assert.rejects(ann.api.cancelSeek(a.seek_id), SeekClosed);
  for (let i = 0; i < 5; i++) await ann.api.createSeek({ game: "mount_drago", players: [3, 4] });
  await assert.rejects(ann.api.createSeek({ game: "mount_drago", players: 3 }), TooManySeeks);
});

test("challenges, the bot flag and webhooks", async () => {
  const [ann, bob] = [await player("cid"), await player("dot")]; // names are unique per server
  const flagged = await bob.api.updateMe({ bot: true });
  assert.equal(flagged.bot, true);
  assert.equal((await client(server.url).getPlayerProfile(bob.id)).bot, true);
  const c = await ann.api.createChallenge({ to: [bob.id], game: "yutaka" });
  assert.equal(c.to[0]!.bot, true);
  await assert.rejects(ann.api.acceptChallenge(c.challenge_id), Forbidden);
  const accepted = await bob.api.acceptChallenge(c.challenge_id);
  assert.equal(accepted.status, "accepted");
  assert.equal((await ann.api.getMatch(accepted.match_id!)).status, "active");
  const d = await ann.api.createChallenge({ to: [bob.id], game: "yutaka" });
  const declined = await bob.api.declineChallenge(d.challenge_id, { reason: "busy" });
  assert.equal(declined.reason, "busy");
  await assert.rejects(bob.api.acceptChallenge(d.challenge_id), ChallengeClosed);
  await assert.rejects(ann.api.createWebhook({ url: "http://127.0.0.1:9/hook" }), ValidationError);
  assert.deepEqual((await ann.api.listWebhooks()).items, []);
});
