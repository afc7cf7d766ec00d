/**
 * The typed client of the Mount Drago and Yutakâ game server, for browsers and Node ≥ 20.
 * No runtime dependency: the platform's `fetch` and `WebSocket` (in Node 20, pass the `ws`
 * package's as the `WebSocket` option).
 */

export { DragoClient } from "./client.js";
export * from "./errors.js";
export type * from "./generated/models.js";
export type { Action, EventData, MountDrago, Options, Setup, View, Yutaka } from "./generated/games.js";
export { DEFAULT_RETRY, STREAM_RETRY, type RetryPolicy } from "./retry.js";
export { InvalidWebhook, verifyWebhook, webhookSignature, type VerifyOptions } from "./webhooks.js";
export { RETRYABLE, type FollowOptions, type FollowPlayerOptions } from "./streams.js";
export { VERSION, type CallOptions, type ClientOptions, type WebSocketConstructor, type WebSocketLike } from "./transport.js";
export { ALGORITHM, Stream, combinedSeed, commitment, deal, toHex, verifyMatch, type Verdict } from "./fairness.js";
