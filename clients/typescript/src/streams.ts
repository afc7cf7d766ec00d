/**
 * Following a match or a player's notices over WebSocket, resuming exactly after every reconnect.
 *
 * `follow` yields a match's commit frames in seq order, `followPlayer` a player's notices in cursor
 * order. Both keep `last` — the `after` of the first `hello`, then the seq (cursor) of every frame
 * yielded — and reconnect with `?after=<last>` whenever the server closes with a code that says
 * "come back" (1001, 1006, 1011, 1012, 1013, 4008; 4429 after the server's pause), or goes silent
 * for 2.5 heartbeats, waiting as the stream retry policy says. The server then sends exactly what
 * came after `last`; a frame at or before `last` is dropped and one that would leave a gap makes
 * the client reconnect, so no seq is yielded twice or skipped. Other closes throw: the `ApiError`
 * of the server's `error` frame (`Unauthorized`, `NotFound`…) or `StreamClosed`.
 *
 * The credential goes in the first frame (`{"type":"auth","token":…}`), which browsers allow (they
 * cannot set headers) and which keeps it out of URLs; without one a match is watched as a spectator.
 */

import { BY_CODE, ApiError, RateLimited, StreamClosed, apiError } from "./errors.js";
import type { ChatFrame, CommitFrame, HelloFrame, NoticeFrame, PlayerHelloFrame } from "./generated/models.js";
import { delay } from "./retry.js";
import type { RetryPolicy } from "./retry.js";
import type { Transport, WebSocketConstructor, WebSocketLike } from "./transport.js";

export const RETRYABLE: ReadonlySet<number> = new Set([1001, 1006, 1011, 1012, 1013, 4008]);
export const RATE_LIMITED = 4429;
const FIRST_FRAME_S = 15; // silence allowed before the hello, in seconds
const OVER = new Set(["finished", "aborted"]);

export interface FollowOptions {
  /** A seat token or player key (default: the client's; none: a spectator). */
  token?: string | null;
  /** Only commits after this seq (default: from now). */
  after?: number | null;
  /** Commits carry the viewer's view (default true). */
  views?: boolean;
  /** Also yield each connection's hello (its view is the state on connecting). */
  hellos?: boolean;
  /** Stop after the commit that ends the match (default true). */
  untilEnd?: boolean;
  /** Called with each `chat` frame (the match's chat messages this viewer may read), in
   * `chat_seq` order, each once: a reconnect resumes after the last one (`chat_after`). */
  onChat?: (frame: ChatFrame) => void;
  retry?: Partial<RetryPolicy>;
  signal?: AbortSignal;
}

export interface FollowPlayerOptions {
  /** The player key (default: the client's). */
  key?: string | null;
  after?: number | null;
  hellos?: boolean;
  retry?: Partial<RetryPolicy>;
  signal?: AbortSignal;
}

type Item = { frame: Record<string, any> } | { close: number; reason: string };

/** One WebSocket as a queue of frames that ends with its close. */
class Connection {
  private readonly ws: WebSocketLike;
  private readonly items: Item[] = [];
  private wake: (() => void) | null = null;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private silenceS = FIRST_FRAME_S;
  private closed = false;

  constructor(WS: WebSocketConstructor, url: string, first: string | null) {
    this.ws = new WS(url);
    this.ws.onopen = () => {
      if (first !== null) this.ws.send(first);
    };
    this.ws.onmessage = (event: { data: unknown }) => {
      this.arm();
      try {
        this.push({ frame: JSON.parse(String(event.data)) });
      } catch {
        this.end(1006, "a frame is not JSON");
      }
    };
    this.ws.onclose = (event: { code: number; reason: string }) => this.end(event.code || 1006, event.reason ?? "");
    this.ws.onerror = () => {}; // a close event follows
    this.arm();
  }

  /** Expect a frame at least every 2.5 heartbeats (the server pings every heartbeat). */
  heartbeat(seconds: number): void {
    this.silenceS = 2.5 * seconds;
    this.arm();
  }

