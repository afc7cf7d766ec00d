/**
 * `follow` and `followPlayer`: the resume rule against a scripted WebSocket server (a repeated
 * commit, a gap, closes of every kind), and against a real server restarted mid-match (SIGTERM,
 * then a new process on the same SQLite file): every seq (cursor) exactly once, in order.
 */

import assert from "node:assert/strict";
import type { AddressInfo } from "node:net";
import { test } from "node:test";

import { WebSocketServer, type WebSocket as ServerSocket } from "ws";

import { StreamClosed, Unauthorized, type CommitFrame, type DragoClient, type NoticeFrame } from "../src/index.js";
import { ServerProcess } from "./server.js";
import { client, play, range, rng, seated, seqs } from "./support.js";

type Script = (ws: ServerSocket, query: URLSearchParams) => Promise<void> | void;
const FAST = { attempts: 3, backoff: 0 };
const VIEW = { match_id: "m", game: "toy", seq: 0, status: "active", seat: null, to_act: [0], legal_actions: [], outcome: null, clock: [], draft: null };

const hello = (seq: number, after: number) =>
  JSON.stringify({ type: "hello", protocol: 2, match_id: "m", seat: null, seq, after, views: true, heartbeat: 20, view: { ...VIEW, seq } });
function commit(seqs: number[], end = false): string {
  const events = seqs.map((seq) => ({ seq, type: "match_started", data: { type: "match_started" }, recorded_at: "2026-01-01T00:00:00Z", commit: seqs.at(-1) }));
  if (end) Object.assign(events.at(-1)!, { type: "match_ended", data: { type: "match_ended", reason: "finished", winners: [0], scores: [1, 0] } });
  return JSON.stringify({ type: "commit", seq: seqs.at(-1), events });
}
const notice = (cursor: number) =>
  JSON.stringify({ type: "notice", cursor, notice: { type: "your_turn", match_id: "m", seat: 0, seq: cursor, recorded_at: "2026-01-01T00:00:00Z" } });
const playerHello = (cursor: number, after: number) => JSON.stringify({ type: "hello", protocol: 2, player_id: "p", cursor, after, heartbeat: 20 });

/** A server that runs `scripts[i]` on its i-th connection, after the client's auth frame (if any). */
async function scripted(scripts: Script[], run: (api: DragoClient, queries: URLSearchParams[], auths: unknown[]) => Promise<void>) {
  const wss = new WebSocketServer({ host: "127.0.0.1", port: 0 });
  await new Promise((resolve) => wss.once("listening", resolve));
  const queries: URLSearchParams[] = [];
  const auths: unknown[] = [];
  wss.on("connection", (ws, request) => {
    const query = new URL(request.url ?? "/", "http://x").searchParams;
    queries.push(query);
    const script = scripts.shift();
    if (!script) return ws.close(1011, "no script");
    if (query.get("spectate") === "1") void script(ws, query);
    else ws.once("message", (data) => {
      auths.push(JSON.parse(String(data)));
      void script(ws, query);
    });
  });
  const api = client(`http://127.0.0.1:${(wss.address() as AddressInfo).port}`);
  api.sleep = async () => {};
  try {
    await run(api, queries, auths);
  } finally {
    for (const ws of wss.clients) ws.terminate();
    await new Promise((resolve) => wss.close(resolve));
  }
}

const send = (ws: ServerSocket, ...frames: string[]) => frames.forEach((f) => ws.send(f));

test("follow resumes after the last seq: never twice, never a gap", async () => {
  await scripted(
    [
      (ws, q) => {
        assert.equal(q.get("after"), null);
        assert.equal(q.get("protocol"), "2"); // the version the client speaks
        send(ws, hello(2, 2), commit([3]), commit([4]));
        ws.close(1001, "going away");
      },
      (ws, q) => {
        assert.equal(q.get("after"), "4");
        send(ws, hello(6, 4), commit([4]), commit([5]), commit([7])); // a repeat, then a gap
      },
      (ws, q) => {
        assert.equal(q.get("after"), "5");
        ws.once("message", (m) => assert.deepEqual(JSON.parse(String(m)), { type: "pong" }));
        send(ws, hello(8, 5), '{"type":"ping"}', commit([6]), commit([7, 8], true));
      },
    ],
    async (api, queries, auths) => {
      const frames = [];
      for await (const f of api.follow("m", { hellos: true, retry: FAST, token: "t" })) frames.push(f);
      const commits = frames.filter((f): f is CommitFrame => f.type === "commit");
      assert.deepEqual(seqs(commits), [3, 4, 5, 6, 7, 8]);
      assert.equal(frames.filter((f) => f.type === "hello").length, 3);
      assert.equal(queries.length, 3);
      assert.deepEqual(auths, Array(3).fill({ type: "auth", token: "t" }));
    },
  );
});

test("onChat gets each chat frame once, and a reconnect resumes after the last (chat_after)", async () => {
  const chat = (n: number) => JSON.stringify({ type: "chat", chat_seq: n, message: { id: `c${n}`, chat_seq: n, room: "players", text: `m${n}` } });
  const helloAt = (seq: number, after: number, chatSeq: number) => JSON.stringify({ ...JSON.parse(hello(seq, after)), chat_seq: chatSeq });
  await scripted(
    [
      (ws, q) => {
        assert.equal(q.get("chat_after"), null); // the first connection starts at the newest message
        send(ws, helloAt(1, 1, 4), chat(5), commit([2]), chat(6));
        ws.close(1001, "going away");
      },
      (ws, q) => {
        assert.equal(q.get("after"), "2");
        assert.equal(q.get("chat_after"), "6");
        send(ws, helloAt(2, 2, 7), chat(6), chat(7), commit([3], true)); // a repeat, then the next
      },
    ],
    async (api) => {
      const seen: number[] = [];
      for await (const _ of api.follow("m", { retry: FAST, onChat: (f) => seen.push(f.chat_seq) }));
      assert.deepEqual(seen, [5, 6, 7]);
    },
  );
});

