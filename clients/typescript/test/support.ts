/** Helpers of the tests: clients with Node's WebSocket (`ws`), seated matches, random play. */

import WebSocket from "ws";

import {
  DragoClient,
  MatchOver,
  NotYourTurn,
  VersionConflict,
  type CommitFrame,
  type Match,
  type View,
  type WebSocketConstructor,
} from "../src/index.js";

export function client(url: string, token?: string): DragoClient {
  return new DragoClient(url, { token: token ?? null, WebSocket: WebSocket as unknown as WebSocketConstructor });
}

/** A small seeded generator (mulberry32), so that a failing game can be replayed. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function pick<T>(items: readonly T[], random: () => number): T {
  const item = items[Math.floor(random() * items.length)];
  if (item === undefined) throw new Error("nothing to pick from");
  return item;
}

/** A new match with every seat joined: its id and the seat tokens. */
export async function seated(api: DragoClient, game: string, players = 2, extra: Record<string, unknown> = {}) {
  const match = await api.createMatch({ game, players, ...extra });
  const tokens: string[] = [];
  for (let seat = 0; seat < players; seat++) tokens.push((await api.joinSeat(match.id, seat, { name: `player ${seat}` })).token);
  return { matchId: match.id, tokens, hostToken: match.host_token };
}

/** Random legal actions of whoever is to act, over HTTP, until the match ends (or `steps` ran out). */
export async function play(api: DragoClient, matchId: string, tokens: string[], random: () => number, steps = 5000): Promise<Match> {
  let summary = await api.getMatch(matchId);
  for (let i = 0; i < steps && summary.status === "active"; i++) {
    const seat = summary.to_act[0]!;
    const view = await api.getView(matchId, {}, { token: tokens[seat]! });
    await api.submitAction(matchId, { action: pick(view.legal_actions, random), expected_seq: view.seq }, { token: tokens[seat]! });
    summary = await api.getMatch(matchId);
  }
  return summary;
}

export function onTurn(view: View | null | undefined): view is View {
  return !!view && view.status === "active" && view.seat !== null && view.to_act.includes(view.seat) && view.legal_actions.length > 0;
}

/** One seat played by its own client: it follows its stream with views and acts when on turn. */
export async function playSeat(api: DragoClient, matchId: string, random: () => number): Promise<CommitFrame[]> {
  const commits: CommitFrame[] = [];
  for await (const frame of api.follow(matchId, { hellos: true, after: 0 })) {
    if (frame.type === "commit") commits.push(frame);
    if (onTurn(frame.view)) {
      try {
        await api.submitAction(matchId, { action: pick(frame.view.legal_actions, random), expected_seq: frame.view.seq });
      } catch (error) {
        if (!(error instanceof VersionConflict || error instanceof NotYourTurn || error instanceof MatchOver)) throw error;
      }
    }
  }
  return commits;
}

export const seqs = (commits: CommitFrame[]): number[] => commits.flatMap((c) => c.events.map((e) => e.seq));
export const range = (from: number, to: number): number[] => Array.from({ length: to - from + 1 }, (_, i) => from + i);
