/**
 * An independent verifier of `drago-fair-2` matches, written from docs/fairness.md: Web Crypto's
 * SHA-256 and HMAC-SHA256 only (browsers and Node ≥ 20), nothing of the server.
 *
 *   const verdict = await verifyMatch(reveal, catalogue); // GET …/reveal, GET /v1/games/{game}'s catalogue
 *   verdict.ok, verdict.field, verdict.message
 *
 * It checks the commitment and the seats' seeds, re-deals the match and follows every later random
 * outcome in the log (Mount Drago's draws and reshuffles, Yutakâ's draws and revealed tiles),
 * returning the first mismatch by name.
 */

export const ALGORITHM = "drago-fair-2";
const HAND = 6;
const SLOTS = 4;
const U32 = 2 ** 32;

/* eslint-disable @typescript-eslint/no-explicit-any */
type Json = any;

export interface Verdict {
  ok: boolean;
  algorithm: string;
  /** The first field that differs, e.g. `game_started.hands[1][3]`; null when verified. */
  field: string | null;
  message: string;
}

class Mismatch extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

const encoder = new TextEncoder();

function u32(n: number): Uint8Array {
  const out = new Uint8Array(4);
  new DataView(out.buffer).setUint32(0, n, false);
  return out;
}

function text(s: string): Uint8Array {
  const raw = encoder.encode(s);
  return concat(u32(raw.length), raw);
}

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

