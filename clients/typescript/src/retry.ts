/**
 * When a request (or a stream) is tried again, and how long the client waits first.
 *
 * A request is retried only when that cannot do harm: any request refused with 429 (after the
 * server's `Retry-After`) or whose connection was refused; a *safe* one — `GET`s, and the `POST`s
 * that carry an `Idempotency-Key` (actions, resignations: the client makes one up, so a retry
 * returns the first outcome and never applies an action twice) — also after a network failure, a
 * timeout or 502/503/504. Creating a match or joining a seat is not retried after an ambiguous
 * failure: the error is thrown and the caller decides.
 */

export interface RetryPolicy {
  /** Tries in all (1: never retry); for streams, failed connections in a row. */
  attempts: number;
  /** Seconds before the first retry, doubled each time up to `maxBackoff`, scaled by [0.5, 1]. */
  backoff: number;
  maxBackoff: number;
  /** A longer `Retry-After` is not waited for: `RateLimited` is thrown at once. */
  maxRetryAfter: number;
}

export const DEFAULT_RETRY: RetryPolicy = { attempts: 6, backoff: 0.25, maxBackoff: 10, maxRetryAfter: 60 };
/** Streams: about ten minutes of a server that stays away before giving up. */
export const STREAM_RETRY: RetryPolicy = { attempts: 20, backoff: 0.5, maxBackoff: 30, maxRetryAfter: 300 };
export const RETRY_STATUSES: ReadonlySet<number> = new Set([429, 502, 503, 504]);

/** Seconds to wait before retry number `retry` (0 for the first). */
export function delay(policy: RetryPolicy, retry: number, retryAfter: number | null = null): number {
  const base = Math.min(policy.maxBackoff, policy.backoff * 2 ** retry);
  return Math.max(base * (0.5 + Math.random() / 2), retryAfter ?? 0);
}

export function retryableStatus(status: number, safe: boolean): boolean {
  return status === 429 || (safe && RETRY_STATUSES.has(status));
}

/** Whether a failed `fetch` (no answer) may be retried: safe requests always; others only when
 * the connection was refused (Node reports it; a browser cannot tell, so it never retries them). */
export function retryableFailure(error: unknown, safe: boolean): boolean {
  if (safe) return true;
  const code = (error as { cause?: { code?: unknown } } | null)?.cause?.code;
  return code === "ECONNREFUSED" || code === "ENOTFOUND" || code === "EAI_AGAIN";
}

/** The `Retry-After` header in seconds (a number or an HTTP date), if any. */
export function retryAfter(headers: Headers): number | null {
  const value = headers.get("retry-after");
  if (value === null) return null;
  const seconds = Number(value);
  if (!Number.isNaN(seconds)) return Math.max(0, seconds);
  const when = Date.parse(value);
  return Number.isNaN(when) ? null : Math.max(0, (when - Date.now()) / 1000);
}

export const sleep = (seconds: number, signal?: AbortSignal): Promise<void> =>
  new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, seconds * 1000);
    signal?.addEventListener("abort", () => {
      clearTimeout(timer);
      reject(signal.reason);
    }, { once: true });
  });
