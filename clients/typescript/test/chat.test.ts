/** The chat through the client against a real server process: write, read pages, block, report,
 * and the refusals thrown as the class of their code (docs/chat.md). */

import assert from "node:assert/strict";
import { after, before, test } from "node:test";

import { ChatClosed, Forbidden, ValidationError, type DragoClient } from "../src/index.js";
import { ServerProcess } from "./server.js";
import { client } from "./support.js";

let server: ServerProcess;
let api: DragoClient;

before(async () => {
  server = await ServerProcess.start("memory");
  api = client(server.url);
});
after(async () => server.close());

async function table(spectatorChat = true): Promise<{ matchId: string; keys: string[]; watcher: { key: string; id: string } }> {
  const match = await api.createMatch({ game: "mount_drago", players: 2, spectator_chat: spectatorChat });
  const keys: string[] = [];
  for (const seat of [0, 1]) {
    const player = await api.createPlayer({ name: `ts-chat-${seat}-${Math.random().toString(36).slice(2, 10)}` });
    await api.joinSeat(match.id, seat, { name: player.name }, { token: player.key });
    keys.push(player.key);
  }
  const watcher = await api.createPlayer({ name: `ts-chat-w-${Math.random().toString(36).slice(2, 10)}` });
  return { matchId: match.id, keys, watcher: { key: watcher.key, id: watcher.player_id } };
}

test("chat: write, read, block, report", async () => {
  const { matchId, keys, watcher } = await table();
  const [ada, bob] = keys as [string, string];
  const sent = await api.postChat(matchId, { room: "players", text: "  hello  " }, { token: ada });
  assert.equal(sent.text, "hello");
  assert.equal(sent.author.seat, 0);
  await api.postChat(matchId, { room: "spectators", text: "from the stands" }, { token: watcher.key });
  const page = await api.getChat(matchId, {}, { token: bob });
  assert.deepEqual(page.messages.map((m) => m.text), ["hello"]);
  assert.equal(page.next, null);
  const stands = await api.getChat(matchId, { room: "spectators" });
  assert.deepEqual(stands.messages.map((m) => m.text), ["from the stands"]);
  await assert.rejects(api.getChat(matchId, { room: "spectators" }, { token: ada }), Forbidden);
  await assert.rejects(api.postChat(matchId, { room: "players", text: "\u0000" }, { token: ada }), ValidationError);
  const block = await api.blockPlayer(watcher.id, { token: bob });
  assert.equal(block.player_id, watcher.id);
  assert.deepEqual((await api.listBlocks({ token: bob })).items.map((b) => b.player_id), [watcher.id]);
  await api.unblockPlayer(watcher.id, { token: bob });
  assert.deepEqual((await api.listBlocks({ token: bob })).items, []);
  const report = await api.reportChat(matchId, sent.id, { reason: "rude" }, { token: bob });
  assert.equal(report.message_id, sent.id);
});

test("chat: a switched-off spectators' room is ChatClosed", async () => {
  const { matchId, watcher } = await table(false);
  await assert.rejects(api.postChat(matchId, { room: "spectators", text: "hi" }, { token: watcher.key }), ChatClosed);
});