export function toHex(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

function fromHex(hex: string): Uint8Array | null {
  if (!/^(?:[0-9a-fA-F]{2})*$/.test(hex)) return null;
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

async function hmac(key: Uint8Array, message: Uint8Array): Promise<Uint8Array> {
  const k = await crypto.subtle.importKey("raw", key as BufferSource, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  return new Uint8Array(await crypto.subtle.sign("HMAC", k, message as BufferSource));
}

export async function commitment(serverSeed: Uint8Array): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", concat(serverSeed, encoder.encode(ALGORITHM)) as BufferSource);
  return toHex(new Uint8Array(digest));
}

export async function combinedSeed(serverSeed: Uint8Array, matchId: string, seeds: string[]): Promise<Uint8Array> {
  return hmac(serverSeed, concat(text(matchId), u32(seeds.length), ...seeds.map(text)));
}

/** The byte stream of one decision and the two primitives drawn from it. */
export class Stream {
  private counter = 0;
  private buffer: Uint8Array = new Uint8Array(0);
  private pos = 0;
  private key: Promise<CryptoKey>;
  private readonly context: Uint8Array;

  constructor(combined: Uint8Array, context: string) {
    this.context = text(context);
    this.key = crypto.subtle.importKey("raw", combined as BufferSource, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  }

  async block(counter: number): Promise<Uint8Array> {
    return new Uint8Array(await crypto.subtle.sign("HMAC", await this.key, concat(this.context, u32(counter)) as BufferSource));
  }

  private async word(): Promise<number> {
    if (this.pos + 4 > this.buffer.length) {
      this.buffer = await this.block(this.counter++);
      this.pos = 0;
    }
    const w = new DataView(this.buffer.buffer, this.buffer.byteOffset + this.pos, 4).getUint32(0, false);
    this.pos += 4;
    return w;
  }

  /** A uniform integer in 0 … n−1 by rejection sampling (1 ≤ n ≤ 2³²). */
  async uniform(n: number): Promise<number> {
    const limit = U32 - (U32 % n);
    for (;;) {
      const w = await this.word();
      if (w < limit) return w % n;
    }
  }

  /** Fisher–Yates from the last index down. */
  async shuffle<T>(items: T[]): Promise<void> {
    for (let i = items.length - 1; i > 0; i--) {
      const j = await this.uniform(i + 1);
      [items[i], items[j]] = [items[j] as T, items[i] as T];
    }
  }
}

function same(a: Json, b: Json): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function firstDifference(path: string, expected: Json, got: Json): string | null {
  if (Array.isArray(expected) && Array.isArray(got)) {
    for (let i = 0; i < Math.min(expected.length, got.length); i++) {
      const d = firstDifference(`${path}[${i}]`, expected[i], got[i]);
      if (d !== null) return d;
    }
    return expected.length === got.length ? null : path;
  }
  if (expected && typeof expected === "object" && got && typeof got === "object") {
    for (const key of Object.keys(expected)) {
      const d = firstDifference(`${path}.${key}`, expected[key], got[key]);
      if (d !== null) return d;
    }
    return null;
  }
  return same(expected, got) ? null : path;
}

async function dealDrago(s: Stream, players: number, options: Json, cat: Json): Promise<Json> {
  const values = [...cat.cards.values_per_dragon].sort((a: number, b: number) => a - b);
  const deck: Json[] = cat.dragons.flatMap((d: string) => values.map((v: number) => ({ dragon: d, value: v })));
  await s.shuffle(deck);
  const riders: Json[] = [];
  const aside: Json[] = [];
  let i = 0;
  while (riders.length < players) {
    const card = deck[i++];
    (riders.some((r) => r.dragon === card.dragon) ? aside : riders).push(card);
  }
  const rest = [...deck.slice(i), ...aside];
  if (aside.length) await s.shuffle(rest);
  const hands = Array.from({ length: players }, (_, k) => rest.slice(k * HAND, (k + 1) * HAND));
  const first = options.first_player ?? null;
  return {
    riders,
    hands,
    draw_pile: rest.slice(players * HAND),
    first_player: first === null ? await s.uniform(players) : first,
  };
}

async function dealYutaka(s: Stream, players: number, options: Json, cat: Json): Promise<Json> {
  const decks: Json[] = [];
  for (let p = 0; p < players; p++) {
    const deck = cat.deck.map((c: Json) => ({ ...c }));
    await s.shuffle(deck);
    decks.push(deck);
  }
  const tiles: Json[] = cat.tile_types.flatMap((t: Json) =>
    [...options.tile_values[t.type]].sort((a: number, b: number) => a - b).map((v: number) => ({ type: t.type, value: v })),
  );
  await s.shuffle(tiles);
  const islands = cat.islands.length;
  return {
    decks,
    islands: Array.from({ length: islands }, (_, k) => tiles.slice(k * SLOTS, (k + 1) * SLOTS)),
    set_aside: tiles.slice(islands * SLOTS),
    first_player: options.first_player === "random" ? await s.uniform(players) : options.first_player,
  };
}

/** The members of `game_started` that chance decides, re-dealt from the combined seed. */
export async function deal(game: string, combined: Uint8Array, players: number, options: Json, catalogue: Json): Promise<Json> {
  const s = new Stream(combined, "deal");
  if (game === "mount_drago") return dealDrago(s, players, options, catalogue);
  if (game === "yutaka") return dealYutaka(s, players, options, catalogue);
  throw new Mismatch("game", `no deal is specified for ${game}`);
}

/** Verify a revealed match (`GET …/reveal`) against the game's `catalogue` (`GET /v1/games/{game}`). */
export async function verifyMatch(reveal: Json, catalogue: Json): Promise<Verdict> {
  const algorithm = String(reveal.algorithm);
  try {
    await check(reveal, catalogue);
  } catch (e) {
    if (e instanceof Mismatch) return { ok: false, algorithm, field: e.field, message: e.message };
    throw e;
  }
  return { ok: true, algorithm, field: null, message: "deal verified" };
}

async function check(reveal: Json, catalogue: Json): Promise<void> {
  if (reveal.algorithm !== ALGORITHM) throw new Mismatch("algorithm", `only ${ALGORITHM} matches can be re-dealt`);
  const server = fromHex(String(reveal.secret));
  if (server === null || server.length !== 32 || (await commitment(server)) !== reveal.commitment) {
    throw new Mismatch("secret", "the server seed does not match the commitment");
  }
  const players: number = reveal.players;
  const seeds: string[] = reveal.seat_seeds;
  if (!Array.isArray(seeds) || seeds.length !== players) throw new Mismatch("seat_seeds", `expected ${players} seeds`);
  const events: Json[] = reveal.events;
  const joined = new Set<number>();
  let start = -1;
  for (let i = 0; i < events.length; i++) {
    const e = events[i];
    if (e.type === "seat_joined") {
      if (e.data.seed !== seeds[e.data.seat]) {
        throw new Mismatch(`seat_seeds[${e.data.seat}]`, `seat ${e.data.seat}'s seed differs from its seat_joined (seq ${e.seq})`);
      }
      joined.add(e.data.seat);
    } else if (e.type === "game_started") {
      start = i;
      break;
    }
  }
  if (start < 0) {
    if (reveal.outcome?.reason === "aborted") return;
    throw new Mismatch("events", "no game_started event");
  }
  const started = events[start];
  if (joined.size !== players) throw new Mismatch(`seq ${started.seq} game_started`, "the deal came before every seat had joined");
  const combined = await combinedSeed(server, reveal.match_id, seeds);
  const expected = await deal(reveal.game, combined, players, started.data.options, catalogue);
  const got: Json = {};
  for (const key of Object.keys(expected)) got[key] = started.data[key];
  const where = firstDifference("game_started", expected, got);
  if (where !== null) throw new Mismatch(where, `the deal differs from the one the seeds give (${where})`);
  const later = events.slice(start + 1);
  if (reveal.game === "mount_drago") await followDrago(later, events, started.data, combined, catalogue);
  else followYutaka(later, started.data);
}

type Tally = Map<string, number>;
const key = (c: Json): string => `${c.dragon}:${c.value}`;
function add(t: Tally, k: string, n = 1): void {
  t.set(k, (t.get(k) ?? 0) + n);
}

async function followDrago(later: Json[], all: Json[], dealt: Json, combined: Uint8Array, cat: Json): Promise<void> {
  const order = new Map<string, number>(cat.dragons.map((d: string, i: number) => [d, i]));
  const full: Tally = new Map();
  for (const c of [...dealt.riders, ...dealt.hands.flat(), ...dealt.draw_pile]) add(full, key(c));
  let pile: Json[] = [...dealt.draw_pile];
  const hands: Tally[] = dealt.hands.map((h: Json[]) => {
    const t: Tally = new Map();
    for (const c of h) add(t, key(c));
    return t;
  });
  const tops: string[] = dealt.riders.map(key);
  let discards: Tally = new Map();
  const firsts = new Map<number, number>();
  for (const e of all) if (!firsts.has(e.commit)) firsts.set(e.commit, e.seq);
  const streams = new Map<number, Stream>();
  for (const e of later) {
    const d = e.data;
    if (e.type === "card_played") add(hands[d.seat]!, key(d.card), -1);
    else if (e.type === "rider_settled" && (d.result === "on_top" || d.result === "switched")) tops[d.seat] = key(d.card);
    else if (e.type === "cards_discarded") {
      for (const c of d.cards) {
        add(hands[d.seat]!, key(c), -1);
        add(discards, key(c));
      }
    } else if (e.type === "cards_drawn") {
      d.cards.forEach((c: Json, i: number) => {
        if (!pile.length || !same(pile[0], c)) {
          throw new Mismatch(`seq ${e.seq} cards_drawn.cards[${i}]`, "a drawn card is not the top of the draw pile");
        }
        pile.shift();
        add(hands[d.seat]!, key(c));
      });
    } else if (e.type === "draw_pile_reshuffled") {
      const got: Json[] = d.draw_pile;
      const pool: Tally = new Map(full);
      for (const h of hands) for (const [k, n] of h) add(pool, k, -n);
      for (const k of tops) add(pool, k, -1);
      for (const c of pile) add(pool, key(c), -1);
      if (!d.summit_discards) for (const [k, n] of discards) add(pool, k, -n);
      const gotTally: Tally = new Map();
      for (const c of got) add(gotTally, key(c));
      const keys = new Set([...pool.keys(), ...gotTally.keys()]);
      if ([...keys].some((k) => (pool.get(k) ?? 0) !== (gotTally.get(k) ?? 0))) {
        throw new Mismatch(`seq ${e.seq} draw_pile_reshuffled.draw_pile`, "the reshuffled cards are not the pool");
      }
      const canonical = got
        .map((c) => ({ dragon: c.dragon, value: c.value }))
        .sort((a, b) => order.get(a.dragon)! - order.get(b.dragon)! || a.value - b.value);
      let stream = streams.get(e.commit);
      if (!stream) {
        stream = new Stream(combined, `seq:${firsts.get(e.commit)! - 1}`);
        streams.set(e.commit, stream);
      }
      await stream.shuffle(canonical);
      const where = firstDifference(`seq ${e.seq} draw_pile_reshuffled.draw_pile`, canonical, got);
      if (where !== null) throw new Mismatch(where, "the reshuffle's order is not the one the seeds give");
      pile = [...got];
      if (d.summit_discards) discards = new Map();
    }
  }
}

function followYutaka(later: Json[], dealt: Json): void {
  const drawn: number[] = dealt.decks.map(() => HAND);
  for (const e of later) {
    const d = e.data;
    if (e.type === "card_drawn") {
      const deck = dealt.decks[d.seat];
      if (drawn[d.seat]! >= deck.length || !same(deck[drawn[d.seat]!], d.card)) {
        throw new Mismatch(`seq ${e.seq} card_drawn.card`, `seat ${d.seat} drew a card that is not the next of its deck`);
      }
      drawn[d.seat]!++;
    } else if (e.type === "tile_revealed" && !same(dealt.islands[d.island][d.slot], d.tile)) {
      throw new Mismatch(`seq ${e.seq} tile_revealed.tile`, "a revealed tile is not the one dealt there");
    }
  }
}
