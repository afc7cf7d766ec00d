/** The client against a real server process: every route, typed answers, refusals thrown as the
 * class of their code, and a full match of each game played by two clients over their streams. */

import assert from "node:assert/strict";
import { after, before, test } from "node:test";

import {
  Forbidden,
  IllegalAction,
  MatchNotFinished,
  MatchStarted,
  NameTaken,
  NotFound,
  NotYourTurn,
  PlayerKeyRequired,
  SeatTaken,
  Unauthorized,
  ValidationError,
  VersionConflict,
  type DragoClient,
  type MountDrago,
  type Yutaka,
} from "../src/index.js";
import { ServerProcess } from "./server.js";
import { client, play, playSeat, range, rng, seated, seqs } from "./support.js";

let server: ServerProcess;
let api: DragoClient;

before(async () => {
  server = await ServerProcess.start("memory");
  api = client(server.url);
});
after(async () => server.close());

test("the catalogue", async () => {
  const listing = await api.listGames();
  assert.deepEqual(listing.items.map((g) => g.name), ["mount_drago", "yutaka"]);
  const detail = await api.getGame("yutaka");
  assert.deepEqual(Object.keys(detail.schemas).sort(), ["action", "event", "options", "setup", "view"]);
  await assert.rejects(api.getGame("chess"), (e: unknown) => e instanceof NotFound && e.status === 404);
});

for (const game of ["mount_drago", "yutaka"]) {
  test(`a full match of ${game} played by two clients over their streams`, async () => {
    const { matchId, tokens } = await seated(api, game);
    const players = tokens.map((token) => client(server.url, token));
    const seen = await Promise.all(players.map((p, seat) => playSeat(p, matchId, rng(seat + 1))));
    const final = await api.getMatch(matchId);
    assert.equal(final.status, "finished");
    assert.ok(final.winners && final.winners.length > 0);
    for (const commits of seen) assert.deepEqual(seqs(commits), range(1, final.seq));
    const last = seen[0]!.at(-1)!;
    assert.equal(last.view?.status, "finished");
    assert.equal(last.events.at(-1)?.type, "match_ended");
    const history = await api.listEvents(matchId, { after: 0, limit: 1000 }, { token: tokens[1]! });
    assert.deepEqual(history.events, seen[1]!.flatMap((c) => c.events));
    const reveal = await api.revealMatch(matchId);
    assert.equal(reveal.commitment, final.commitment);
    assert.equal(reveal.events.length, final.seq);
  });
}

test("refusals are thrown as the class of their code", async () => {
  const { matchId, tokens } = await seated(api, "mount_drago", 2, { options: { first_player: 0 } });
  const view = (await api.getView(matchId, {}, { token: tokens[0]! })) as MountDrago.View;
  assert.equal(view.game, "mount_drago");
  const action = view.legal_actions[0]!;
  await assert.rejects(api.submitAction(matchId, { action }, { token: tokens[1]! }), NotYourTurn);
  await assert.rejects(api.submitAction(matchId, { action, expected_seq: view.seq - 1 }, { token: tokens[0]! }), VersionConflict);
  await assert.rejects(api.getView(matchId, {}, { token: "not-a-token" }), Unauthorized);
  await assert.rejects(api.joinSeat(matchId, 0, { name: "late" }), SeatTaken);
  await assert.rejects(api.revealMatch(matchId), MatchNotFinished);
  const bad = { type: "play", card: { dragon: "red", value: 9 } };
  await assert.rejects(api.submitAction(matchId, { action: bad }, { token: tokens[0]! }), (e: unknown) => {
    return e instanceof ValidationError && e.message.includes("$.card.value") && e.status === 422;
  });
  const held = new Set((view.hand ?? []).map((c) => `${c.dragon}${c.value}`));
  const dragons: MountDrago.Dragon[] = ["blue", "brown", "black", "red", "yellow", "green", "gray", "light_blue", "purple", "orange"];
  const card = dragons.flatMap((dragon) => [1, 2, 3, 4, 5].map((value) => ({ dragon, value }))).find((c) => !held.has(`${c.dragon}${c.value}`))!;
  const notHeld: MountDrago.Play = { type: "play", card };
  await assert.rejects(api.submitAction(matchId, { action: notHeld }, { token: tokens[0]! }), IllegalAction);
  assert.equal((await api.getMatch(matchId)).seq, view.seq);
});

test("replay at a commit, history pages, typed events", async () => {
  const { matchId, tokens } = await seated(api, "yutaka");
  const final = await play(api, matchId, tokens, rng(7));
  const page = await api.listEvents(matchId, { after: 0, limit: 5 }, { token: tokens[0]! });
  assert.deepEqual(page.events.map((e) => e.seq), [1, 2, 3, 4, 5]);
  assert.equal(page.seq, final.seq);
  const commit = page.events[4]!.commit;
  const past = (await api.getView(matchId, { at: commit }, { token: tokens[0]! })) as Yutaka.View;
  assert.equal(past.seq, commit);
  assert.ok(Array.isArray(past.islands));
  const started = page.events.find((e) => e.type === "game_started")!.data as Yutaka.GameStartedRedacted;
  assert.equal(started.type, "game_started");
});