  send(text: string): void {
    if (!this.closed) this.ws.send(text);
  }

  async next(): Promise<Item> {
    while (this.items.length === 0) await new Promise<void>((resolve) => (this.wake = resolve));
    return this.items.shift()!;
  }

  /** Close it (if still open) and end the queue with `code`. */
  end(code: number, reason: string): void {
    if (this.closed) return;
    this.closed = true;
    clearTimeout(this.timer);
    try {
      this.ws.close(1000);
    } catch {
      // closing a socket that never opened
    }
    this.push({ close: code, reason });
  }

  private arm(): void {
    clearTimeout(this.timer);
    if (this.closed) return;
    this.timer = setTimeout(() => this.end(1006, "the server went silent"), this.silenceS * 1000);
  }

  private push(item: Item): void {
    this.items.push(item);
    this.wake?.();
    this.wake = null;
  }
}

/** Reconnections of one stream: failures in a row, and the wait (or the error) after a close. */
class Link {
  failures = 0;
  readonly policy: RetryPolicy;

  constructor(
    private readonly transport: Transport,
    retry: Partial<RetryPolicy> | undefined,
    private readonly signal: AbortSignal | undefined,
  ) {
    this.policy = { ...transport.streamRetry, ...retry };
  }

  async reopen(code: number, reason: string, refusal: ApiError | null): Promise<void> {
    let atLeast = 0;
    let final: Error;
    if (code === RATE_LIMITED) {
      final = refusal ?? new RateLimited(reason, null, 429);
      const details = (refusal?.details ?? {}) as { retry_after?: unknown };
      atLeast = typeof details.retry_after === "number" ? details.retry_after : 1;
    } else if (RETRYABLE.has(code)) {
      final = new StreamClosed(code, reason);
    } else {
      throw refusal ?? new StreamClosed(code, reason);
    }
    if (this.failures + 1 >= this.policy.attempts) throw final;
    await this.transport.sleep(delay(this.policy, this.failures, atLeast), this.signal);
    this.failures += 1;
  }
}

/** The stream protocol version this client speaks, sent as `?protocol=` (docs/streams.md). */
export const PROTOCOL = 2;

function streamUrl(base: string, path: string, query: Record<string, string>): string {
  const url = new URL(base.replace(/^http/, "ws") + path);
  for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
  return url.toString();
}

function constructor(transport: Transport): WebSocketConstructor {
  if (!transport.WebSocket) throw new TypeError("no WebSocket here: pass one as the client's `WebSocket` option");
  return transport.WebSocket;
}

/** The error of a refused connection, with the HTTP status of its code. */
function refusalOf(frame: Record<string, any>): ApiError {
  return apiError(frame, BY_CODE[String(frame.error?.code)]?.status ?? 400);
}

function abortable(connection: Connection, signal: AbortSignal | undefined): () => void {
  const stop = () => connection.end(1000, "aborted");
  signal?.addEventListener("abort", stop, { once: true });
  return () => signal?.removeEventListener("abort", stop);
}