test("follow reconnects after every retryable close, and spectates without a token", async () => {
  const closing = (code: number): Script => (ws, q) => {
    send(ws, hello(1, Number(q.get("after") ?? 1)));
    ws.close(code, "again");
  };
  const last: Script = (ws) => send(ws, hello(2, 1), commit([2], true));
  const codes = [1001, 1011, 1012, 1013, 4008];
  await scripted([...codes.map(closing), last], async (api, queries) => {
    const seen = [];
    for await (const c of api.follow("m", { retry: { attempts: 2, backoff: 0 } })) seen.push(c.seq);
    assert.deepEqual(seen, [2]);
    assert.equal(queries.length, codes.length + 1);
    assert.ok(queries.every((q) => q.get("spectate") === "1"));
  });
});

test("a final close throws the error of its frame, or StreamClosed", async () => {
  const refused: Script = (ws) => {
    send(ws, JSON.stringify({ type: "error", id: null, error: { code: "unauthorized", message: "bad token", details: null } }));
    ws.close(4401, "unauthorized");
  };
  await scripted([refused], async (api) => {
    await assert.rejects(async () => {
      for await (const _ of api.follow("m", { token: "t", retry: FAST })) void _;
    }, (e: unknown) => e instanceof Unauthorized && e.status === 401);
  });
  await scripted([(ws) => ws.close(4404, "no such match")], async (api) => {
    await assert.rejects(async () => {
      for await (const _ of api.follow("m", { token: "t", retry: FAST })) void _;
    }, (e: unknown) => e instanceof StreamClosed && e.code === 4404);
  });
});

test("rate limited: waits the server's pause, then comes back", async () => {
  const limited: Script = (ws) => {
    send(ws, JSON.stringify({ type: "error", id: null, error: { code: "rate_limited", message: "slow", details: { retry_after: 2 } } }));
    ws.close(4429, "rate limited");
  };
  await scripted([limited, (ws) => send(ws, hello(1, 0), commit([1], true))], async (api) => {
    const waits: number[] = [];
    api.sleep = async (s) => void waits.push(s);
    const seen = [];
    for await (const c of api.follow("m", { after: 0, retry: FAST })) seen.push(c.seq);
    assert.deepEqual(seen, [1]);
    assert.deepEqual(waits, [2]);
  });
});

test("followPlayer resumes after the last cursor", async () => {
  await scripted(
    [
      (ws, q) => {
        assert.equal(q.get("after"), null);
        assert.equal(q.get("protocol"), "2");
        send(ws, playerHello(3, 3), notice(4), notice(5));
        ws.close(1011, "internal error");
      },
      (ws, q) => {
        assert.equal(q.get("after"), "5");
        send(ws, playerHello(8, 5), notice(5), notice(7));
      },
      (ws, q) => {
        assert.equal(q.get("after"), "5");
        send(ws, playerHello(8, 5), notice(6), notice(7), notice(8));
        ws.close(4401, "rotated");
      },
    ],
    async (api, _, auths) => {
      const seen: number[] = [];
      await assert.rejects(async () => {
        for await (const n of api.followPlayer({ key: "pk_x", retry: FAST })) seen.push(n.cursor);
      }, StreamClosed);
      assert.deepEqual(seen, [4, 5, 6, 7, 8]);
      assert.deepEqual(auths[0], { type: "auth", token: "pk_x" });
    },
  );
});

test("a follower survives a server restart with no gap and no repeat", async () => {
  const server = await ServerProcess.start("sqlite");
  try {
    const api = client(server.url);
    const { matchId, tokens } = await seated(api, "mount_drago", 3);
    const collect = async (follower: DragoClient, views: boolean) => {
      const commits: CommitFrame[] = [];
      for await (const c of follower.follow(matchId, { after: 0, views })) commits.push(c);
      return commits;
    };
    const followers = [collect(client(server.url, tokens[2]), true), collect(client(server.url), false)];
    const random = rng(11);
    const before = await play(api, matchId, tokens, random, 15);
    await server.restart(); // every stream closes with 1001; the followers come back with `after`
    const final = await play(api, matchId, tokens, random);
    const seen = await Promise.all(followers);
    assert.equal(server.starts, 2);
    assert.ok(before.status === "active" && before.seq < final.seq && final.status === "finished");
    for (const commits of seen) assert.deepEqual(seqs(commits), range(1, final.seq));
    assert.equal(seen[0]!.at(-1)!.view?.status, "finished");
  } finally {
    await server.close();
  }
});

test("a player follower survives a server restart", async () => {
  const server = await ServerProcess.start("sqlite");
  try {
    const api = client(server.url);
    const player = await api.createPlayer({ name: "Ada" });
    const match = await api.createMatch({ game: "yutaka", players: 2 });
    await api.joinSeat(match.id, 0, { name: "Ada" }, { token: player.key });
    const other = await api.joinSeat(match.id, 1, { name: "Bo" });
    const tokens = [player.key, other.token];
    const notices: NoticeFrame[] = [];
    const listening = (async () => {
      for await (const n of client(server.url).followPlayer({ key: player.key, after: 0 })) {
        notices.push(n);
        if (n.notice.type === "match_ended") return;
      }
    })();
    const random = rng(5);
    await play(api, match.id, tokens, random, 10);
    await server.restart();
    await play(api, match.id, tokens, random);
    await listening;
    assert.deepEqual(notices.map((n) => n.cursor), range(1, notices.length));
    assert.ok(notices.some((n) => n.notice.type === "your_turn"));
  } finally {
    await server.close();
  }
});
