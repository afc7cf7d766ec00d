/**
 * Sending one API call with `fetch`, with retries: the base class of the client.
 *
 * The generated `Api` (generated/api.ts) describes each route as a `CallSpec`; `Transport.call`
 * adds the credential and the idempotency key, sends it with the retry policy (retry.ts), throws
 * the `ApiError` of an error answer and returns the parsed JSON (or text) of a success.
 */

import { ApiError, TransportError, apiError } from "./errors.js";
import { DEFAULT_RETRY, STREAM_RETRY, delay, retryAfter, retryableFailure, retryableStatus, sleep } from "./retry.js";
import type { RetryPolicy } from "./retry.js";

export const VERSION = "2.0.0";

/** Per call: the credential (seat token or player key; else the client's), an `Idempotency-Key`
 * (actions and resignations; made up if absent), and a signal to abort the call. */
export interface CallOptions {
  token?: string;
  idempotencyKey?: string;
  signal?: AbortSignal;
}

/** One request as the generated methods describe it. */
export interface CallSpec {
  method: string;
  path: string;
  query?: Record<string, unknown>;
  body?: unknown;
  auth?: "none" | "token" | "explicit" | "host"; // explicit and host: never the client's default
  token?: string;
  keyed?: boolean;
  text?: boolean;
}

/** What the client needs of a WebSocket: the browser's, Node ≥ 22's global, or the `ws` package's.
 * (The handlers take `any` so that each implementation's own event types fit.) */
export interface WebSocketLike {
  readonly readyState: number;
  onopen: ((event: any) => void) | null;
  onmessage: ((event: any) => void) | null;
  onclose: ((event: any) => void) | null;
  onerror: ((event: any) => void) | null;
  send(data: string): void;
  close(code?: number, reason?: string): void;
}
export type WebSocketConstructor = new (url: string) => WebSocketLike;

export interface ClientOptions {
  /** The default credential: a seat token or a player key. */
  token?: string | null;
  retry?: Partial<RetryPolicy>;
  /** Reconnections of streams (default: 20 in a row, 0.5 s doubling to 30 s). */
  streamRetry?: Partial<RetryPolicy>;
  /** Per attempt, in milliseconds (default 10 000). */
  timeoutMs?: number;
  /** Default: the global `fetch`. */
  fetch?: typeof fetch;
  /** Default: the global `WebSocket` (Node 20 has none: pass the `ws` package's). */
  WebSocket?: WebSocketConstructor;
}

function newKey(): string {
  const bytes = new Uint8Array(16);
  globalThis.crypto.getRandomValues(bytes);
  return "ts-" + Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

export class Transport {
  readonly baseUrl: string;
  token: string | null;
  retry: RetryPolicy;
  streamRetry: RetryPolicy;
  readonly timeoutMs: number;
  readonly fetch: typeof fetch;
  readonly WebSocket: WebSocketConstructor | undefined;

  constructor(baseUrl: string, options: ClientOptions = {}) {
    this.baseUrl = baseUrl.replace(/\/+$/, "");
    this.token = options.token ?? null;
    this.retry = { ...DEFAULT_RETRY, ...options.retry };
    this.streamRetry = { ...STREAM_RETRY, ...options.streamRetry };
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.fetch = options.fetch ?? globalThis.fetch.bind(globalThis);
    this.WebSocket = options.WebSocket ?? (globalThis as { WebSocket?: WebSocketConstructor }).WebSocket;
  }

  /** Waits before a retry (tests replace it). */
  sleep(seconds: number, signal?: AbortSignal): Promise<void> {
    return sleep(seconds, signal);
  }

  protected async call<T>(spec: CallSpec, options: CallOptions = {}): Promise<T> {
    const headers: Record<string, string> = { Accept: "application/json" };
    const token = spec.auth === "host" ? spec.token : spec.auth === "explicit" ? options.token : (options.token ?? this.token);
    if ((spec.auth ?? "none") !== "none" && token) headers["Authorization"] = `Bearer ${token}`;
    const key = options.idempotencyKey ?? (spec.keyed ? newKey() : undefined);
    if (key !== undefined) headers["Idempotency-Key"] = key; // the same on every attempt
    let body: string | undefined;
    if (spec.body !== undefined) {
      headers["Content-Type"] = "application/json";
      body = JSON.stringify(spec.body);
    }
    const url = new URL(this.baseUrl + spec.path);
    for (const [name, value] of Object.entries(spec.query ?? {})) {
      if (value !== undefined && value !== null) url.searchParams.set(name, String(value));
    }
    const safe = spec.method === "GET" || key !== undefined;
    for (let attempt = 0; ; attempt++) {
      const last = attempt + 1 >= this.retry.attempts;
      let response: Response;
      try {
        response = await this.fetch(url, { method: spec.method, headers, body, signal: this.signal(options.signal) });
      } catch (error) {
        if (options.signal?.aborted) throw error;
        if (last || !retryableFailure(error, safe)) {
          throw new TransportError(`${spec.method} ${spec.path}: ${String((error as Error)?.message ?? error)}`, { cause: error });
        }
        await this.sleep(delay(this.retry, attempt), options.signal);
        continue;
      }
      if (response.ok) return (spec.text ? await response.text() : await response.json()) as T;
      const wait = retryAfter(response.headers);
      if (!last && retryableStatus(response.status, safe) && (wait === null || wait <= this.retry.maxRetryAfter)) {
        await response.body?.cancel();
        await this.sleep(delay(this.retry, attempt, wait), options.signal);
        continue;
      }
      throw await errorOf(response, wait);
    }
  }

  private signal(user: AbortSignal | undefined): AbortSignal {
    const timeout = AbortSignal.timeout(this.timeoutMs);
    if (!user) return timeout;
    if (typeof AbortSignal.any === "function") return AbortSignal.any([user, timeout]);
    const both = new AbortController(); // browsers without AbortSignal.any (Safari < 17.4)
    for (const signal of [user, timeout]) signal.addEventListener("abort", () => both.abort(signal.reason), { once: true });
    return both.signal;
  }
}

async function errorOf(response: Response, wait: number | null): Promise<ApiError> {
  const text = await response.text();
  let body: unknown = text.slice(0, 500);
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON (a proxy's page): the status alone says what happened
  }
  return apiError(body, response.status, wait);
}