export async function* follow(
  transport: Transport,
  matchId: string,
  options: FollowOptions = {},
): AsyncGenerator<CommitFrame | HelloFrame, void, undefined> {
  const { views = true, hellos = false, untilEnd = true, signal } = options;
  const WS = constructor(transport);
  const credential = options.token ?? transport.token;
  const link = new Link(transport, options.retry, signal);
  let last = options.after ?? null;
  let chatLast: number | null = null; // known once a hello names the chat cursor
  for (;;) {
    const query: Record<string, string> = { protocol: String(PROTOCOL), views: views ? "1" : "0" };
    if (last !== null) query.after = String(last);
    if (options.onChat && chatLast !== null) query.chat_after = String(chatLast);
    if (!credential) query.spectate = "1";
    const path = `/v1/matches/${encodeURIComponent(matchId)}/stream`;
    const auth = credential ? JSON.stringify({ type: "auth", token: credential }) : null;
    const connection = new Connection(WS, streamUrl(transport.baseUrl, path, query), auth);
    const release = abortable(connection, signal);
    let refusal: ApiError | null = null;
    let close: { code: number; reason: string };
    try {
      for (;;) {
        const item = await connection.next();
        if ("close" in item) {
          close = { code: item.close, reason: item.reason };
          break;
        }
        const frame = item.frame;
        if (frame.type === "ping") connection.send('{"type":"pong"}');
        else if (frame.type === "error" && frame.id == null) refusal = refusalOf(frame);
        else if (frame.type === "hello") {
          const hello = frame as HelloFrame;
          link.failures = 0;
          connection.heartbeat(hello.heartbeat);
          last ??= hello.after;
          const chatSeq = (frame as { chat_seq?: unknown }).chat_seq;
          if (chatLast === null && typeof chatSeq === "number") chatLast = chatSeq;
          if (hellos) yield hello;
          if (untilEnd && OVER.has(hello.view.status) && hello.seq <= last) return;
        } else if (frame.type === "commit" && last !== null) {
          const commit = frame as CommitFrame;
          if (commit.seq <= last) continue; // seen already
          if ((commit.events[0]?.seq ?? commit.seq) !== last + 1) {
            connection.end(1006, `gap after seq ${last}`); // reconnect: the server sends what is missing
            continue;
          }
          yield commit;
          last = commit.seq;
          if (untilEnd && commit.events.some((e) => e.type === "match_ended")) return;
        } else if (frame.type === "chat" && options.onChat) {
          const chat = frame as ChatFrame;
          if (chatLast !== null && chat.chat_seq <= chatLast) continue; // seen already
          chatLast = chat.chat_seq;
          options.onChat(chat);
        }
      }
    } finally {
      release();
      connection.end(1000, "done");
    }
    signal?.throwIfAborted();
    await link.reopen(close.code, close.reason, refusal);
  }
}

export async function* followPlayer(
  transport: Transport,
  options: FollowPlayerOptions = {},
): AsyncGenerator<NoticeFrame | PlayerHelloFrame, void, undefined> {
  const { hellos = false, signal } = options;
  const WS = constructor(transport);
  const key = options.key ?? transport.token;
  if (!key) throw new TypeError("followPlayer needs a player key");
  const link = new Link(transport, options.retry, signal);
  let last = options.after ?? null;
  for (;;) {
    const query: Record<string, string> = { protocol: String(PROTOCOL) };
    if (last !== null) query.after = String(last);
    const url = streamUrl(transport.baseUrl, "/v1/players/me/stream", query);
    const connection = new Connection(WS, url, JSON.stringify({ type: "auth", token: key }));
    const release = abortable(connection, signal);
    let refusal: ApiError | null = null;
    let close: { code: number; reason: string };
    try {
      for (;;) {
        const item = await connection.next();
        if ("close" in item) {
          close = { code: item.close, reason: item.reason };
          break;
        }
        const frame = item.frame;
        if (frame.type === "ping") connection.send('{"type":"pong"}');
        else if (frame.type === "error" && frame.id == null) refusal = refusalOf(frame);
        else if (frame.type === "hello") {
          const hello = frame as PlayerHelloFrame;
          link.failures = 0;
          connection.heartbeat(hello.heartbeat);
          last ??= hello.after;
          if (hellos) yield hello;
        } else if (frame.type === "notice" && last !== null) {
          const notice = frame as NoticeFrame;
          if (notice.cursor <= last) continue;
          if (notice.cursor !== last + 1) {
            connection.end(1006, `gap after cursor ${last}`);
            continue;
          }
          yield notice;
          last = notice.cursor;
        }
      }
    } finally {
      release();
      connection.end(1000, "done");
    }
    signal?.throwIfAborted();
    await link.reopen(close.code, close.reason, refusal);
  }
}