test("the lobby and the host controls", async () => {
  const open = await api.createMatch({ game: "yutaka", players: 2 });
  const hidden = await api.createMatch({ game: "yutaka", players: 2, visibility: "unlisted" });
  assert.ok(open.host_token.startsWith("ht_") && hidden.invite);
  const lobby = await api.listMatches({ status: "waiting", game: "yutaka", open: true, limit: 100 });
  assert.ok(lobby.items.some((m) => m.id === open.id) && !lobby.items.some((m) => m.id === hidden.id));
  await assert.rejects(api.joinSeat(hidden.id, 0, { name: "Ada" }), Forbidden);
  await api.joinSeat(hidden.id, 0, { name: "Ada", invite: hidden.invite! });
  assert.equal((await api.abortMatch(hidden.id, hidden.host_token)).status, "aborted");
  await assert.rejects(api.abortMatch(open.id, "ht_wrong"), Forbidden);

  const first = await api.joinSeat(open.id, 0, { name: "Ada" });
  await api.joinSeat(open.id, 1, { name: "Bo" });
  await assert.rejects(api.abortMatch(open.id, open.host_token), MatchStarted);
  const fresh = await api.reissueSeatToken(open.id, 0, open.host_token);
  assert.notEqual(fresh.token, first.token);
  await assert.rejects(api.getView(open.id, {}, { token: first.token }), Unauthorized);
  assert.equal((await api.getView(open.id, {}, { token: fresh.token })).seat, 0);
  assert.equal((await api.handSeatToBot(open.id, 1, open.host_token)).seats[1]!.bot, true);
});

test("players, resignation and samples", async () => {
  const player = await api.createPlayer({ name: "Ada" });
  assert.ok(player.key.startsWith("pk_"));
  assert.equal((await api.getMe({ token: player.key })).player_id, player.player_id);
  const match = await api.createMatch({ game: "mount_drago", players: 2, options: { first_player: 0 } });
  await api.joinSeat(match.id, 0, { name: "Ada" }, { token: player.key });
  await api.joinSeat(match.id, 1, { name: "Bo" });
  const mine = await api.myMatches({ to_act: "me" }, { token: player.key });
  assert.deepEqual(mine.items.map((i) => [i.match.id, i.seat, i.my_turn]), [[match.id, 0, true]]);
  const samples = await api.sampleHiddenState(match.id, { n: 2, seed: 7 }, { token: player.key });
  assert.equal(samples.samples.length, 2);
  const rotated = await api.rotateKey({ token: player.key });
  await assert.rejects(api.getMe({ token: player.key }), Unauthorized);
  const reply = await api.resign(match.id, { token: rotated.key });
  assert.equal(reply.events.at(-1)?.type, "match_ended");
  assert.deepEqual((await api.getMatch(match.id)).winners, [1]);
});

test("ratings: a rated match, its rating changes, profiles, history, leaderboard", async () => {
  const player = await api.createPlayer({ name: "Rated Ada" });
  await assert.rejects(api.createPlayer({ name: "RATED ADA" }), NameTaken);
  const match = await api.createMatch({ game: "yutaka", players: 2, bots: [{ seat: 1, level: "greedy" }], rated: true });
  assert.equal(match.settings["rated"], true);
  await assert.rejects(api.joinSeat(match.id, 0, { name: "Anonymous" }), PlayerKeyRequired);
  await api.joinSeat(match.id, 0, { name: "Ada" }, { token: player.key });
  await api.resign(match.id, { token: player.key });
  let ratings = await api.getMatchRatings(match.id);
  for (let i = 0; !ratings.applied && i < 500; i++) {
    await new Promise((resolve) => setTimeout(resolve, 10));
    ratings = await api.getMatchRatings(match.id);
  }
  assert.deepEqual(ratings.changes.map((c) => [c.seat, c.player_id, c.rank]), [[0, player.player_id, 2], [1, "bot-greedy", 1]]);
  const profile = await api.getPlayerProfile(player.player_id);
  assert.equal(profile.name, "Rated Ada");
  assert.deepEqual(profile.ratings.map((r) => [r.game, r.games, r.provisional]), [["yutaka", 1, true]]);
  assert.equal((await api.getPlayerProfile("bot-greedy")).bot, true);
  const history = await api.getRatingHistory(player.player_id, "yutaka");
  assert.deepEqual(history.points.map((p) => p.match_id), [match.id]);
  const board = await api.getLeaderboard("yutaka", { limit: 500 });
  assert.equal(board.limit, 100);
  assert.deepEqual(board.entries, []);
});

test("operations", async () => {
  assert.equal((await api.healthz()).status, "ok");
  assert.equal((await api.readyz()).status, "ok");
  assert.match(await api.getMetrics(), /drago/);
});
