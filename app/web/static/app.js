// ../clients/typescript/src/errors.ts
var DragoError = class extends Error {
  name = "DragoError";
};
var TransportError = class extends DragoError {
  name = "TransportError";
};
var StreamClosed = class extends DragoError {
  constructor(code, reason = "") {
    super(reason ? `stream closed with ${code}: ${reason}` : `stream closed with ${code}`);
    this.code = code;
    this.reason = reason;
  }
  code;
  reason;
  name = "StreamClosed";
};
var ApiError = class extends DragoError {
  constructor(message, details = null, status, code) {
    super(message);
    this.details = details;
    const cls = this.constructor;
    this.code = code ?? cls.code;
    this.status = status ?? cls.status;
    this.name = new.target.name;
  }
  details;
  static code = "error";
  static status = 400;
  name = "ApiError";
  code;
  status;
};
function error(code, status) {
  return class extends ApiError {
    static code = code;
    static status = status;
  };
}
var ValidationError = class extends error("validation_error", 422) {
};
var IdempotencyKeyReused = class extends error("idempotency_key_reused", 422) {
};
var Unauthorized = class extends error("unauthorized", 401) {
};
var Forbidden = class extends error("forbidden", 403) {
};
var PlayerKeyRequired = class extends error("player_key_required", 403) {
};
var Banned = class extends error("banned", 403) {
};
var ChatClosed = class extends error("chat_closed", 403) {
};
var NotFound = class extends error("not_found", 404) {
};
var MethodNotAllowed = class extends error("method_not_allowed", 405) {
};
var Conflict = class extends error("conflict", 409) {
};
var IllegalAction = class extends Conflict {
  static code = "illegal_action";
};
var NotYourTurn = class extends Conflict {
  static code = "not_your_turn";
};
var MatchOver = class extends Conflict {
  static code = "match_over";
};
var VersionConflict = class extends Conflict {
  static code = "version_conflict";
};
var SeatTaken = class extends Conflict {
  static code = "seat_taken";
};
var SeatNotHeld = class extends Conflict {
  static code = "seat_not_held";
};
var AlreadySeated = class extends Conflict {
  static code = "already_seated";
};
var AlreadyResigned = class extends Conflict {
  static code = "already_resigned";
};
var MatchNotStarted = class extends Conflict {
  static code = "match_not_started";
};
var MatchStarted = class extends Conflict {
  static code = "match_started";
};
var NameTaken = class extends Conflict {
  static code = "name_taken";
};
var MatchNotFinished = class extends Conflict {
  static code = "match_not_finished";
};
var TooManySeeks = class extends Conflict {
  static code = "too_many_seeks";
};
var SeekClosed = class extends Conflict {
  static code = "seek_closed";
};
var ChallengeClosed = class extends Conflict {
  static code = "challenge_closed";
};
var PayloadTooLarge = class extends error("payload_too_large", 413) {
};
var RateLimited = class extends error("rate_limited", 429) {
  retryAfter = null;
};
var InternalError = class extends error("internal_error", 500) {
};
var Unavailable = class extends error("unavailable", 503) {
};
var BY_CODE = Object.fromEntries(
  [
    ValidationError,
    IdempotencyKeyReused,
    Unauthorized,
    Forbidden,
    PlayerKeyRequired,
    Banned,
    ChatClosed,
    NotFound,
    MethodNotAllowed,
    IllegalAction,
    NotYourTurn,
    MatchOver,
    VersionConflict,
    SeatTaken,
    SeatNotHeld,
    AlreadySeated,
    AlreadyResigned,
    MatchNotStarted,
    MatchStarted,
    NameTaken,
    MatchNotFinished,
    TooManySeeks,
    SeekClosed,
    ChallengeClosed,
    PayloadTooLarge,
    RateLimited,
    InternalError,
    Unavailable
  ].map((cls) => [cls.code, cls])
);
function apiError(body, status, retryAfter2 = null) {
  const envelope = body?.error;
  let code = `http_${status}`;
  let message = `HTTP ${status}`;
  let details = body;
  if (envelope && typeof envelope.code === "string") {
    code = envelope.code;
    message = typeof envelope.message === "string" ? envelope.message : code;
    details = envelope.details ?? null;
  }
  const cls = BY_CODE[code] ?? (status === 409 ? Conflict : ApiError);
  const error2 = new cls(message, details, status, code);
  if (error2 instanceof RateLimited) error2.retryAfter = retryAfter2;
  return error2;
}

// ../clients/typescript/src/retry.ts
var DEFAULT_RETRY = { attempts: 6, backoff: 0.25, maxBackoff: 10, maxRetryAfter: 60 };
var STREAM_RETRY = { attempts: 20, backoff: 0.5, maxBackoff: 30, maxRetryAfter: 300 };
var RETRY_STATUSES = /* @__PURE__ */ new Set([429, 502, 503, 504]);
function delay(policy, retry, retryAfter2 = null) {
  const base = Math.min(policy.maxBackoff, policy.backoff * 2 ** retry);
  return Math.max(base * (0.5 + Math.random() / 2), retryAfter2 ?? 0);
}
function retryableStatus(status, safe) {
  return status === 429 || safe && RETRY_STATUSES.has(status);
}
function retryableFailure(error2, safe) {
  if (safe) return true;
  const code = error2?.cause?.code;
  return code === "ECONNREFUSED" || code === "ENOTFOUND" || code === "EAI_AGAIN";
}
function retryAfter(headers) {
  const value = headers.get("retry-after");
  if (value === null) return null;
  const seconds = Number(value);
  if (!Number.isNaN(seconds)) return Math.max(0, seconds);
  const when = Date.parse(value);
  return Number.isNaN(when) ? null : Math.max(0, (when - Date.now()) / 1e3);
}
var sleep = (seconds, signal) => new Promise((resolve, reject) => {
  if (signal?.aborted) return reject(signal.reason);
  const timer = setTimeout(resolve, seconds * 1e3);
  signal?.addEventListener("abort", () => {
    clearTimeout(timer);
    reject(signal.reason);
  }, { once: true });
});

// ../clients/typescript/src/transport.ts
function newKey() {
  const bytes = new Uint8Array(16);
  globalThis.crypto.getRandomValues(bytes);
  return "ts-" + Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}
var Transport = class {
  baseUrl;
  token;
  retry;
  streamRetry;
  timeoutMs;
  fetch;
  WebSocket;
  constructor(baseUrl, options = {}) {
    this.baseUrl = baseUrl.replace(/\/+$/, "");
    this.token = options.token ?? null;
    this.retry = { ...DEFAULT_RETRY, ...options.retry };
    this.streamRetry = { ...STREAM_RETRY, ...options.streamRetry };
    this.timeoutMs = options.timeoutMs ?? 1e4;
    this.fetch = options.fetch ?? globalThis.fetch.bind(globalThis);
    this.WebSocket = options.WebSocket ?? globalThis.WebSocket;
  }
  /** Waits before a retry (tests replace it). */
  sleep(seconds, signal) {
    return sleep(seconds, signal);
  }
  async call(spec, options = {}) {
    const headers = { Accept: "application/json" };
    const token = spec.auth === "host" ? spec.token : spec.auth === "explicit" ? options.token : options.token ?? this.token;
    if ((spec.auth ?? "none") !== "none" && token) headers["Authorization"] = `Bearer ${token}`;
    const key3 = options.idempotencyKey ?? (spec.keyed ? newKey() : void 0);
    if (key3 !== void 0) headers["Idempotency-Key"] = key3;
    let body;
    if (spec.body !== void 0) {
      headers["Content-Type"] = "application/json";
      body = JSON.stringify(spec.body);
    }
    const url = new URL(this.baseUrl + spec.path);
    for (const [name, value] of Object.entries(spec.query ?? {})) {
      if (value !== void 0 && value !== null) url.searchParams.set(name, String(value));
    }
    const safe = spec.method === "GET" || key3 !== void 0;
    for (let attempt = 0; ; attempt++) {
      const last = attempt + 1 >= this.retry.attempts;
      let response;
      try {
        response = await this.fetch(url, { method: spec.method, headers, body, signal: this.signal(options.signal) });
      } catch (error2) {
        if (options.signal?.aborted) throw error2;
        if (last || !retryableFailure(error2, safe)) {
          throw new TransportError(`${spec.method} ${spec.path}: ${String(error2?.message ?? error2)}`, { cause: error2 });
        }
        await this.sleep(delay(this.retry, attempt), options.signal);
        continue;
      }
      if (response.ok) return spec.text ? await response.text() : await response.json();
      const wait = retryAfter(response.headers);
      if (!last && retryableStatus(response.status, safe) && (wait === null || wait <= this.retry.maxRetryAfter)) {
        await response.body?.cancel();
        await this.sleep(delay(this.retry, attempt, wait), options.signal);
        continue;
      }
      throw await errorOf(response, wait);
    }
  }
  signal(user) {
    const timeout = AbortSignal.timeout(this.timeoutMs);
    if (!user) return timeout;
    if (typeof AbortSignal.any === "function") return AbortSignal.any([user, timeout]);
    const both = new AbortController();
    for (const signal of [user, timeout]) signal.addEventListener("abort", () => both.abort(signal.reason), { once: true });
    return both.signal;
  }
};
async function errorOf(response, wait) {
  const text2 = await response.text();
  let body = text2.slice(0, 500);
  try {
    body = JSON.parse(text2);
  } catch {
  }
  return apiError(body, response.status, wait);
}

// ../clients/typescript/src/generated/api.ts
var enc = (value) => encodeURIComponent(String(value));
var Api = class extends Transport {
  /**
   * The host cancels a match before it starts.
   *
   * Needs the host token. Appends `match_aborted` and `match_ended` (reason `aborted`); a started
   * match is 409 `match_started`.
   */
  abortMatch(matchId, hostToken, options = {}) {
    return this.call({ method: "POST", path: `/v1/matches/${enc(matchId)}/abort`, auth: "host", token: hostToken }, options);
  }
  /** Accept a challenge (the last acceptance starts the match). */
  acceptChallenge(challengeId, options = {}) {
    return this.call({ method: "POST", path: `/v1/challenges/${enc(challengeId)}/accept`, auth: "token" }, options);
  }
  /**
   * Block a player: their chat messages never reach you.
   *
   * 201 for a new block, 200 when it existed already. Blocking oneself is 422; an unknown player
   * 404.
   */
  blockPlayer(playerId, options = {}) {
    return this.call({ method: "POST", path: `/v1/players/me/blocks/${enc(playerId)}`, auth: "token" }, options);
  }
  /** Cancel an open seek. */
  cancelSeek(seekId, options = {}) {
    return this.call({ method: "DELETE", path: `/v1/seeks/${enc(seekId)}`, auth: "token" }, options);
  }
  /**
   * Challenge named players to a match.
   *
   * Each invited player is told on its personal stream (`challenge_received`) and sees the
   * challenge in `listMyChallenges`; the match starts when every one has accepted. A challenge
   * expires after a day unless `expires_s` says otherwise.
   */
  createChallenge(body, options = {}) {
    return this.call({ method: "POST", path: `/v1/challenges`, body, auth: "token" }, options);
  }
  /**
   * Create a match.
   *
   * Deals the match and seats its server bots, in one commit. The match is `waiting` until its last
   * seat is filled, then `active` (a `match_started` event). The reply carries the host token (and,
   * for an unlisted match, the invite code) once. `seed` and `setup` are development features.
   */
  createMatch(body, options = {}) {
    return this.call({ method: "POST", path: `/v1/matches`, body, auth: "token" }, options);
  }
  /**
   * Create a player; returns its secret key, once.
   *
   * No password, no e-mail: the key (`pk_…`) is the identity, like a personal API token. Join seats
   * with it (`Authorization: Bearer <key>`) and it authorizes them in every match.
   */
  createPlayer(body, options = {}) {
    return this.call({ method: "POST", path: `/v1/players`, body }, options);
  }
  /**
   * Seek a match (quick play).
   *
   * The seek waits in the database until the matcher seats it in a match with compatible seekers
   * (the same game, options and settings, a common player count, opponents each accepts), it is
   * cancelled, or it expires. The player learns of the match on its personal stream
   * (`seek_matched`) and in `listMySeeks`. A player holds at most a few open seeks (409
   * `too_many_seeks`); see docs/matchmaking.md.
   */
  createSeek(body, options = {}) {
    return this.call({ method: "POST", path: `/v1/seeks`, body, auth: "token" }, options);
  }
  /**
   * Register a webhook; returns its signing secret, once.
   *
   * Each of the player's notices of the chosen types is POSTed to `url` as JSON, at least once,
   * signed with HMAC-SHA256 (`Drago-Webhook-Signature`); see docs/matchmaking.md. URLs on loopback,
   * private or link-local addresses are refused unless the operator allows them.
   */
  createWebhook(body, options = {}) {
    return this.call({ method: "POST", path: `/v1/players/me/webhooks`, body, auth: "token" }, options);
  }
  /** Decline a challenge, with an optional reason. */
  declineChallenge(challengeId, body, options = {}) {
    return this.call({ method: "POST", path: `/v1/challenges/${enc(challengeId)}/decline`, body, auth: "token" }, options);
  }
  /** Remove a webhook. */
  deleteWebhook(webhookId, options = {}) {
    return this.call({ method: "DELETE", path: `/v1/players/me/webhooks/${enc(webhookId)}`, auth: "token", text: true }, options);
  }
  /**
   * A player's finished matches, one JSON object per line (NDJSON), streamed.
   *
   * Newest first; `since`/`until` bound the end time (`since` inclusive). Public matches for
   * anybody; with the player's own key also its unlisted ones. Each line is an `ExportLine`.
   */
  exportPlayerMatches(playerId, query = {}, options = {}) {
    return this.call({ method: "GET", path: `/v1/players/${enc(playerId)}/matches`, query, auth: "token", text: true }, options);
  }
  /**
   * The messages of the chat rooms the caller may read, after a cursor.
   *
   * Without `room`: every room the caller may read now; a room it may not read is 403 (a
   * switched-off spectators' room reads empty). Messages of players the caller blocks, and of
   * banned players, are left out. Without a credential: an anonymous spectator.
   */
  getChat(matchId, query = {}, options = {}) {
    return this.call({ method: "GET", path: `/v1/matches/${enc(matchId)}/chat`, query, auth: "token" }, options);
  }
  /** A game: player counts, payload schemas, drawing data. */
  getGame(game, options = {}) {
    return this.call({ method: "GET", path: `/v1/games/${enc(game)}` }, options);
  }
  /**
   * A game's leaderboard: non-provisional players, best first.
   *
   * Ordered by the displayed rating, then player id (stable under ties). `limit` over 100 is
   * capped; a page past the end is empty.
   */
  getLeaderboard(game, query = {}, options = {}) {
    return this.call({ method: "GET", path: `/v1/games/${enc(game)}/leaderboard`, query }, options);
  }
  /** A match's public summary. */
  getMatch(matchId, options = {}) {
    return this.call({ method: "GET", path: `/v1/matches/${enc(matchId)}` }, options);
  }
  /** Each seat's rating before and after a finished rated match. */
  getMatchRatings(matchId, options = {}) {
    return this.call({ method: "GET", path: `/v1/matches/${enc(matchId)}/ratings` }, options);
  }
  /** The player of the key. */
  getMe(options = {}) {
    return this.call({ method: "GET", path: `/v1/players/me`, auth: "token" }, options);
  }
  /** Prometheus metrics. */
  getMetrics(options = {}) {
    return this.call({ method: "GET", path: `/metrics`, text: true }, options);
  }
  /** A player's public profile: name, bot flag, rating per game. */
  getPlayerProfile(playerId, options = {}) {
    return this.call({ method: "GET", path: `/v1/players/${enc(playerId)}` }, options);
  }
  /** A player's rating history in a game: one point per rated match. */
  getRatingHistory(playerId, game, options = {}) {
    return this.call({ method: "GET", path: `/v1/players/${enc(playerId)}/ratings/${enc(game)}` }, options);
  }
  /**
   * The caller's view (seat token or player key) or the spectator view (no credential).
   *
   * With `at`, the view as it was when the match was at that seq (a replay); `at` must end a commit
   * (the `commit` of its event), else 422 naming the nearest valid seqs.
   */
  getView(matchId, query = {}, options = {}) {
    return this.call({ method: "GET", path: `/v1/matches/${enc(matchId)}/view`, query, auth: "token" }, options);
  }
  /**
   * The host hands a silent seat to a server bot for the rest of the match.
   *
   * Needs the host token. Appends `seat_taken_over` (reason `host`).
   */
  handSeatToBot(matchId, seat, hostToken, options = {}) {
    return this.call({ method: "POST", path: `/v1/matches/${enc(matchId)}/seats/${enc(seat)}/bot`, auth: "host", token: hostToken }, options);
  }
  /** Liveness. */
  healthz(options = {}) {
    return this.call({ method: "GET", path: `/healthz` }, options);
  }
  /**
   * Join a free seat; returns its secret token, once.
   *
   * The match starts when its last seat is filled. With `Authorization: Bearer <player key>` the
   * seat is bound to that player (one seat per match), whose key then works as the seat's token. An
   * unlisted match needs its `invite` code. `client_seed` is the seat's own seed for the deal
   * (docs/fairness.md); the reply returns it, or the one the server chose.
   */
  joinSeat(matchId, seat, body, options = {}) {
    return this.call({ method: "POST", path: `/v1/matches/${enc(matchId)}/seats/${enc(seat)}`, body, auth: "explicit" }, options);
  }
  /** The players you block. */
  listBlocks(options = {}) {
    return this.call({ method: "GET", path: `/v1/players/me/blocks`, auth: "token" }, options);
  }
  /** The webhook's last delivery attempts, newest first. */
  listDeliveries(webhookId, query = {}, options = {}) {
    return this.call({ method: "GET", path: `/v1/players/me/webhooks/${enc(webhookId)}/deliveries`, query, auth: "token" }, options);
  }
  /** The event log redacted for the caller (history). */
  listEvents(matchId, query = {}, options = {}) {
    return this.call({ method: "GET", path: `/v1/matches/${enc(matchId)}/events`, query, auth: "token" }, options);
  }
  /** List the games. */
  listGames(options = {}) {
    return this.call({ method: "GET", path: `/v1/games` }, options);
  }
  /**
   * The lobby: public matches, newest first, paged.
   *
   * Unlisted matches never appear. `open=true`: waiting matches with a free seat; each item lists
   * its seats, so a lobby needs one request.
   */
  listMatches(query = {}, options = {}) {
    return this.call({ method: "GET", path: `/v1/matches`, query }, options);
  }
  /** Challenges the player sent or received, newest first. */
  listMyChallenges(query = {}, options = {}) {
    return this.call({ method: "GET", path: `/v1/players/me/challenges`, query, auth: "token" }, options);
  }
  /** The player's seeks in every status, newest first. */
  listMySeeks(query = {}, options = {}) {
    return this.call({ method: "GET", path: `/v1/players/me/seeks`, query, auth: "token" }, options);
  }
  /** Open seeks, oldest first (public). */
  listSeeks(query = {}, options = {}) {
    return this.call({ method: "GET", path: `/v1/seeks`, query }, options);
  }
  /** The player's webhooks (never their secrets). */
  listWebhooks(options = {}) {
    return this.call({ method: "GET", path: `/v1/players/me/webhooks`, auth: "token" }, options);
  }
  /**
   * The player's matches, newest activity first.
   *
   * `to_act=me`: only matches where the player must act now.
   */
  myMatches(query = {}, options = {}) {
    return this.call({ method: "GET", path: `/v1/players/me/matches`, query, auth: "token" }, options);
  }
  /**
   * Write a message in one of the match's chat rooms.
   *
   * `players`: the seated players (seat token or player key); `spectators`: a player key without a
   * seat, and after the end also the players. Text is trimmed; 1–500 characters, no control
   * characters. At most `DRAGO_CHAT_RATE_MESSAGES` per `DRAGO_CHAT_RATE_SECONDS` per author (429
   * `rate_limited` with `Retry-After`). See docs/chat.md.
   */
  postChat(matchId, body, options = {}) {
    return this.call({ method: "POST", path: `/v1/matches/${enc(matchId)}/chat`, body, auth: "token" }, options);
  }
  /** Readiness: the database is reachable and migrated to the newest schema. */
  readyz(options = {}) {
    return this.call({ method: "GET", path: `/readyz` }, options);
  }
  /**
   * The host issues a seat a new token (the old one stops working at once).
   *
   * Needs the host token. Appends `seat_token_reissued` (which holds no token).
   */
  reissueSeatToken(matchId, seat, hostToken, options = {}) {
    return this.call({ method: "POST", path: `/v1/matches/${enc(matchId)}/seats/${enc(seat)}/token`, auth: "host", token: hostToken }, options);
  }
  /**
   * Report a message to the operators.
   *
   * With a player key or a seat token; the message must be one the caller may read.
   */
  reportChat(matchId, messageId, body, options = {}) {
    return this.call({ method: "POST", path: `/v1/matches/${enc(matchId)}/chat/${enc(messageId)}/report`, body, auth: "token" }, options);
  }
  /**
   * The caller's seat resigns.
   *
   * Two players: the other wins (`match_ended`, reason `resigned`). More: a server bot plays the
   * seat on and it is ranked last. A second resignation is 409 `already_resigned` (or
   * `match_over`); with the same `Idempotency-Key` a retry gets the first reply.
   */
  resign(matchId, options = {}) {
    return this.call({ method: "POST", path: `/v1/matches/${enc(matchId)}/resign`, auth: "token", keyed: true }, options);
  }
  /**
   * After the end: the secret, the commitment and the full unredacted log.
   *
   * Anyone may read it once the match is over; before that: 409 `match_not_finished`. Check:
   * `sha256(canonical_json({"deal": events[0].data, "secret": secret})) == commitment`.
   */
  revealMatch(matchId, options = {}) {
    return this.call({ method: "GET", path: `/v1/matches/${enc(matchId)}/reveal` }, options);
  }
  /** A new key for the player (the old one stops working at once). */
  rotateKey(options = {}) {
    return this.call({ method: "POST", path: `/v1/players/me/keys`, auth: "token" }, options);
  }
  /**
   * Determinizations: complete hidden states consistent with the caller's information.
   *
   * Drawn with a fresh RNG independent of the match's secret (seeded by `seed` if given), from what
   * the caller's seat knows only — never from the real hidden state. A per-seat budget per match
   * (429 when spent) and the match setting `allow_samples` (403 when off) apply.
   */
  sampleHiddenState(matchId, body, options = {}) {
    return this.call({ method: "POST", path: `/v1/matches/${enc(matchId)}/samples`, body, auth: "token" }, options);
  }
  /**
   * Send an action for the caller's seat.
   *
   * Returns the new seq, the events of this commit (redacted for the caller) and the caller's new
   * view. A retry with the same `Idempotency-Key` and body returns the first reply and never
   * applies the action twice; the same key with another body is 422 `idempotency_key_reused`.
   */
  submitAction(matchId, body, options = {}) {
    return this.call({ method: "POST", path: `/v1/matches/${enc(matchId)}/actions`, body, auth: "token", keyed: true }, options);
  }
  /** Lift a block. */
  unblockPlayer(playerId, options = {}) {
    return this.call({ method: "DELETE", path: `/v1/players/me/blocks/${enc(playerId)}`, auth: "token", text: true }, options);
  }
  /**
   * Say whether this player is a bot.
   *
   * `{"bot": true}` marks the player as a bot: its profile, seeks and challenges show it, and seeks
   * choose whether they accept bots as opponents.
   */
  updateMe(body, options = {}) {
    return this.call({ method: "PATCH", path: `/v1/players/me`, body, auth: "token" }, options);
  }
};

// ../clients/typescript/src/streams.ts
var RETRYABLE = /* @__PURE__ */ new Set([1001, 1006, 1011, 1012, 1013, 4008]);
var RATE_LIMITED = 4429;
var FIRST_FRAME_S = 15;
var OVER = /* @__PURE__ */ new Set(["finished", "aborted"]);
var Connection = class {
  ws;
  items = [];
  wake = null;
  timer;
  silenceS = FIRST_FRAME_S;
  closed = false;
  constructor(WS, url, first) {
    this.ws = new WS(url);
    this.ws.onopen = () => {
      if (first !== null) this.ws.send(first);
    };
    this.ws.onmessage = (event) => {
      this.arm();
      try {
        this.push({ frame: JSON.parse(String(event.data)) });
      } catch {
        this.end(1006, "a frame is not JSON");
      }
    };
    this.ws.onclose = (event) => this.end(event.code || 1006, event.reason ?? "");
    this.ws.onerror = () => {
    };
    this.arm();
  }
  /** Expect a frame at least every 2.5 heartbeats (the server pings every heartbeat). */
  heartbeat(seconds) {
    this.silenceS = 2.5 * seconds;
    this.arm();
  }
  send(text2) {
    if (!this.closed) this.ws.send(text2);
  }
  async next() {
    while (this.items.length === 0) await new Promise((resolve) => this.wake = resolve);
    return this.items.shift();
  }
  /** Close it (if still open) and end the queue with `code`. */
  end(code, reason) {
    if (this.closed) return;
    this.closed = true;
    clearTimeout(this.timer);
    try {
      this.ws.close(1e3);
    } catch {
    }
    this.push({ close: code, reason });
  }
  arm() {
    clearTimeout(this.timer);
    if (this.closed) return;
    this.timer = setTimeout(() => this.end(1006, "the server went silent"), this.silenceS * 1e3);
  }
  push(item2) {
    this.items.push(item2);
    this.wake?.();
    this.wake = null;
  }
};
var Link = class {
  constructor(transport, retry, signal) {
    this.transport = transport;
    this.signal = signal;
    this.policy = { ...transport.streamRetry, ...retry };
  }
  transport;
  signal;
  failures = 0;
  policy;
  async reopen(code, reason, refusal) {
    let atLeast = 0;
    let final;
    if (code === RATE_LIMITED) {
      final = refusal ?? new RateLimited(reason, null, 429);
      const details = refusal?.details ?? {};
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
};
var PROTOCOL = 2;
function streamUrl(base, path, query) {
  const url = new URL(base.replace(/^http/, "ws") + path);
  for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
  return url.toString();
}
function constructor(transport) {
  if (!transport.WebSocket) throw new TypeError("no WebSocket here: pass one as the client's `WebSocket` option");
  return transport.WebSocket;
}
function refusalOf(frame2) {
  return apiError(frame2, BY_CODE[String(frame2.error?.code)]?.status ?? 400);
}
function abortable(connection, signal) {
  const stop = () => connection.end(1e3, "aborted");
  signal?.addEventListener("abort", stop, { once: true });
  return () => signal?.removeEventListener("abort", stop);
}
async function* follow(transport, matchId, options = {}) {
  const { views = true, hellos = false, untilEnd = true, signal } = options;
  const WS = constructor(transport);
  const credential2 = options.token ?? transport.token;
  const link = new Link(transport, options.retry, signal);
  let last = options.after ?? null;
  let chatLast = null;
  for (; ; ) {
    const query = { protocol: String(PROTOCOL), views: views ? "1" : "0" };
    if (last !== null) query.after = String(last);
    if (options.onChat && chatLast !== null) query.chat_after = String(chatLast);
    if (!credential2) query.spectate = "1";
    const path = `/v1/matches/${encodeURIComponent(matchId)}/stream`;
    const auth = credential2 ? JSON.stringify({ type: "auth", token: credential2 }) : null;
    const connection = new Connection(WS, streamUrl(transport.baseUrl, path, query), auth);
    const release = abortable(connection, signal);
    let refusal = null;
    let close;
    try {
      for (; ; ) {
        const item2 = await connection.next();
        if ("close" in item2) {
          close = { code: item2.close, reason: item2.reason };
          break;
        }
        const frame2 = item2.frame;
        if (frame2.type === "ping") connection.send('{"type":"pong"}');
        else if (frame2.type === "error" && frame2.id == null) refusal = refusalOf(frame2);
        else if (frame2.type === "hello") {
          const hello = frame2;
          link.failures = 0;
          connection.heartbeat(hello.heartbeat);
          last ??= hello.after;
          const chatSeq = frame2.chat_seq;
          if (chatLast === null && typeof chatSeq === "number") chatLast = chatSeq;
          if (hellos) yield hello;
          if (untilEnd && OVER.has(hello.view.status) && hello.seq <= last) return;
        } else if (frame2.type === "commit" && last !== null) {
          const commit = frame2;
          if (commit.seq <= last) continue;
          if ((commit.events[0]?.seq ?? commit.seq) !== last + 1) {
            connection.end(1006, `gap after seq ${last}`);
            continue;
          }
          yield commit;
          last = commit.seq;
          if (untilEnd && commit.events.some((e) => e.type === "match_ended")) return;
        } else if (frame2.type === "chat" && options.onChat) {
          const chat = frame2;
          if (chatLast !== null && chat.chat_seq <= chatLast) continue;
          chatLast = chat.chat_seq;
          options.onChat(chat);
        }
      }
    } finally {
      release();
      connection.end(1e3, "done");
    }
    signal?.throwIfAborted();
    await link.reopen(close.code, close.reason, refusal);
  }
}
async function* followPlayer(transport, options = {}) {
  const { hellos = false, signal } = options;
  const WS = constructor(transport);
  const key3 = options.key ?? transport.token;
  if (!key3) throw new TypeError("followPlayer needs a player key");
  const link = new Link(transport, options.retry, signal);
  let last = options.after ?? null;
  for (; ; ) {
    const query = { protocol: String(PROTOCOL) };
    if (last !== null) query.after = String(last);
    const url = streamUrl(transport.baseUrl, "/v1/players/me/stream", query);
    const connection = new Connection(WS, url, JSON.stringify({ type: "auth", token: key3 }));
    const release = abortable(connection, signal);
    let refusal = null;
    let close;
    try {
      for (; ; ) {
        const item2 = await connection.next();
        if ("close" in item2) {
          close = { code: item2.close, reason: item2.reason };
          break;
        }
        const frame2 = item2.frame;
        if (frame2.type === "ping") connection.send('{"type":"pong"}');
        else if (frame2.type === "error" && frame2.id == null) refusal = refusalOf(frame2);
        else if (frame2.type === "hello") {
          const hello = frame2;
          link.failures = 0;
          connection.heartbeat(hello.heartbeat);
          last ??= hello.after;
          if (hellos) yield hello;
        } else if (frame2.type === "notice" && last !== null) {
          const notice = frame2;
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
      connection.end(1e3, "done");
    }
    signal?.throwIfAborted();
    await link.reopen(close.code, close.reason, refusal);
  }
}

// ../clients/typescript/src/client.ts
var DragoClient = class extends Api {
  follow(matchId, options = {}) {
    return follow(this, matchId, options);
  }
  followPlayer(options = {}) {
    return followPlayer(this, options);
  }
};

// ../clients/typescript/src/fairness.ts
var ALGORITHM = "drago-fair-2";
var HAND = 6;
var SLOTS = 4;
var U32 = 2 ** 32;
var Mismatch = class extends Error {
  constructor(field2, message) {
    super(message);
    this.field = field2;
  }
  field;
};
var encoder = new TextEncoder();
function u32(n) {
  const out = new Uint8Array(4);
  new DataView(out.buffer).setUint32(0, n, false);
  return out;
}
function text(s2) {
  const raw = encoder.encode(s2);
  return concat(u32(raw.length), raw);
}
function concat(...parts) {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
function toHex(bytes) {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}
function fromHex(hex) {
  if (!/^(?:[0-9a-fA-F]{2})*$/.test(hex)) return null;
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}
async function hmac(key3, message) {
  const k = await crypto.subtle.importKey("raw", key3, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  return new Uint8Array(await crypto.subtle.sign("HMAC", k, message));
}
async function commitment(serverSeed) {
  const digest = await crypto.subtle.digest("SHA-256", concat(serverSeed, encoder.encode(ALGORITHM)));
  return toHex(new Uint8Array(digest));
}
async function combinedSeed(serverSeed, matchId, seeds) {
  return hmac(serverSeed, concat(text(matchId), u32(seeds.length), ...seeds.map(text)));
}
var Stream = class {
  counter = 0;
  buffer = new Uint8Array(0);
  pos = 0;
  key;
  context;
  constructor(combined, context) {
    this.context = text(context);
    this.key = crypto.subtle.importKey("raw", combined, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  }
  async block(counter) {
    return new Uint8Array(await crypto.subtle.sign("HMAC", await this.key, concat(this.context, u32(counter))));
  }
  async word() {
    if (this.pos + 4 > this.buffer.length) {
      this.buffer = await this.block(this.counter++);
      this.pos = 0;
    }
    const w = new DataView(this.buffer.buffer, this.buffer.byteOffset + this.pos, 4).getUint32(0, false);
    this.pos += 4;
    return w;
  }
  /** A uniform integer in 0 … n−1 by rejection sampling (1 ≤ n ≤ 2³²). */
  async uniform(n) {
    const limit = U32 - U32 % n;
    for (; ; ) {
      const w = await this.word();
      if (w < limit) return w % n;
    }
  }
  /** Fisher–Yates from the last index down. */
  async shuffle(items) {
    for (let i = items.length - 1; i > 0; i--) {
      const j = await this.uniform(i + 1);
      [items[i], items[j]] = [items[j], items[i]];
    }
  }
};
function same(a, b) {
  return JSON.stringify(a) === JSON.stringify(b);
}
function firstDifference(path, expected, got) {
  if (Array.isArray(expected) && Array.isArray(got)) {
    for (let i = 0; i < Math.min(expected.length, got.length); i++) {
      const d = firstDifference(`${path}[${i}]`, expected[i], got[i]);
      if (d !== null) return d;
    }
    return expected.length === got.length ? null : path;
  }
  if (expected && typeof expected === "object" && got && typeof got === "object") {
    for (const key3 of Object.keys(expected)) {
      const d = firstDifference(`${path}.${key3}`, expected[key3], got[key3]);
      if (d !== null) return d;
    }
    return null;
  }
  return same(expected, got) ? null : path;
}
async function dealDrago(s2, players2, options, cat) {
  const values = [...cat.cards.values_per_dragon].sort((a, b) => a - b);
  const deck = cat.dragons.flatMap((d) => values.map((v) => ({ dragon: d, value: v })));
  await s2.shuffle(deck);
  const riders2 = [];
  const aside = [];
  let i = 0;
  while (riders2.length < players2) {
    const card = deck[i++];
    (riders2.some((r) => r.dragon === card.dragon) ? aside : riders2).push(card);
  }
  const rest = [...deck.slice(i), ...aside];
  if (aside.length) await s2.shuffle(rest);
  const hands = Array.from({ length: players2 }, (_, k) => rest.slice(k * HAND, (k + 1) * HAND));
  const first = options.first_player ?? null;
  return {
    riders: riders2,
    hands,
    draw_pile: rest.slice(players2 * HAND),
    first_player: first === null ? await s2.uniform(players2) : first
  };
}
async function dealYutaka(s2, players2, options, cat) {
  const decks = [];
  for (let p = 0; p < players2; p++) {
    const deck = cat.deck.map((c) => ({ ...c }));
    await s2.shuffle(deck);
    decks.push(deck);
  }
  const tiles = cat.tile_types.flatMap(
    (t2) => [...options.tile_values[t2.type]].sort((a, b) => a - b).map((v) => ({ type: t2.type, value: v }))
  );
  await s2.shuffle(tiles);
  const islands = cat.islands.length;
  return {
    decks,
    islands: Array.from({ length: islands }, (_, k) => tiles.slice(k * SLOTS, (k + 1) * SLOTS)),
    set_aside: tiles.slice(islands * SLOTS),
    first_player: options.first_player === "random" ? await s2.uniform(players2) : options.first_player
  };
}
async function deal(game, combined, players2, options, catalogue) {
  const s2 = new Stream(combined, "deal");
  if (game === "mount_drago") return dealDrago(s2, players2, options, catalogue);
  if (game === "yutaka") return dealYutaka(s2, players2, options, catalogue);
  throw new Mismatch("game", `no deal is specified for ${game}`);
}
async function verifyMatch(reveal, catalogue) {
  const algorithm = String(reveal.algorithm);
  try {
    await check(reveal, catalogue);
  } catch (e) {
    if (e instanceof Mismatch) return { ok: false, algorithm, field: e.field, message: e.message };
    throw e;
  }
  return { ok: true, algorithm, field: null, message: "deal verified" };
}
async function check(reveal, catalogue) {
  if (reveal.algorithm !== ALGORITHM) throw new Mismatch("algorithm", `only ${ALGORITHM} matches can be re-dealt`);
  const server = fromHex(String(reveal.secret));
  if (server === null || server.length !== 32 || await commitment(server) !== reveal.commitment) {
    throw new Mismatch("secret", "the server seed does not match the commitment");
  }
  const players2 = reveal.players;
  const seeds = reveal.seat_seeds;
  if (!Array.isArray(seeds) || seeds.length !== players2) throw new Mismatch("seat_seeds", `expected ${players2} seeds`);
  const events = reveal.events;
  const joined = /* @__PURE__ */ new Set();
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
  if (joined.size !== players2) throw new Mismatch(`seq ${started.seq} game_started`, "the deal came before every seat had joined");
  const combined = await combinedSeed(server, reveal.match_id, seeds);
  const expected = await deal(reveal.game, combined, players2, started.data.options, catalogue);
  const got = {};
  for (const key3 of Object.keys(expected)) got[key3] = started.data[key3];
  const where = firstDifference("game_started", expected, got);
  if (where !== null) throw new Mismatch(where, `the deal differs from the one the seeds give (${where})`);
  const later = events.slice(start + 1);
  if (reveal.game === "mount_drago") await followDrago(later, events, started.data, combined, catalogue);
  else followYutaka(later, started.data);
}
var key = (c) => `${c.dragon}:${c.value}`;
function add(t2, k, n = 1) {
  t2.set(k, (t2.get(k) ?? 0) + n);
}
async function followDrago(later, all, dealt2, combined, cat) {
  const order = new Map(cat.dragons.map((d, i) => [d, i]));
  const full = /* @__PURE__ */ new Map();
  for (const c of [...dealt2.riders, ...dealt2.hands.flat(), ...dealt2.draw_pile]) add(full, key(c));
  let pile = [...dealt2.draw_pile];
  const hands = dealt2.hands.map((h2) => {
    const t2 = /* @__PURE__ */ new Map();
    for (const c of h2) add(t2, key(c));
    return t2;
  });
  const tops = dealt2.riders.map(key);
  let discards = /* @__PURE__ */ new Map();
  const firsts = /* @__PURE__ */ new Map();
  for (const e of all) if (!firsts.has(e.commit)) firsts.set(e.commit, e.seq);
  const streams = /* @__PURE__ */ new Map();
  for (const e of later) {
    const d = e.data;
    if (e.type === "card_played") add(hands[d.seat], key(d.card), -1);
    else if (e.type === "rider_settled" && (d.result === "on_top" || d.result === "switched")) tops[d.seat] = key(d.card);
    else if (e.type === "cards_discarded") {
      for (const c of d.cards) {
        add(hands[d.seat], key(c), -1);
        add(discards, key(c));
      }
    } else if (e.type === "cards_drawn") {
      d.cards.forEach((c, i) => {
        if (!pile.length || !same(pile[0], c)) {
          throw new Mismatch(`seq ${e.seq} cards_drawn.cards[${i}]`, "a drawn card is not the top of the draw pile");
        }
        pile.shift();
        add(hands[d.seat], key(c));
      });
    } else if (e.type === "draw_pile_reshuffled") {
      const got = d.draw_pile;
      const pool = new Map(full);
      for (const h2 of hands) for (const [k, n] of h2) add(pool, k, -n);
      for (const k of tops) add(pool, k, -1);
      for (const c of pile) add(pool, key(c), -1);
      if (!d.summit_discards) for (const [k, n] of discards) add(pool, k, -n);
      const gotTally = /* @__PURE__ */ new Map();
      for (const c of got) add(gotTally, key(c));
      const keys = /* @__PURE__ */ new Set([...pool.keys(), ...gotTally.keys()]);
      if ([...keys].some((k) => (pool.get(k) ?? 0) !== (gotTally.get(k) ?? 0))) {
        throw new Mismatch(`seq ${e.seq} draw_pile_reshuffled.draw_pile`, "the reshuffled cards are not the pool");
      }
      const canonical2 = got.map((c) => ({ dragon: c.dragon, value: c.value })).sort((a, b) => order.get(a.dragon) - order.get(b.dragon) || a.value - b.value);
      let stream = streams.get(e.commit);
      if (!stream) {
        stream = new Stream(combined, `seq:${firsts.get(e.commit) - 1}`);
        streams.set(e.commit, stream);
      }
      await stream.shuffle(canonical2);
      const where = firstDifference(`seq ${e.seq} draw_pile_reshuffled.draw_pile`, canonical2, got);
      if (where !== null) throw new Mismatch(where, "the reshuffle's order is not the one the seeds give");
      pile = [...got];
      if (d.summit_discards) discards = /* @__PURE__ */ new Map();
    }
  }
}
function followYutaka(later, dealt2) {
  const drawn = dealt2.decks.map(() => HAND);
  for (const e of later) {
    const d = e.data;
    if (e.type === "card_drawn") {
      const deck = dealt2.decks[d.seat];
      if (drawn[d.seat] >= deck.length || !same(deck[drawn[d.seat]], d.card)) {
        throw new Mismatch(`seq ${e.seq} card_drawn.card`, `seat ${d.seat} drew a card that is not the next of its deck`);
      }
      drawn[d.seat]++;
    } else if (e.type === "tile_revealed" && !same(dealt2.islands[d.island][d.slot], d.tile)) {
      throw new Mismatch(`seq ${e.seq} tile_revealed.tile`, "a revealed tile is not the one dealt there");
    }
  }
}

// src/i18n/de.json
var de_default = {
  "nav.main": "Hauptmenü",
  "nav.lobby": "Lobby",
  "nav.language": "Sprache",
  "nav.skip": "Zum Inhalt springen",
  "nav.api_docs": "API-Dokumentation",
  "nav.api_reference": "API-Referenz",
  "nav.not_found": "Diese Seite gibt es nicht.",
  "nav.back_to_lobby": "Zurück zur Lobby",
  "lobby.title": "Mount Drago & Yutakâ",
  "lobby.lead": "Spiele Leo Colovinis Drachenrennen oder Alexandre Droits Schatzinseln im Browser: mit Freunden, über einen Link oder gegen die Bots des Servers.",
  "lobby.create": "Neue Partie",
  "lobby.matches": "Partien",
  "lobby.filters": "Partien filtern",
  "lobby.game": "Spiel",
  "lobby.status": "Status",
  "lobby.any_game": "Alle Spiele",
  "lobby.any_status": "Jeder Status",
  "lobby.free_only": "Nur mit freiem Platz",
  "lobby.refresh": "Aktualisieren",
  "lobby.empty": "Hier gibt es noch keine Partie: lege eine an.",
  "lobby.count_one": "{n} Partie",
  "lobby.count_other": "{n} Partien",
  "lobby.more": "Weitere Partien",
  "lobby.failed": "Die Partien konnten nicht geladen werden: {error}",
  "lobby.unreachable": "Der Server antwortet nicht: {error}",
  "lobby.join": "Mitspielen",
  "lobby.watch": "Zuschauen",
  "lobby.join_label": "Bei der {game}-Partie {id} mitspielen",
  "lobby.watch_label": "Der {game}-Partie {id} zuschauen",
  "lobby.bot_name": "{name} (Bot)",
  "lobby.open": "Partie öffnen",
  "lobby.open_placeholder": "Partie-ID oder Einladungslink",
  "lobby.open_button": "Öffnen",
  "lobby.open_invalid": "Das ist weder eine Partie-ID noch ein Partie-Link.",
  "create.game": "Spiel",
  "create.about.mount_drago": "reite die Drachen auf den Gipfel",
  "create.about.yutaka": "erobere die Schätze von fünf Inseln",
  "create.players": "Spielerzahl",
  "create.players_n_one": "{n} Spieler",
  "create.players_n_other": "{n} Spieler",
  "create.players_exactly_one": "Für genau {n} Spieler",
  "create.players_exactly_other": "Für genau {n} Spieler",
  "create.players_range": "{min} bis {max} Spieler",
  "create.seats": "Wer wo sitzt",
  "create.seats_hint": "Lass einen Platz einem Menschen (dir oder wen du einlädst) oder gib ihn einem Bot des Servers.",
  "create.seat.person": "Ein Mensch",
  "create.seat.random": "Bot: Anfänger (zufällige Züge)",
  "create.seat.greedy": "Bot: gierig (der beste Zug im Moment)",
  "create.seat.ismcts": "Bot: stark (denkt voraus)",
  "create.settings": "Bedenkzeit und Sichtbarkeit",
  "create.clock": "Bedenkzeit",
  "create.clock_hint": "Eine Bedenkzeit hält die Partie in Gang; was bei Zeitablauf geschieht, wird unten gewählt.",
  "create.clock.none": "Keine Bedenkzeit",
  "create.clock.decision": "Zeit für jeden Zug",
  "create.clock.bank": "Zeitkonto mit Zusatzzeit pro Zug",
  "create.clock.decision_time": "Zeit für jeden Zug",
  "create.clock.bank_time": "Zeitkonto jedes Spielers",
  "create.clock.increment": "Zusatzzeit nach jedem Zug",
  "create.unit": "Einheit",
  "create.unit.s": "Sekunden",
  "create.unit.min": "Minuten",
  "create.unit.h": "Stunden",
  "create.unit.d": "Tage",
  "create.timeout": "Wenn die Zeit eines Spielers abläuft",
  "create.timeout.bot": "macht ein Bot diesen Zug für ihn",
  "create.timeout.forfeit": "verliert er die Partie",
  "create.takeover": "Zeitüberschreitungen in Folge, bis ein Bot den Platz ganz übernimmt",
  "create.takeover_hint": "Bis dahin kann der Spieler zurückkommen und weiterspielen.",
  "create.visibility": "Wer die Partie finden kann",
  "create.visibility.public": "Alle: sie steht in der Lobby",
  "create.visibility.unlisted": "Nur wer den Einladungslink hat",
  "create.more": "Weitere Optionen",
  "create.more_hint": "Regelvarianten und Einstellungen, die die meisten Partien so lassen, wie sie sind.",
  "create.drafts": "Zugentwürfe: Schritte deines Zuges zurücknehmen, bevor die anderen ihn sehen",
  "create.drafts_hint": "Deine Schritte bleiben privat, bis du den Zug abschließt, außer einer deckt etwas auf.",
  "create.samples": "Bot-Programme dürfen den Server nach möglichen verdeckten Karten fragen",
  "create.samples_hint": "Für Leute, die Bots schreiben: ein Platz darf Verteilungen erfragen, die zu dem passen, was er gesehen hat.",
  "create.submit": "Partie anlegen",
  "create.creating": "Die Partie wird angelegt…",
  "create.failed": "Die Partie wurde nicht angelegt: {error}",
  "create.loading_options": "Die Optionen des Spiels werden geladen…",
  "opt.first_player": "Wer beginnt",
  "opt.first_random": "Wird ausgelost",
  "opt.explicit_end_turn": "Jeden Zug mit einem Knopf beenden",
  "opt.md.explicit_end_turn_hint": "Auch wenn keine Karte am Gipfel abgeworfen werden kann, endet der Zug erst, wenn der Spieler „Zug beenden“ drückt.",
  "opt.md.negative_floor": "Punkte fallen nie unter null",
  "opt.md.negative_floor_hint": "Eine Wertung, die einen Spieler unter null brächte (das Gipfelfeld −2), lässt seinen Punktestand, wie er ist, wie auf Yucata.",
  "opt.md.zero_scoring_counts": "Eine Wertung zählt, auch wenn niemand Punkte bekommt",
  "opt.md.zero_scoring_counts_hint": "Wer einen Drachen auf ein blaues oder grünes Feld oder auf den Gipfel zieht, zieht dann keine Karten nach, wie auch immer die Punkte stehen.",
  "opt.md.refill_after_discard_empty": "Eine durch Abwerfen am Gipfel geleerte Hand auffüllen",
  "opt.md.refill_after_discard_empty_hint": "Nach einer Wertung zieht ein Spieler mit leerer Hand wieder auf sechs Karten nach, ob die letzte Karte ausgespielt oder abgeworfen wurde.",
  "opt.yu.mode": "Verdeckte Plättchen",
  "opt.yu.mode_mysteria_hint": "Jedes verdeckte Plättchen ist schwarz: weder Art noch Wert sind bekannt.",
  "opt.yu.mode_tactika_hint": "Jedes verdeckte Plättchen zeigt die Farbe seiner Art; die Werte bleiben verborgen.",
  "opt.yu.mode_mixed_hint": "Nur die unten angekreuzten Arten zeigen verdeckt ihre Farbe.",
  "opt.yu.known_types": "Verdeckt sichtbare Arten",
  "opt.yu.known_types_hint": "Die Werte bleiben in jedem Modus verborgen.",
  "opt.yu.first_player": "Spieler 1 (deckt zuerst auf und spielt zuerst)",
  "opt.yu.stacked": "Gestapelte Archipele",
  "opt.yu.stacked_hint": "Auf jeder Insel darf nur das oberste verdeckte Plättchen aufgedeckt werden.",
  "opt.yu.tie_break": "Gleichstand",
  "opt.yu.tie_equipment_tiles": "Mehr Ausrüstungsplättchen gewinnen, dann mehr Ausrüstungspunkte",
  "opt.yu.tie_equipment_points": "Mehr Ausrüstungspunkte gewinnen, dann mehr Ausrüstungsplättchen",
  "opt.yu.tie_shared": "Ein gemeinsamer Sieg",
  "opt.yu.explicit_end_turn_hint": "Nach einer Schatzkarte oder Dynamit drückt der Spieler „Zug beenden“, um nachzuziehen (oder dem Gegner das Aufdecken zu überlassen).",
  "bot.level.random": "Anfänger",
  "bot.level.greedy": "gierig",
  "bot.level.ismcts": "stark",
  "bot.level.default": "Standard",
  "action.play": "Karte ausspielen",
  "action.discard": "Abwerfen",
  "action.choose_rider": "Drachen wählen",
  "action.end_turn": "Zug beenden",
  "action.reveal": "Plättchen aufdecken",
  "action.undo": "Zurücknehmen",
  "action.finish_turn": "Zug abschließen",
  "match.title": "Partie",
  "match.id": "#{id}",
  "match.not_dealt": "Noch nicht verteilt: Die Karten werden verteilt, sobald der letzte Platz besetzt ist, aus dem zugesagten Startwert des Servers und dem eigenen Startwert jedes Platzes.",
  "match.loading": "Wird geladen…",
  "match.status.waiting": "Wartet auf Spieler",
  "match.status.active": "Läuft",
  "match.status.finished": "Beendet",
  "match.status.aborted": "Abgebrochen",
  "match.commit_seq": "bei Ereignis {seq}",
  "match.as_spectator": "du schaust zu",
  "match.as_seat": "du spielst Platz {n} ({name})",
  "match.connection.connecting": "verbinde…",
  "match.connection.live": "live",
  "match.connection.reconnecting": "verbinde neu…",
  "match.connection.closed": "nicht verbunden",
  "match.board": "Spielbrett",
  "match.side": "Details der Partie",
  "match.replay_note": "Wiederholung: das Brett, wie es bei Ereignis {seq} war.",
  "match.replay_loading": "Wird geladen…",
  "match.sending": "Wird gesendet…",
  "match.unknown_game": "Diese Seite kann das Spiel {game} nicht darstellen.",
  "match.token_gone": "Der Schlüssel dieses Browsers für Platz {n} gilt nicht mehr (hat der Gastgeber einen neuen Link ausgestellt?); er wurde vergessen. Neu laden, um zuzuschauen.",
  "match.connection_lost": "Verbindung verloren: {error} Neu laden, um weiterzumachen.",
  "match.history": "Verlauf",
  "match.history_list": "Ereignisse, neueste zuerst",
  "match.decisions": "Entscheidungen",
  "match.end_turn": "Zug beenden",
  "match.you": "du",
  "match.on_turn": "am Zug",
  "match.seat": "Platz {n}",
  "match.waiting_players": "Wartet darauf, dass die freien Plätze besetzt werden.",
  "match.other_actions": "Weitere Aktionen",
  "match.other_action": "{action} ({n})",
  "seats.title": "Plätze",
  "seats.free": "frei",
  "seats.bot": "{name} (Bot, {level})",
  "seats.resigned": "{who} — aufgegeben",
  "seats.row": "Platz {n}: {who}",
  "seats.this_browser": "(dieser Browser)",
  "seats.to_act": "▶ am Zug",
  "seats.your_name": "Dein Name für Platz {n}",
  "seats.join": "Platz {n} einnehmen",
  "seats.name_first": "Gib zuerst einen Namen ein.",
  "seats.join_failed": "Beitreten nicht möglich: {error}",
  "seats.view_as": "Ansicht als:",
  "seats.view_as_label": "Diese Partie ansehen als",
  "seats.view_seat": "Platz {n} ({name})",
  "seats.spectator": "Zuschauer",
  "host.title": "Gastgeber",
  "host.invite": "Einladungslink",
  "host.abort": "Partie abbrechen",
  "host.seat": "Platz {n} ({name})",
  "host.reissue": "Neuer Link",
  "host.reissue_label": "Neuen Link für Platz {n} ausstellen (der alte gilt dann nicht mehr)",
  "host.reissue_what": "Neuer Link für Platz {n}",
  "host.to_bot": "An einen Bot geben",
  "host.to_bot_label": "Platz {n} an einen Bot geben",
  "host.to_bot_what": "Platz {n} an einen Bot",
  "host.new_link": "Neuer Link für Platz {n} (wird nur einmal gezeigt)",
  "host.done": "{what}: erledigt.",
  "host.failed": "{what}: {error}",
  "resign.resign": "Aufgeben",
  "resign.confirm": "Diese Partie aufgeben?",
  "resign.yes": "Ja, aufgeben",
  "resign.no": "Nein",
  "resign.no_label": "Nicht aufgeben",
  "resign.done": "Du hast aufgegeben.",
  "clock.title": "Bedenkzeit",
  "clock.days": "{d} T {hms}",
  "clock.until": "bis {when}",
  "clock.bank": "(Konto {s} s)",
  "draft.group": "Zugentwurf",
  "draft.steps_one": "Entwurf: {n} Schritt, nur du siehst ihn.",
  "draft.steps_other": "Entwurf: {n} Schritte, nur du siehst sie.",
  "draft.undo": "Zurücknehmen",
  "draft.undo_label": "Den letzten Schritt zurücknehmen",
  "draft.finish": "Zug abschließen",
  "replay.title": "Wiederholung",
  "replay.live": "Live: bisher {of} Schritte",
  "replay.at": "Schritt {n} von {of} (Ereignis {seq})",
  "replay.valuetext": "Schritt {n} von {of}, Ereignis {seq}",
  "replay.back": "Zurück zum aktuellen Stand",
  "replay.failed": "Wiederholung: {error}",
  "result.title": "Ergebnis",
  "result.winner": "Sieg: {names} ({reason})",
  "result.winners": "Gemeinsamer Sieg: {names} ({reason})",
  "result.nobody": "Kein Sieg ({reason})",
  "result.score": "{name}: {score}",
  "result.per_island": "Punkte je Insel",
  "result.island": "Insel",
  "result.reason.finished": "Spielende",
  "result.reason.resigned": "Aufgabe",
  "result.reason.timeout": "Zeit abgelaufen",
  "result.reason.aborted": "abgebrochen",
  "result.decided.total": "höhere Summe",
  "result.decided.equipment_tiles": "mehr Ausrüstungsplättchen",
  "result.decided.equipment_points": "mehr Ausrüstungspunkte",
  "result.decided.shared": "gemeinsamer Sieg",
  "fair.verified": "✔ Verteilung geprüft: Der Startwert des Servers passt zu seiner Zusage, und die Verteilung sowie jedes spätere Mischen und Ziehen folgen aus ihm und den Startwerten aller Plätze.",
  "fair.differs": "✘ Die Partie folgt NICHT aus den offengelegten Startwerten: {field} weicht ab.",
  "fair.title": "Fairness",
  "fair.checking": "Wird geprüft…",
  "fair.ok": "✔ Die Verteilung passt zur Zusage, die beim Anlegen der Partie veröffentlicht wurde.",
  "fair.bad": "✘ Die Verteilung passt NICHT zur Zusage, die beim Anlegen der Partie veröffentlicht wurde.",
  "fair.published": "Veröffentlichte Zusage",
  "fair.computed": "Hier berechnetes SHA-256 ({via})",
  "fair.via_webcrypto": "Web Crypto",
  "fair.via_plain": "reines JavaScript",
  "fair.secret": "Geheimnis",
  "fair.log": "Vollständiges Protokoll",
  "fair.log_events": "{n} Ereignisse, jedes Mischen und Ziehen",
  "fair.unreadable": "Die Offenlegung konnte nicht gelesen werden: {error}",
  "fair.again": "Erneut prüfen",
  "error.validation_error": "Einige Angaben sind ungültig.",
  "error.idempotency_key_reused": "Diese Anfrage wurde schon mit anderem Inhalt gesendet.",
  "error.unauthorized": "Der Schlüssel dieses Browsers für den Platz fehlt oder gilt nicht mehr.",
  "error.forbidden": "Das ist nicht erlaubt.",
  "error.not_found": "Diese Partie gibt es nicht (oder sie ist nicht gelistet und braucht ihren Einladungslink).",
  "error.method_not_allowed": "Diese Anfrage nimmt der Server nicht an.",
  "error.conflict": "Das geht gerade nicht.",
  "error.illegal_action": "Dieser Zug ist jetzt nicht erlaubt.",
  "error.not_your_turn": "Du bist nicht am Zug.",
  "error.match_over": "Die Partie ist zu Ende.",
  "error.version_conflict": "Das Brett hat sich inzwischen geändert: schau noch einmal hin und entscheide neu.",
  "error.seat_taken": "Jemand anderes hat diesen Platz eingenommen.",
  "error.seat_not_held": "Dieser Platz gehört dir nicht.",
  "error.already_seated": "Du sitzt schon in dieser Partie.",
  "error.already_resigned": "Dieser Platz hat schon aufgegeben.",
  "error.match_not_started": "Die Partie hat noch nicht begonnen.",
  "error.match_started": "Die Partie hat schon begonnen.",
  "error.match_not_finished": "Die Partie ist noch nicht zu Ende.",
  "error.payload_too_large": "Diese Anfrage ist zu groß.",
  "error.rate_limited": "Zu viele Anfragen: warte einen Moment und versuche es dann noch einmal.",
  "error.internal_error": "Der Server hatte ein Problem.",
  "error.unavailable": "Der Server ist kurz nicht erreichbar: versuche es gleich noch einmal.",
  "error.other": "Der Server hat abgelehnt ({code}).",
  "error.stream_closed": "Die Live-Verbindung wurde geschlossen ({code}).",
  "error.transport": "Der Server ist nicht erreichbar.",
  "error.unexpected": "Auf dieser Seite ist etwas schiefgegangen.",
  "ev.seat_joined": "{name} nimmt Platz {n} ein",
  "ev.seat_joined_bot": "{name} (Bot, {level}) nimmt Platz {n} ein",
  "ev.match_started": "Die Partie hat begonnen",
  "ev.seat_resigned": "{name} gibt auf",
  "ev.timed_out": "{name} hat die Zeit überschritten: {policy}",
  "ev.policy.bot": "ein Bot zog für ihn",
  "ev.policy.forfeit": "der Platz verliert",
  "ev.taken_over": "Ein Bot spielt ab jetzt den Platz von {name} ({reason})",
  "ev.takeover.timeout": "zu viele Zeitüberschreitungen",
  "ev.takeover.resigned": "aufgegeben",
  "ev.takeover.forfeit": "verloren",
  "ev.takeover.host": "Wahl des Gastgebers",
  "ev.reissued": "Der Gastgeber hat einen neuen Link für den Platz von {name} ausgestellt",
  "ev.aborted": "Die Partie wurde abgebrochen ({reason})",
  "ev.abort.host": "vom Gastgeber",
  "ev.abort.expired": "niemand kam rechtzeitig",
  "ev.match_ended": "Die Partie ist zu Ende: {reason}",
  "ev.ratings_changed": "Wertungen: {changes}",
  "ev.draft_step": "Dein Entwurf: {action}",
  "ev.draft_undone": "Dein Entwurf: ein Schritt zurückgenommen",
  "ev.draft_changed": "{name} arbeitet an einem Zug",
  "ev.draft_published_one": "{name} hat den Zug abgeschlossen ({n} Schritt)",
  "ev.draft_published_other": "{name} hat den Zug abgeschlossen ({n} Schritte)",
  "ev.turn_ended": "{name} beendet den Zug; {next} ist dran",
  "ev.game_ended": "Spielende: {scores}",
  "ev.md.game_started": "Die Karten sind verteilt. Reiter: {riders}. {name} beginnt.",
  "ev.md.card_played": "{name} spielt {card} ({from} → {to})",
  "ev.md.rider_under": "{name} reitet weiter {dragon} (Karte unter den Stapel)",
  "ev.md.rider_on_top": "{name} bleibt auf {dragon} (Karte oben auf den Stapel)",
  "ev.md.rider_switched": "Drachenwechsel: {name} reitet jetzt {dragon}",
  "ev.md.scored_blue": "Kleine Wertung: {changes}",
  "ev.md.scored_green": "Große Wertung: {changes}",
  "ev.md.scored_summit": "Gipfel erreicht, große Wertung: {changes}",
  "ev.md.discarded": "{name} wirft {cards} am Gipfel ab",
  "ev.md.drew": "{name} zieht {cards}",
  "ev.md.drew_count_one": "{name} zieht {n} Karte",
  "ev.md.drew_count_other": "{name} zieht {n} Karten",
  "ev.md.reshuffled_one": "Der Nachziehstapel wurde neu gebildet ({n} Karte)",
  "ev.md.reshuffled_other": "Der Nachziehstapel wurde neu gebildet ({n} Karten)",
  "ev.md.turn_passed": "{name} setzt aus (keine Karten mehr); {next} ist dran",
  "ev.yu.game_started": "Die Plättchen liegen aus, die Karten sind verteilt; {name} ist Spieler 1",
  "ev.yu.game_started_hand": "Die Plättchen liegen aus, die Karten sind verteilt; {name} ist Spieler 1. Deine Hand: {cards}",
  "ev.yu.revealed": "{name} deckt auf {island} auf: {tile}",
  "ev.yu.played": "{name} spielt {card} auf {island}",
  "ev.yu.played_against": "{name} spielt {card} auf {island}, auf die Seite von {other}",
  "ev.yu.confirmed": "{name} beendet den Zug",
  "ev.yu.drew": "{name} zieht {card}",
  "ev.yu.drew_hidden": "{name} zieht eine Karte",
  "ev.yu.game_ended": "Spielende: {scores} ({decided})",
  "md.dragon.blue": "Blau",
  "md.dragon.brown": "Braun",
  "md.dragon.black": "Schwarz",
  "md.dragon.red": "Rot",
  "md.dragon.yellow": "Gelb",
  "md.dragon.green": "Grün",
  "md.dragon.gray": "Grau",
  "md.dragon.light_blue": "Hellblau",
  "md.dragon.purple": "Lila",
  "md.dragon.orange": "Orange",
  "md.short.blue": "Bl",
  "md.short.brown": "Br",
  "md.short.black": "Sw",
  "md.short.red": "Rt",
  "md.short.yellow": "Ge",
  "md.short.green": "Gn",
  "md.short.gray": "Gr",
  "md.short.light_blue": "HB",
  "md.short.purple": "Li",
  "md.short.orange": "Or",
  "md.card": "{dragon} {value}",
  "md.start": "Start",
  "md.summit": "Gipfel",
  "md.space.start": "das Startfeld",
  "md.space.plain": "Feld {n}, Wert {value}",
  "md.space.blue": "Feld {n}, blau (kleine Wertung), Wert {value}",
  "md.space.green": "Feld {n}, grün (große Wertung), Wert {value}",
  "md.space.summit": "Feld {n}, Gipfelfeld, Wert {value}",
  "md.dragons_here_one": "{n} Drache: {dragons}",
  "md.dragons_here_other": "{n} Drachen: {dragons}",
  "md.token": "Drache {dragon}, ohne Reiter, auf {where}",
  "md.token_ridden": "Drache {dragon}, geritten von {rider}, auf {where}",
  "md.side": "Spielplanseite für {side} Spieler: der Weg vom Startfeld zum Gipfel",
  "md.own_track": "Eigene Strecke dieser Partie: der Weg vom Startfeld zum Gipfel",
  "md.legend.blue": "◆ blau: kleine Wertung (nur Felder mit Wert 3 oder weniger zählen)",
  "md.legend.green": "⬢ grün: große Wertung",
  "md.legend.summit": "▲ Gipfel: große Wertung, wenn ein Drache zum ersten Mal ankommt",
  "md.players": "Spieler",
  "md.points_one": "{n} Punkt",
  "md.points_other": "{n} Punkte",
  "md.rides": "reitet {dragon}",
  "md.pile": "Reiterstapel {card} ×{n}",
  "md.pile_none": "kein Reiterstapel",
  "md.hand_cards_one": "{n} Karte auf der Hand",
  "md.hand_cards_other": "{n} Karten auf der Hand",
  "md.summit_title": "Gipfel: {n} von {of} Drachen (der dritte beendet das Spiel)",
  "md.summit_empty": "Noch kein Drache auf dem Gipfel.",
  "md.last_play": "Zuletzt: {name} spielte {card}",
  "md.pending": "Karte, die auf die Drachenwahl wartet: {card}",
  "md.discards": "Am Gipfel abgeworfen: {cards}",
  "md.discards_none": "Am Gipfel wurde noch keine Karte abgeworfen.",
  "md.draw_pile_one": "Nachziehstapel: {n} Karte",
  "md.draw_pile_other": "Nachziehstapel: {n} Karten",
  "md.hand": "Deine Handkarten",
  "md.hand_empty": "Keine Karten auf der Hand.",
  "md.play_card": "{card} ausspielen",
  "md.discard_card": "{card} abwerfen",
  "md.keep": "Weiter {dragon} reiten",
  "md.switch": "Drachenwechsel: {dragon} reiten",
  "md.turn.you_play": "Du bist dran: spiele eine Karte aus.",
  "md.turn.plays": "{name} spielt eine Karte aus.",
  "md.turn.you_choose": "Du hast den letzten Drachen bewegt: weiter {dragon} reiten oder zu {other} wechseln?",
  "md.turn.chooses": "{name} wählt einen Drachen.",
  "md.turn.you_discard": "Du darfst Karten von Drachen auf dem Gipfel abwerfen und dann den Zug beenden.",
  "md.turn.discards": "{name} darf Karten von Drachen auf dem Gipfel abwerfen.",
  "md.turn.over": "Das Spiel ist zu Ende.",
  "md.dragons_table": "Alle Drachen als Tabelle",
  "md.col.dragon": "Drache",
  "md.col.space": "Feld",
  "md.col.value": "Wert",
  "md.col.rider": "Reiter",
  "md.kind.start": "Start, {value}",
  "md.kind.plain": "{value}",
  "md.kind.blue": "blau, {value}",
  "md.kind.green": "grün, {value}",
  "md.kind.summit": "Gipfel, {value}",
  "yu.kind.idol": "Idol",
  "yu.kind.dagger": "Dolch",
  "yu.kind.amphora": "Amphore",
  "yu.kind.crystal": "Kristall",
  "yu.kind.equipment": "Ausrüstung",
  "yu.kind.dynamite": "Dynamit",
  "yu.mode.mysteria": "Mysteria",
  "yu.mode.tactika": "Tactika",
  "yu.mode.mixed": "Gemischt",
  "yu.card": "{kind} {value}",
  "yu.tile_up": "Plättchen {type}, {value} Punkte",
  "yu.tile_down_typed": "verdecktes Plättchen {type}",
  "yu.tile_down": "verdecktes Plättchen",
  "yu.caption": "Die fünf Inseln ({mode})",
  "yu.mode_mixed_known": "Gemischt: {types} verdeckt sichtbar",
  "yu.face_down_left_one": "noch {n} Plättchen verdeckt",
  "yu.face_down_left_other": "noch {n} Plättchen verdeckt",
  "yu.side_label": "Karten von {name}",
  "yu.rows": "Oben: Karten von {upper} · unten: von {lower}",
  "yu.column": "Karten von {name} auf {island}: {cards} (Summe {sum})",
  "yu.column_empty": "{name} hat keine Karten auf {island}",
  "yu.tiles_of": "Plättchen auf {island}",
  "yu.set_aside_open": "Die beiseitegelegten Plättchen",
  "yu.set_aside_hidden_one": "{n} Plättchen verdeckt beiseitegelegt",
  "yu.set_aside_hidden_other": "{n} Plättchen verdeckt beiseitegelegt",
  "yu.players": "Spieler",
  "yu.hand_cards_one": "{n} Karte auf der Hand",
  "yu.hand_cards_other": "{n} Karten auf der Hand",
  "yu.deck_cards_one": "{n} Karte im Stapel",
  "yu.deck_cards_other": "{n} Karten im Stapel",
  "yu.hand": "Deine Handkarten",
  "yu.hand_hint": "wähle eine Karte, dann die Insel, auf die sie kommt",
  "yu.pick": "{card} wählen",
  "yu.play_on": "{card} auf {island} spielen",
  "yu.reveal": "Aufdecken: {tile}, Platz {slot} auf {island}",
  "yu.turn.you_open_one": "Decke ein Plättchen deiner Wahl auf (noch {n} Aufdecken zu Beginn).",
  "yu.turn.you_open_other": "Decke ein Plättchen deiner Wahl auf (noch {n} Aufdecken zu Beginn).",
  "yu.turn.opens_one": "{name} deckt ein Plättchen auf (noch {n} Aufdecken zu Beginn).",
  "yu.turn.opens_other": "{name} deckt ein Plättchen auf (noch {n} Aufdecken zu Beginn).",
  "yu.turn.you_play": "Du bist dran: wähle eine Karte, dann eine Insel.",
  "yu.turn.plays": "{name} spielt eine Karte aus.",
  "yu.turn.you_confirm": "Drücke „Zug beenden“, um deinen Zug abzuschließen.",
  "yu.turn.confirms": "{name} beendet den Zug.",
  "yu.turn.you_reveal": "Decke ein verdecktes Plättchen deiner Wahl auf.",
  "yu.turn.reveals": "{name} deckt ein Plättchen auf.",
  "yu.turn.wait": "Einen Moment…",
  "yu.turn.over": "Das Spiel ist zu Ende.",
  "nav.play": "Schnell spielen",
  "nav.mine": "Meine Partien",
  "nav.leaderboards": "Bestenlisten",
  "error.player_key_required": "Dafür braucht es einen Spieler: lege unter „Schnell spielen“ einen an.",
  "error.name_taken": "Dieser Name ist vergeben: wähle einen anderen.",
  "error.too_many_seeks": "Du suchst schon so viele Partien wie erlaubt: brich zuerst eine Suche ab.",
  "error.seek_closed": "Diese Suche ist schon beendet.",
  "error.challenge_closed": "Diese Herausforderung ist nicht mehr offen.",
  "player.title": "Dein Spieler",
  "player.none": "Schnelles Spielen, Herausforderungen und Wertungen brauchen einen Spieler: einen Namen und einen Schlüssel, den nur dieser Browser aufbewahrt.",
  "player.name": "Name",
  "player.name_hint": "1 bis 32 Zeichen, für andere sichtbar.",
  "player.create": "Spieler anlegen",
  "player.creating": "Der Spieler wird angelegt …",
  "player.have_key": "Ich habe einen Spielerschlüssel",
  "player.key": "Spielerschlüssel",
  "player.key_hint": "Der Schlüssel (pk_…), der beim Anlegen anderswo angezeigt wurde.",
  "player.use_key": "Diesen Schlüssel nutzen",
  "player.playing_as": "Du spielst als {name}.",
  "player.profile_link": "Dein Profil",
  "player.forget": "Diesen Spieler vergessen",
  "player.forget_hint": "Sein Schlüssel liegt nur in diesem Browser: vergessen, lässt sich der Spieler hier nicht mehr nutzen, und sein Name bleibt vergeben.",
  "player.forget_confirm": "Vergessen",
  "play.title": "Schnell spielen",
  "play.lead": "Sag, was du spielen möchtest: Der Server setzt dich zu anderen, die dasselbe suchen, oder nach einer Wartezeit deiner Wahl zu seinen Bots. Die Seite darf solange geschlossen werden.",
  "play.new": "Partie suchen",
  "play.players_any": "beliebig viele",
  "play.players_any_of": "{list} Spieler",
  "play.opponents": "Gegner",
  "play.opponents_hint": "Als Bot markierte Spieler triffst du nur, wenn du es erlaubst.",
  "play.opponents.humans": "Nur Menschen",
  "play.opponents.any": "Menschen oder Bot-Spieler",
  "play.opponents.bots": "Nur Bot-Spieler",
  "play.bots_after": "Server-Bots füllen die Plätze",
  "play.bots_after_hint": "Findet sich niemand rechtzeitig, besetzen die Bots des Servers die freien Plätze.",
  "play.bots_never": "nie",
  "play.bots_now": "sofort",
  "play.bots_after_n_one": "nach {n} Sekunde",
  "play.bots_after_n_other": "nach {n} Sekunden",
  "play.submit": "Partie suchen",
  "play.opening": "Suche läuft …",
  "play.opened": "Warte auf eine Partie: Diese Seite öffnet sie, sobald sie gefunden ist.",
  "play.failed": "Die Suche ließ sich nicht starten: {error}",
  "play.waiting_title": "Wartend",
  "play.waiting": "wartet",
  "play.since": "seit {time}",
  "play.cancel": "Abbrechen",
  "play.cancel_label": "Abbrechen: Suche nach {seek}",
  "play.cancelled": "Die Suche ist abgebrochen.",
  "play.stream_lost": "Die Live-Verbindung für deine Nachrichten ist abgerissen: {error}",
  "me.title": "Meine Partien",
  "me.matches": "Partien",
  "me.challenges": "Herausforderungen",
  "me.your_turn": "Du bist dran",
  "me.against": "gegen {names}",
  "me.deadline": "deine Zeit läuft ab: {time}",
  "me.open": "Öffnen",
  "me.open_label": "Öffnen: {game}-Partie {id}",
  "me.no_matches": "Keine laufende Partie: Finde eine mit „Schnell spielen“.",
  "me.received": "Herausforderungen an dich",
  "me.sent": "Deine Herausforderungen",
  "me.none_received": "Niemand hat dich herausgefordert.",
  "me.none_sent": "Fordere Spieler auf ihrem Profil heraus.",
  "me.from": "von {name}",
  "me.to": "an {names}",
  "me.challenge.open": "offen",
  "me.challenge.accepted": "angenommen",
  "me.challenge.declined": "abgelehnt",
  "me.challenge.expired": "abgelaufen",
  "me.answer.accepted": "{name} hat angenommen",
  "me.answer.declined": "{name} hat abgelehnt",
  "me.answer.none": "{name} hat nicht geantwortet",
  "me.reason": "Grund: {reason}",
  "me.expires": "offen bis {time}",
  "me.accept": "Annehmen",
  "me.accept_label": "Annehmen: {game}-Herausforderung von {name}",
  "me.decline": "Ablehnen",
  "me.decline_reason": "Grund (freiwillig)",
  "me.decline_send": "Herausforderung ablehnen",
  "me.decline_label": "Herausforderung ablehnen: {name} ({game})",
  "me.accepted": "Angenommen: Die Partie beginnt, wenn alle angenommen haben.",
  "me.declined": "Abgelehnt.",
  "me.watch": "Zuschauen",
  "profile.title": "Spieler",
  "profile.bot": "Bot",
  "profile.bot_hint": "Dieser Spieler ist ein Programm: Er sagt es selbst, oder er ist einer der Bots des Servers.",
  "profile.no_ratings": "Noch keine gewertete Partie.",
  "profile.rating": "Wertung",
  "profile.provisional": "(vorläufig: weniger als 10 gewertete Partien)",
  "profile.games": "Partien",
  "profile.wins": "Siege",
  "profile.last_played": "Zuletzt gespielt",
  "profile.chart_title": "Wertung in {game}",
  "profile.chart_summary_one": "von {from} auf {to} in {n} gewerteten Partie, bestens {best}",
  "profile.chart_summary_other": "von {from} auf {to} in {n} gewerteten Partien, bestens {best}",
  "profile.chart_start": "Beginn: {rating}",
  "profile.chart_point": "{rating} nach der Partie vom {time} (Platz {rank})",
  "profile.challenge_title": "{name} herausfordern",
  "profile.challenge": "Herausforderung senden",
  "profile.challenging": "Wird gesendet …",
  "profile.challenged": "Herausforderung gesendet: Die Antwort erscheint unter",
  "board.title": "Bestenlisten",
  "board.lead": "Die gewerteten Spieler jedes Spiels, die beste Wertung zuerst. Die Wertung ist eine vorsichtige Schätzung, die wächst, je sicherer sich der Server bei einem Spieler ist.",
  "board.caption": "{game}: die besten Spieler",
  "board.rank": "Platz",
  "board.player": "Spieler",
  "board.pages": "Seiten",
  "board.previous": "Zurück",
  "board.next": "Weiter",
  "board.past_end": "Hier folgen keine Spieler mehr.",
  "board.empty_one": "Noch niemand steht hier: Ein Spieler erscheint nach {n} gewerteten Partie.",
  "board.empty_other": "Noch niemand steht hier: Ein Spieler erscheint nach {n} gewerteten Partien.",
  "board.provisional_note_one": "Spieler mit weniger als {n} gewerteten Partie stehen noch nicht hier.",
  "board.provisional_note_other": "Spieler mit weniger als {n} gewerteten Partien stehen noch nicht hier.",
  "error.chat_closed": "Diese Partie hat keinen Zuschauer-Chat.",
  "chat.title": "Chat",
  "chat.rooms": "Chaträume",
  "chat.room.players": "Spieler",
  "chat.room.spectators": "Zuschauer",
  "chat.messages": "Nachrichten",
  "chat.empty": "Noch keine Nachricht.",
  "chat.spectator": "ein Zuschauer",
  "chat.said": "{name} schreibt: {text}",
  "chat.message_label": "Nachricht an die {room}",
  "chat.send": "Senden",
  "chat.players_only": "Hier schreiben nur die Spieler.",
  "chat.need_player": "Zuschauer schreiben mit einem Spieler:"
};

// src/i18n/en.json
var en_default = {
  "nav.main": "Main",
  "nav.lobby": "Lobby",
  "nav.language": "Language",
  "nav.skip": "Skip to content",
  "nav.api_docs": "API docs",
  "nav.api_reference": "API reference",
  "nav.not_found": "There is no such page.",
  "nav.back_to_lobby": "Back to the lobby",
  "lobby.title": "Mount Drago & Yutakâ",
  "lobby.lead": "Play Leo Colovini's dragon race or Alexandre Droit's treasure islands in the browser: with friends, through a link, or against the server's bots.",
  "lobby.create": "New match",
  "lobby.matches": "Matches",
  "lobby.filters": "Filter matches",
  "lobby.game": "Game",
  "lobby.status": "Status",
  "lobby.any_game": "Any game",
  "lobby.any_status": "Any status",
  "lobby.free_only": "Only with a free seat",
  "lobby.refresh": "Refresh",
  "lobby.empty": "No match here yet: create one.",
  "lobby.count_one": "{n} match",
  "lobby.count_other": "{n} matches",
  "lobby.more": "More matches",
  "lobby.failed": "The matches could not be loaded: {error}",
  "lobby.unreachable": "The server did not answer: {error}",
  "lobby.join": "Join",
  "lobby.watch": "Watch",
  "lobby.join_label": "Join {game} match {id}",
  "lobby.watch_label": "Watch {game} match {id}",
  "lobby.bot_name": "{name} (bot)",
  "lobby.open": "Open a match",
  "lobby.open_placeholder": "match id or invite link",
  "lobby.open_button": "Open",
  "lobby.open_invalid": "That is neither a match id nor a match link.",
  "create.game": "Game",
  "create.about.mount_drago": "ride the dragons up the mountain",
  "create.about.yutaka": "win the treasures of five islands",
  "create.players": "Players",
  "create.players_n_one": "{n} player",
  "create.players_n_other": "{n} players",
  "create.players_exactly_one": "For exactly {n} player",
  "create.players_exactly_other": "For exactly {n} players",
  "create.players_range": "{min} to {max} players",
  "create.seats": "Who sits where",
  "create.seats_hint": "Leave a seat to a person (you, or someone you invite), or give it to one of the server's bots.",
  "create.seat.person": "A person",
  "create.seat.random": "Bot: beginner (random moves)",
  "create.seat.greedy": "Bot: greedy (the best move right now)",
  "create.seat.ismcts": "Bot: strong (thinks ahead)",
  "create.settings": "Clock and visibility",
  "create.clock": "Clock",
  "create.clock_hint": "A clock keeps a match moving; what happens when time runs out is chosen below.",
  "create.clock.none": "No clock",
  "create.clock.decision": "Time for each move",
  "create.clock.bank": "Time bank, with extra time per move",
  "create.clock.decision_time": "Time for each move",
  "create.clock.bank_time": "Time bank of each player",
  "create.clock.increment": "Extra time after each move",
  "create.unit": "Unit",
  "create.unit.s": "seconds",
  "create.unit.min": "minutes",
  "create.unit.h": "hours",
  "create.unit.d": "days",
  "create.timeout": "When a player's time runs out",
  "create.timeout.bot": "a bot makes that move for them",
  "create.timeout.forfeit": "they lose the match",
  "create.takeover": "Timeouts in a row before a bot plays the seat for good",
  "create.takeover_hint": "Until then the player can come back and play on.",
  "create.visibility": "Who can find the match",
  "create.visibility.public": "Everyone: it is listed in the lobby",
  "create.visibility.unlisted": "Only people with the invite link",
  "create.more": "More options",
  "create.more_hint": "Rule variants and settings that most matches leave as they are.",
  "create.drafts": "Turn drafts: take back steps of your turn before the others see it",
  "create.drafts_hint": "Your steps stay private until you finish the turn, unless one of them reveals something.",
  "create.samples": "Bot programs may ask the server for possible hidden cards",
  "create.samples_hint": "For people who write bots: a seat may ask for deals that fit what it has seen.",
  "create.submit": "Create the match",
  "create.creating": "Creating the match…",
  "create.failed": "The match was not created: {error}",
  "create.loading_options": "Loading the game's options…",
  "opt.first_player": "Who plays first",
  "opt.first_random": "Drawn at random",
  "opt.explicit_end_turn": "End every turn with a button",
  "opt.md.explicit_end_turn_hint": "Even when no card can be discarded at the summit, the turn ends only when the player presses “End turn”.",
  "opt.md.negative_floor": "Scores never drop below zero",
  "opt.md.negative_floor_hint": "A scoring that would take a player below zero (the −2 summit space) leaves their score as it is, as on Yucata.",
  "opt.md.zero_scoring_counts": "A scoring counts even when nobody gains a point",
  "opt.md.zero_scoring_counts_hint": "Whoever moves a dragon onto a blue or green space, or onto the summit, then draws no cards, whatever the scores.",
  "opt.md.refill_after_discard_empty": "Refill a hand emptied by summit discards",
  "opt.md.refill_after_discard_empty_hint": "After a scoring, a player whose hand is empty draws back up to six cards, whether the last card was played or discarded.",
  "opt.yu.mode": "Face-down tiles",
  "opt.yu.mode_mysteria_hint": "Every face-down tile is black: neither its type nor its value is known.",
  "opt.yu.mode_tactika_hint": "Every face-down tile shows its type's colour; values stay hidden.",
  "opt.yu.mode_mixed_hint": "Only the types ticked below show their colour face down.",
  "opt.yu.known_types": "Types shown face down",
  "opt.yu.known_types_hint": "Values stay hidden in every mode.",
  "opt.yu.first_player": "Player 1 (reveals first and plays first)",
  "opt.yu.stacked": "Stacked archipelagos",
  "opt.yu.stacked_hint": "On each island only the uppermost face-down tile may be revealed.",
  "opt.yu.tie_break": "Equal totals",
  "opt.yu.tie_equipment_tiles": "More equipment tiles win, then more equipment points",
  "opt.yu.tie_equipment_points": "More equipment points win, then more equipment tiles",
  "opt.yu.tie_shared": "A shared win",
  "opt.yu.explicit_end_turn_hint": "After a treasure card or dynamite the player presses “End turn” to draw (or to hand the reveal to the opponent).",
  "bot.level.random": "beginner",
  "bot.level.greedy": "greedy",
  "bot.level.ismcts": "strong",
  "bot.level.default": "standard",
  "action.play": "Play a card",
  "action.discard": "Discard",
  "action.choose_rider": "Choose a dragon",
  "action.end_turn": "End turn",
  "action.reveal": "Reveal a tile",
  "action.undo": "Undo",
  "action.finish_turn": "Finish turn",
  "match.title": "Match",
  "match.id": "#{id}",
  "match.not_dealt": "Not dealt yet: the cards are dealt when the last seat is taken, from the server's committed seed and every seat's own seed.",
  "match.loading": "Loading…",
  "match.status.waiting": "Waiting for players",
  "match.status.active": "In play",
  "match.status.finished": "Finished",
  "match.status.aborted": "Aborted",
  "match.commit_seq": "at event {seq}",
  "match.as_spectator": "you are watching",
  "match.as_seat": "you play seat {n} ({name})",
  "match.connection.connecting": "connecting…",
  "match.connection.live": "live",
  "match.connection.reconnecting": "reconnecting…",
  "match.connection.closed": "not connected",
  "match.board": "Board",
  "match.side": "Match details",
  "match.replay_note": "Replay: the board as it was at event {seq}.",
  "match.replay_loading": "Loading…",
  "match.sending": "Sending…",
  "match.unknown_game": "This page cannot draw the game {game}.",
  "match.token_gone": "This browser's key to seat {n} no longer works (did the host make a new link?); it was forgotten. Reload to watch.",
  "match.connection_lost": "Connection lost: {error} Reload to resume.",
  "match.history": "History",
  "match.history_list": "Events, newest first",
  "match.decisions": "Decisions",
  "match.end_turn": "End turn",
  "match.you": "you",
  "match.on_turn": "on turn",
  "match.seat": "Seat {n}",
  "match.waiting_players": "Waiting for players to take the free seats.",
  "match.other_actions": "Other actions",
  "match.other_action": "{action} ({n})",
  "seats.title": "Seats",
  "seats.free": "free",
  "seats.bot": "{name} (bot, {level})",
  "seats.resigned": "{who} — resigned",
  "seats.row": "Seat {n}: {who}",
  "seats.this_browser": "(this browser)",
  "seats.to_act": "▶ to act",
  "seats.your_name": "Your name for seat {n}",
  "seats.join": "Join seat {n}",
  "seats.name_first": "Enter a name first.",
  "seats.join_failed": "Could not join: {error}",
  "seats.view_as": "View as:",
  "seats.view_as_label": "View this match as",
  "seats.view_seat": "Seat {n} ({name})",
  "seats.spectator": "Spectator",
  "host.title": "Host",
  "host.invite": "Invite link",
  "host.abort": "Abort the match",
  "host.seat": "Seat {n} ({name})",
  "host.reissue": "New link",
  "host.reissue_label": "Make a new link for seat {n} (the old one stops working)",
  "host.reissue_what": "New link for seat {n}",
  "host.to_bot": "Hand to a bot",
  "host.to_bot_label": "Hand seat {n} to a bot",
  "host.to_bot_what": "Seat {n} to a bot",
  "host.new_link": "New link for seat {n} (shown once)",
  "host.done": "{what}: done.",
  "host.failed": "{what}: {error}",
  "resign.resign": "Resign",
  "resign.confirm": "Resign this match?",
  "resign.yes": "Yes, resign",
  "resign.no": "No",
  "resign.no_label": "Do not resign",
  "resign.done": "You resigned.",
  "clock.title": "Clock",
  "clock.days": "{d} d {hms}",
  "clock.until": "until {when}",
  "clock.bank": "(bank {s} s)",
  "draft.group": "Turn draft",
  "draft.steps_one": "Draft: {n} step, only you see it.",
  "draft.steps_other": "Draft: {n} steps, only you see them.",
  "draft.undo": "Undo",
  "draft.undo_label": "Undo the last step",
  "draft.finish": "Finish turn",
  "replay.title": "Replay",
  "replay.live": "Live: {of} steps so far",
  "replay.at": "Step {n} of {of} (event {seq})",
  "replay.valuetext": "step {n} of {of}, event {seq}",
  "replay.back": "Back to live",
  "replay.failed": "Replay: {error}",
  "result.title": "Result",
  "result.winner": "Winner: {names} ({reason})",
  "result.winners": "Winners: {names} ({reason})",
  "result.nobody": "No winner ({reason})",
  "result.score": "{name}: {score}",
  "result.per_island": "Points per island",
  "result.island": "Island",
  "result.reason.finished": "end of the game",
  "result.reason.resigned": "resignation",
  "result.reason.timeout": "out of time",
  "result.reason.aborted": "aborted",
  "result.decided.total": "higher total",
  "result.decided.equipment_tiles": "more equipment tiles",
  "result.decided.equipment_points": "more equipment points",
  "result.decided.shared": "shared win",
  "fair.verified": "✔ Deal verified: the server's seed matches its commitment, and the deal and every later shuffle and draw follow from it and every seat's seed.",
  "fair.differs": "✘ The match does NOT follow from the revealed seeds: {field} differs.",
  "fair.title": "Fairness",
  "fair.checking": "Checking…",
  "fair.ok": "✔ The deal matches the commitment published when the match was created.",
  "fair.bad": "✘ The deal does NOT match the commitment published when the match was created.",
  "fair.published": "Published commitment",
  "fair.computed": "SHA-256 computed here ({via})",
  "fair.via_webcrypto": "Web Crypto",
  "fair.via_plain": "plain JavaScript",
  "fair.secret": "Secret",
  "fair.log": "Full log",
  "fair.log_events": "{n} events, every shuffle and draw",
  "fair.unreadable": "The reveal could not be read: {error}",
  "fair.again": "Check again",
  "error.validation_error": "Some of the choices are not valid.",
  "error.idempotency_key_reused": "This request was already sent with other content.",
  "error.unauthorized": "This browser's key to the seat is missing or no longer valid.",
  "error.forbidden": "That is not allowed.",
  "error.not_found": "There is no such match (or it is unlisted and needs its invite link).",
  "error.method_not_allowed": "The server does not accept that request.",
  "error.conflict": "That cannot be done now.",
  "error.illegal_action": "That move is not allowed now.",
  "error.not_your_turn": "It is not your turn.",
  "error.match_over": "The match is over.",
  "error.version_conflict": "The board changed in the meantime: look again and choose again.",
  "error.seat_taken": "Someone else took that seat.",
  "error.seat_not_held": "You do not hold that seat.",
  "error.already_seated": "You already sit in this match.",
  "error.already_resigned": "That seat has already resigned.",
  "error.match_not_started": "The match has not started yet.",
  "error.match_started": "The match has already started.",
  "error.match_not_finished": "The match is not over yet.",
  "error.payload_too_large": "That request is too large.",
  "error.rate_limited": "Too many requests: wait a moment, then try again.",
  "error.internal_error": "The server ran into a problem.",
  "error.unavailable": "The server is unavailable for a moment: try again soon.",
  "error.other": "The server refused ({code}).",
  "error.stream_closed": "The live connection was closed ({code}).",
  "error.transport": "The server cannot be reached.",
  "error.unexpected": "Something went wrong on this page.",
  "ev.seat_joined": "{name} took seat {n}",
  "ev.seat_joined_bot": "{name} (bot, {level}) took seat {n}",
  "ev.match_started": "The match started",
  "ev.seat_resigned": "{name} resigned",
  "ev.timed_out": "{name} ran out of time: {policy}",
  "ev.policy.bot": "a bot moved for them",
  "ev.policy.forfeit": "the seat forfeits",
  "ev.taken_over": "A bot plays {name}'s seat from now on ({reason})",
  "ev.takeover.timeout": "too many timeouts",
  "ev.takeover.resigned": "resigned",
  "ev.takeover.forfeit": "forfeit",
  "ev.takeover.host": "the host's choice",
  "ev.reissued": "The host made a new link for {name}'s seat",
  "ev.aborted": "The match was aborted ({reason})",
  "ev.abort.host": "by the host",
  "ev.abort.expired": "nobody joined in time",
  "ev.match_ended": "The match ended: {reason}",
  "ev.ratings_changed": "Ratings: {changes}",
  "ev.draft_step": "Your draft: {action}",
  "ev.draft_undone": "Your draft: a step taken back",
  "ev.draft_changed": "{name} is working on a turn",
  "ev.draft_published_one": "{name} finished the turn ({n} step)",
  "ev.draft_published_other": "{name} finished the turn ({n} steps)",
  "ev.turn_ended": "{name} ended the turn; {next} is next",
  "ev.game_ended": "Game over: {scores}",
  "ev.md.game_started": "The cards are dealt. Riders: {riders}. {name} begins.",
  "ev.md.card_played": "{name} played {card} ({from} → {to})",
  "ev.md.rider_under": "{name} keeps riding {dragon} (card under the pile)",
  "ev.md.rider_on_top": "{name} stays on {dragon} (card on top of the pile)",
  "ev.md.rider_switched": "{name} now rides {dragon}",
  "ev.md.scored_blue": "Small scoring: {changes}",
  "ev.md.scored_green": "Large scoring: {changes}",
  "ev.md.scored_summit": "Summit reached, large scoring: {changes}",
  "ev.md.discarded": "{name} discarded {cards} at the summit",
  "ev.md.drew": "{name} drew {cards}",
  "ev.md.drew_count_one": "{name} drew {n} card",
  "ev.md.drew_count_other": "{name} drew {n} cards",
  "ev.md.reshuffled_one": "The draw pile was rebuilt ({n} card)",
  "ev.md.reshuffled_other": "The draw pile was rebuilt ({n} cards)",
  "ev.md.turn_passed": "{name} passes (no cards left); {next} is next",
  "ev.yu.game_started": "The tiles are laid out and the cards dealt; {name} is player 1",
  "ev.yu.game_started_hand": "The tiles are laid out and the cards dealt; {name} is player 1. Your hand: {cards}",
  "ev.yu.revealed": "{name} revealed a tile on {island}: {tile}",
  "ev.yu.played": "{name} played {card} on {island}",
  "ev.yu.played_against": "{name} played {card} on {island}, on {other}'s side",
  "ev.yu.confirmed": "{name} ended the turn",
  "ev.yu.drew": "{name} drew {card}",
  "ev.yu.drew_hidden": "{name} drew a card",
  "ev.yu.game_ended": "Game over: {scores} ({decided})",
  "md.dragon.blue": "Blue",
  "md.dragon.brown": "Brown",
  "md.dragon.black": "Black",
  "md.dragon.red": "Red",
  "md.dragon.yellow": "Yellow",
  "md.dragon.green": "Green",
  "md.dragon.gray": "Gray",
  "md.dragon.light_blue": "Light blue",
  "md.dragon.purple": "Purple",
  "md.dragon.orange": "Orange",
  "md.short.blue": "Bu",
  "md.short.brown": "Br",
  "md.short.black": "Bk",
  "md.short.red": "Re",
  "md.short.yellow": "Ye",
  "md.short.green": "Gn",
  "md.short.gray": "Gy",
  "md.short.light_blue": "LB",
  "md.short.purple": "Pu",
  "md.short.orange": "Or",
  "md.card": "{dragon} {value}",
  "md.start": "Start",
  "md.summit": "Summit",
  "md.space.start": "the start",
  "md.space.plain": "space {n}, worth {value}",
  "md.space.blue": "space {n}, blue (small scoring), worth {value}",
  "md.space.green": "space {n}, green (large scoring), worth {value}",
  "md.space.summit": "space {n}, summit, worth {value}",
  "md.dragons_here_one": "{n} dragon: {dragons}",
  "md.dragons_here_other": "{n} dragons: {dragons}",
  "md.token": "{dragon} dragon, no rider, on {where}",
  "md.token_ridden": "{dragon} dragon, ridden by {rider}, on {where}",
  "md.side": "Board side for {side} players: the path from the start to the summit",
  "md.own_track": "This match's own track: the path from the start to the summit",
  "md.legend.blue": "◆ blue: small scoring (only spaces worth 3 or less pay)",
  "md.legend.green": "⬢ green: large scoring",
  "md.legend.summit": "▲ summit: large scoring when a dragon first arrives",
  "md.players": "Players",
  "md.points_one": "{n} point",
  "md.points_other": "{n} points",
  "md.rides": "rides {dragon}",
  "md.pile": "rider pile {card} ×{n}",
  "md.pile_none": "no rider pile",
  "md.hand_cards_one": "{n} card in hand",
  "md.hand_cards_other": "{n} cards in hand",
  "md.summit_title": "Summit: {n} of {of} dragons (the third ends the game)",
  "md.summit_empty": "No dragon on the summit yet.",
  "md.last_play": "Last card: {name} played {card}",
  "md.pending": "Card waiting for the choice of dragon: {card}",
  "md.discards": "Discarded at the summit: {cards}",
  "md.discards_none": "No card discarded at the summit yet.",
  "md.draw_pile_one": "Draw pile: {n} card",
  "md.draw_pile_other": "Draw pile: {n} cards",
  "md.hand": "Your hand",
  "md.hand_empty": "No cards in your hand.",
  "md.play_card": "Play {card}",
  "md.discard_card": "Discard {card}",
  "md.keep": "Keep riding {dragon}",
  "md.switch": "Switch to {dragon}",
  "md.turn.you_play": "Your turn: play a card.",
  "md.turn.plays": "{name} is playing a card.",
  "md.turn.you_choose": "You moved the last dragon: keep riding {dragon}, or switch to {other}?",
  "md.turn.chooses": "{name} chooses a dragon.",
  "md.turn.you_discard": "You may discard cards of dragons on the summit, then end your turn.",
  "md.turn.discards": "{name} may discard cards of dragons on the summit.",
  "md.turn.over": "The game is over.",
  "md.dragons_table": "All dragons as a table",
  "md.col.dragon": "Dragon",
  "md.col.space": "Space",
  "md.col.value": "Worth",
  "md.col.rider": "Rider",
  "md.kind.start": "start, {value}",
  "md.kind.plain": "{value}",
  "md.kind.blue": "blue, {value}",
  "md.kind.green": "green, {value}",
  "md.kind.summit": "summit, {value}",
  "yu.kind.idol": "Idol",
  "yu.kind.dagger": "Dagger",
  "yu.kind.amphora": "Amphora",
  "yu.kind.crystal": "Crystal",
  "yu.kind.equipment": "Equipment",
  "yu.kind.dynamite": "Dynamite",
  "yu.mode.mysteria": "Mysteria",
  "yu.mode.tactika": "Tactika",
  "yu.mode.mixed": "Mixed",
  "yu.card": "{kind} {value}",
  "yu.tile_up": "{type} tile, {value} points",
  "yu.tile_down_typed": "face-down {type} tile",
  "yu.tile_down": "face-down tile",
  "yu.caption": "The five islands ({mode})",
  "yu.mode_mixed_known": "Mixed: {types} shown face down",
  "yu.face_down_left_one": "{n} tile still face down",
  "yu.face_down_left_other": "{n} tiles still face down",
  "yu.side_label": "{name}'s cards",
  "yu.rows": "Above: {upper}'s cards · below: {lower}'s",
  "yu.column": "{name}'s cards on {island}: {cards} (sum {sum})",
  "yu.column_empty": "{name} has no cards on {island}",
  "yu.tiles_of": "Tiles of {island}",
  "yu.set_aside_open": "The tiles set aside",
  "yu.set_aside_hidden_one": "{n} tile set aside, face down",
  "yu.set_aside_hidden_other": "{n} tiles set aside, face down",
  "yu.players": "Players",
  "yu.hand_cards_one": "{n} card in hand",
  "yu.hand_cards_other": "{n} cards in hand",
  "yu.deck_cards_one": "{n} card in the deck",
  "yu.deck_cards_other": "{n} cards in the deck",
  "yu.hand": "Your hand",
  "yu.hand_hint": "pick a card, then the island to play it on",
  "yu.pick": "Pick {card}",
  "yu.play_on": "Play {card} on {island}",
  "yu.reveal": "Reveal the {tile} in slot {slot} of {island}",
  "yu.turn.you_open_one": "Reveal a tile of your choice ({n} opening reveal left).",
  "yu.turn.you_open_other": "Reveal a tile of your choice ({n} opening reveals left).",
  "yu.turn.opens_one": "{name} reveals a tile ({n} opening reveal left).",
  "yu.turn.opens_other": "{name} reveals a tile ({n} opening reveals left).",
  "yu.turn.you_play": "Your turn: pick a card, then an island.",
  "yu.turn.plays": "{name} is playing a card.",
  "yu.turn.you_confirm": "Press “End turn” to finish your turn.",
  "yu.turn.confirms": "{name} is ending the turn.",
  "yu.turn.you_reveal": "Reveal a face-down tile of your choice.",
  "yu.turn.reveals": "{name} reveals a tile.",
  "yu.turn.wait": "One moment…",
  "yu.turn.over": "The game is over.",
  "nav.play": "Quick play",
  "nav.mine": "My matches",
  "nav.leaderboards": "Leaderboards",
  "error.player_key_required": "This needs a player: create one under quick play.",
  "error.name_taken": "That name is taken: choose another.",
  "error.too_many_seeks": "You are already looking for as many matches as allowed: cancel one first.",
  "error.seek_closed": "That search is over already.",
  "error.challenge_closed": "That challenge is no longer open.",
  "player.title": "Your player",
  "player.none": "Quick play, challenges and ratings need a player: a name, and a key that only this browser keeps.",
  "player.name": "Name",
  "player.name_hint": "1 to 32 characters, shown to other players.",
  "player.create": "Create player",
  "player.creating": "Creating the player…",
  "player.have_key": "I have a player key",
  "player.key": "Player key",
  "player.key_hint": "The key (pk_…) shown when the player was created elsewhere.",
  "player.use_key": "Use this key",
  "player.playing_as": "You play as {name}.",
  "player.profile_link": "Your profile",
  "player.forget": "Forget this player",
  "player.forget_hint": "Its key is kept only in this browser: once forgotten, the player cannot be used again here and its name stays taken.",
  "player.forget_confirm": "Forget it",
  "play.title": "Quick play",
  "play.lead": "Say what you would like to play: the server seats you with others looking for the same, or with its bots after a wait you choose. You may close the page meanwhile.",
  "play.new": "Find a match",
  "play.players_any": "any number",
  "play.players_any_of": "{list} players",
  "play.opponents": "Opponents",
  "play.opponents_hint": "Players marked as bots are met only if you allow them.",
  "play.opponents.humans": "People only",
  "play.opponents.any": "People or bot players",
  "play.opponents.bots": "Bot players only",
  "play.bots_after": "Server bots fill the seats",
  "play.bots_after_hint": "If nobody else is found in time, the server's bots take the missing seats.",
  "play.bots_never": "never",
  "play.bots_now": "at once",
  "play.bots_after_n_one": "after {n} second",
  "play.bots_after_n_other": "after {n} seconds",
  "play.submit": "Look for a match",
  "play.opening": "Looking…",
  "play.opened": "Waiting for a match: this page opens it when it is found.",
  "play.failed": "The search could not start: {error}",
  "play.waiting_title": "Waiting",
  "play.waiting": "waiting",
  "play.since": "since {time}",
  "play.cancel": "Cancel",
  "play.cancel_label": "Cancel the search: {seek}",
  "play.cancelled": "The search is cancelled.",
  "play.stream_lost": "The live connection for your notices was lost: {error}",
  "me.title": "My matches",
  "me.matches": "Matches",
  "me.challenges": "Challenges",
  "me.your_turn": "Your turn",
  "me.against": "against {names}",
  "me.deadline": "your time runs out {time}",
  "me.open": "Open",
  "me.open_label": "Open {game} match {id}",
  "me.no_matches": "No match in play: find one with quick play.",
  "me.received": "Challenges to you",
  "me.sent": "Your challenges",
  "me.none_received": "Nobody has challenged you.",
  "me.none_sent": "Challenge players from their profile.",
  "me.from": "from {name}",
  "me.to": "to {names}",
  "me.challenge.open": "open",
  "me.challenge.accepted": "accepted",
  "me.challenge.declined": "declined",
  "me.challenge.expired": "expired",
  "me.answer.accepted": "{name} accepted",
  "me.answer.declined": "{name} declined",
  "me.answer.none": "{name} has not answered",
  "me.reason": "reason: {reason}",
  "me.expires": "open until {time}",
  "me.accept": "Accept",
  "me.accept_label": "Accept the {game} challenge from {name}",
  "me.decline": "Decline",
  "me.decline_reason": "Reason (optional)",
  "me.decline_send": "Decline the challenge",
  "me.decline_label": "Decline the challenge from {name} ({game})",
  "me.accepted": "Accepted: the match starts when everyone has accepted.",
  "me.declined": "Declined.",
  "me.watch": "Watch",
  "profile.title": "Player",
  "profile.bot": "bot",
  "profile.bot_hint": "This player is a program: it says so itself, or it is one of the server's bots.",
  "profile.no_ratings": "No rated match yet.",
  "profile.rating": "Rating",
  "profile.provisional": "(provisional: fewer than 10 rated matches)",
  "profile.games": "Matches",
  "profile.wins": "Wins",
  "profile.last_played": "Last played",
  "profile.chart_title": "Rating in {game}",
  "profile.chart_summary_one": "from {from} to {to} over {n} rated match, best {best}",
  "profile.chart_summary_other": "from {from} to {to} over {n} rated matches, best {best}",
  "profile.chart_start": "start: {rating}",
  "profile.chart_point": "{rating} after the match of {time} (place {rank})",
  "profile.challenge_title": "Challenge {name}",
  "profile.challenge": "Send the challenge",
  "profile.challenging": "Sending…",
  "profile.challenged": "Challenge sent: its answer appears under",
  "board.title": "Leaderboards",
  "board.lead": "The rated players of each game, best rating first. The rating is a careful estimate that grows as the server grows sure of a player.",
  "board.caption": "{game}: the best players",
  "board.rank": "Place",
  "board.player": "Player",
  "board.pages": "Pages",
  "board.previous": "Previous",
  "board.next": "Next",
  "board.past_end": "No more players here.",
  "board.empty_one": "Nobody is listed yet: a player is listed after {n} rated match.",
  "board.empty_other": "Nobody is listed yet: a player is listed after {n} rated matches.",
  "board.provisional_note_one": "Players with fewer than {n} rated match are not listed yet.",
  "board.provisional_note_other": "Players with fewer than {n} rated matches are not listed yet.",
  "error.chat_closed": "This match has no spectators' chat.",
  "chat.title": "Chat",
  "chat.rooms": "Chat rooms",
  "chat.room.players": "players",
  "chat.room.spectators": "spectators",
  "chat.messages": "Messages",
  "chat.empty": "No message yet.",
  "chat.spectator": "a spectator",
  "chat.said": "{name} writes: {text}",
  "chat.message_label": "Message to the {room}",
  "chat.send": "Send",
  "chat.players_only": "Only the players write here.",
  "chat.need_player": "Spectators write with a player:"
};

// src/i18n/index.ts
var CATALOGUES = { en: en_default, de: de_default };
var LANGS = ["en", "de"];
var STORED = "drago:lang";
function initial() {
  try {
    const stored = localStorage.getItem(STORED);
    if (stored === "en" || stored === "de") return stored;
  } catch {
  }
  for (const tag of navigator.languages ?? [navigator.language]) {
    const base = tag.toLowerCase().split("-")[0];
    if (base === "de" || base === "en") return base;
  }
  return "en";
}
var current = initial();
var plurals = new Intl.PluralRules(current);
document.documentElement.lang = current;
var lang = () => current;
function setLang(next) {
  current = next;
  plurals = new Intl.PluralRules(next);
  document.documentElement.lang = next;
  try {
    localStorage.setItem(STORED, next);
  } catch {
  }
  window.dispatchEvent(new Event("langchange"));
}
var PLACEHOLDER = /\{(\w+)\}/g;
function t(key3, params = {}) {
  return CATALOGUES[current][key3].replace(PLACEHOLDER, (whole, name) => name in params ? String(params[name]) : whole);
}
function tn(key3, n, params = {}) {
  const form = plurals.select(n) === "one" ? "one" : "other";
  return t(`${key3}_${form}`, { n, ...params });
}
function tx(key3, params) {
  const parts = [];
  let at = 0;
  const template = CATALOGUES[current][key3];
  for (const match of template.matchAll(PLACEHOLDER)) {
    parts.push(template.slice(at, match.index));
    const name = match[1];
    const value = params[name];
    parts.push(value === void 0 ? match[0] : value);
    at = match.index + match[0].length;
  }
  parts.push(template.slice(at));
  return parts.filter((part) => part !== "");
}
function txn(key3, n, params = {}) {
  const form = plurals.select(n) === "one" ? "one" : "other";
  return tx(`${key3}_${form}`, { n, ...params });
}
function has(key3) {
  return Object.hasOwn(CATALOGUES.en, key3);
}
function dateTime(iso) {
  return new Date(iso).toLocaleString(current, { dateStyle: "medium", timeStyle: "short" });
}
function list(items) {
  return new Intl.ListFormat(current, { type: "conjunction" }).format(items);
}

// src/api.ts
var api = new DragoClient(location.origin, { retry: { attempts: 3 } });
function describeError(error2) {
  if (error2 instanceof ApiError) {
    const key3 = `error.${error2.code}`;
    return has(key3) ? t(key3) : t("error.other", { code: error2.code });
  }
  if (error2 instanceof StreamClosed) return t("error.stream_closed", { code: error2.code });
  if (error2 instanceof TransportError) return t("error.transport");
  console.error(error2);
  return t("error.unexpected");
}
var games = /* @__PURE__ */ new Map();
function gameDetail(name) {
  let detail = games.get(name);
  if (!detail) {
    detail = api.getGame(name);
    detail.catch(() => games.delete(name));
    games.set(name, detail);
  }
  return detail;
}

// src/dom.ts
var SVG = "http://www.w3.org/2000/svg";
function apply(element, props) {
  for (const [name, value] of Object.entries(props)) {
    if (value === null || value === void 0 || value === false) continue;
    if (typeof value === "function") element.addEventListener(name.replace(/^on/, ""), value);
    else if (name === "value" && "value" in element) element.value = String(value);
    else if (name === "checked" && element instanceof HTMLInputElement) element.checked = Boolean(value);
    else element.setAttribute(name, value === true ? "" : String(value));
  }
}
function h(tag, props = {}, ...children) {
  const element = document.createElement(tag);
  apply(element, props);
  append(element, children);
  return element;
}
function s(tag, props = {}, ...children) {
  const element = document.createElementNS(SVG, tag);
  apply(element, props);
  append(element, children);
  return element;
}
function append(parent, children) {
  for (const child of children) {
    if (child === null || child === void 0 || child === false) continue;
    if (Array.isArray(child)) append(parent, child);
    else parent.appendChild(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}
function button(label, onClick, props = {}) {
  return h("button", { type: "button", ...props, onclick: () => onClick() }, label);
}
function svgButton(element, onClick) {
  element.addEventListener("click", () => onClick());
  element.addEventListener("keydown", (event) => {
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      onClick();
    }
  });
  return element;
}
var focusable = (e) => e instanceof HTMLElement || e instanceof SVGElement;
var focusedKey;
var focusedGroup;
document.addEventListener("focusin", (event) => {
  const target = event.target;
  focusedKey = focusable(target) ? target.dataset.key : void 0;
  focusedGroup = focusable(target) ? target.dataset.group : void 0;
});
var ENABLED = ':not([aria-disabled="true"])';
function refocus(parent, key3, group) {
  if (!key3) return;
  const find = (selector) => parent.querySelector(selector);
  const same4 = find(`[data-key="${CSS.escape(key3)}"]`);
  const focus = (target) => target?.focus({ preventScroll: target === same4 });
  if (!group) return focus(same4);
  const inGroup = `[data-group="${CSS.escape(group)}"]`;
  const usable = same4 && same4.getAttribute("aria-disabled") !== "true" ? same4 : null;
  focus(usable ?? find(inGroup + ENABLED) ?? find(`[data-legal]${ENABLED}`) ?? same4 ?? find(inGroup) ?? find('[data-group="hand"]'));
}
function replaceChildren(parent, ...children) {
  const active = document.activeElement;
  const inside = focusable(active) && parent.contains(active);
  const idle = active === document.body || active === null;
  const key3 = inside ? active.dataset.key : idle ? focusedKey : void 0;
  const group = inside ? active.dataset.group : idle ? focusedGroup : void 0;
  parent.replaceChildren();
  append(parent, children);
  if (!parent.isConnected) return;
  refocus(parent, key3, group);
}
function field(text2, control2, hint) {
  const id = control2.id;
  if (!id) return h("label", { class: "field" }, h("span", { class: "label" }, text2), control2, hint ? h("small", {}, hint) : null);
  if (hint) control2.setAttribute("aria-describedby", `${id}-hint`);
  return h("div", { class: "field" }, h("label", { for: id, class: "label" }, text2), control2, hint ? h("small", { id: `${id}-hint` }, hint) : null);
}

// src/route.ts
function parseRoute(hash = location.hash) {
  const [path = "", query = ""] = hash.replace(/^#/, "").split("?", 2);
  const [page = "", ...args] = path.split("/").filter(Boolean).map(decodeURIComponent);
  return { page, args, params: new URLSearchParams(query) };
}
function matchHref(matchId, params = {}) {
  const query = new URLSearchParams(params).toString();
  return `#/match/${encodeURIComponent(matchId)}${query ? `?${query}` : ""}`;
}
function absoluteLink(fragment) {
  return `${location.origin}${location.pathname}${fragment}`;
}

// src/session.ts
var key2 = (matchId) => `drago:match:${matchId}`;
function credentials(matchId) {
  try {
    const raw = localStorage.getItem(key2(matchId));
    const parsed = raw ? JSON.parse(raw) : {};
    return { seats: parsed.seats ?? {}, ...parsed.host ? { host: parsed.host } : {}, invite: parsed.invite ?? null };
  } catch {
    return { seats: {} };
  }
}
function save(matchId, value) {
  localStorage.setItem(key2(matchId), JSON.stringify(value));
}
function saveSeat(matchId, seat, credential2) {
  const current3 = credentials(matchId);
  current3.seats[String(seat)] = credential2;
  save(matchId, current3);
}
function forgetSeat(matchId, seat) {
  const current3 = credentials(matchId);
  delete current3.seats[String(seat)];
  save(matchId, current3);
}
function saveHost(matchId, token, invite) {
  save(matchId, { ...credentials(matchId), host: { token, invite }, invite });
}
function saveInvite(matchId, invite) {
  save(matchId, { ...credentials(matchId), invite });
}
function heldSeats(matchId) {
  return Object.keys(credentials(matchId).seats).map(Number).sort((a, b) => a - b);
}
function lastName() {
  return localStorage.getItem("drago:name") ?? "";
}
function rememberName(name) {
  localStorage.setItem("drago:name", name);
}

// src/community/player.ts
var STORED2 = "drago:player";
function identity() {
  try {
    const raw = localStorage.getItem(STORED2);
    const value = raw ? JSON.parse(raw) : null;
    return value?.player_id && value.key && typeof value.name === "string" ? { player_id: value.player_id, name: value.name, key: value.key } : null;
  } catch {
    return null;
  }
}
function save2(value) {
  if (value) localStorage.setItem(STORED2, JSON.stringify(value));
  else localStorage.removeItem(STORED2);
}
var profileHref = (playerId) => `#/player/${encodeURIComponent(playerId)}`;
function reopen() {
  window.dispatchEvent(new HashChangeEvent("hashchange"));
}
function openSeated(me, matchId, seat) {
  saveSeat(matchId, seat, { token: me.key, name: me.name });
  location.hash = matchHref(matchId, { as: String(seat) });
}
function seatedLink(me, matchId, seat, text2, label) {
  const link = h("a", { href: matchHref(matchId, { as: String(seat) }), class: "button-link", "aria-label": label }, text2);
  link.addEventListener("click", () => saveSeat(matchId, seat, { token: me.key, name: me.name }));
  return link;
}
function identityPanel(changed) {
  const me = identity();
  const message = h("p", { class: "message", role: "status" });
  const panel = h("section", { class: "panel identity", "aria-labelledby": "identity-title" });
  if (me) {
    replaceChildren(
      panel,
      h("h2", { id: "identity-title" }, t("player.title")),
      h(
        "p",
        { "data-player": me.player_id },
        t("player.playing_as", { name: me.name }),
        " ",
        h("a", { href: profileHref(me.player_id) }, t("player.profile_link"))
      ),
      h(
        "details",
        {},
        h("summary", {}, t("player.forget")),
        h("p", { class: "hint" }, t("player.forget_hint")),
        button(t("player.forget_confirm"), () => {
          save2(null);
          changed();
        }, { class: "danger", "data-key": "player-forget" })
      )
    );
    return panel;
  }
  const name = h("input", { type: "text", id: "player-name", maxlength: 32, autocomplete: "nickname", required: true, "data-key": "player-name" });
  const key3 = h("input", { type: "text", id: "player-key", autocomplete: "off", spellcheck: "false", "data-key": "player-key" });
  const create = h("form", {
    class: "inline",
    onsubmit: (event) => {
      event.preventDefault();
      message.textContent = t("player.creating");
      api.createPlayer({ name: name.value.trim() }).then(
        (created) => {
          save2({ player_id: created.player_id, name: created.name, key: created.key });
          changed();
        },
        (error2) => {
          message.textContent = describeError(error2);
        }
      );
    }
  }, field(t("player.name"), name, t("player.name_hint")), h("button", { type: "submit", class: "primary", "data-key": "player-create" }, t("player.create")));
  const bring = h("form", {
    class: "inline",
    onsubmit: (event) => {
      event.preventDefault();
      const value = key3.value.trim();
      api.getMe({ token: value }).then(
        (player) => {
          save2({ player_id: player.player_id, name: player.name, key: value });
          changed();
        },
        (error2) => {
          message.textContent = describeError(error2);
        }
      );
    }
  }, field(t("player.key"), key3, t("player.key_hint")), h("button", { type: "submit", "data-key": "player-use-key" }, t("player.use_key")));
  replaceChildren(
    panel,
    h("h2", { id: "identity-title" }, t("player.title")),
    h("p", {}, t("player.none")),
    create,
    h("details", {}, h("summary", {}, t("player.have_key")), bring),
    message
  );
  return panel;
}

// src/community/leaderboard.ts
var PAGE = 20;
var href = (game, offset) => `#/leaderboard/${encodeURIComponent(game)}${offset ? `?offset=${offset}` : ""}`;
function leaderboardPage(root2, route) {
  const offset = Math.max(0, Number(route.params.get("offset")) || 0);
  const table = h("div", { "aria-live": "polite" }, h("p", {}, t("match.loading")));
  const pick = h("select", { id: "board-game", "data-key": "board-game" });
  pick.addEventListener("change", () => {
    location.hash = href(pick.value, 0);
  });
  replaceChildren(root2, h(
    "main",
    { id: "main", class: "leaderboard" },
    h("h1", {}, t("board.title")),
    h("p", { class: "lead" }, t("board.lead")),
    h("div", { class: "filters" }, field(t("lobby.game"), pick)),
    table
  ));
  void api.listGames().then(async (games2) => {
    const list2 = games2.items;
    const game = list2.find((g) => g.name === route.args[0]) ?? list2[0];
    if (!game) return;
    replaceChildren(pick, list2.map((g) => h("option", { value: g.name, selected: g.name === game.name }, g.title)));
    const board2 = await api.getLeaderboard(game.name, { limit: PAGE + 1, offset });
    const entries = board2.entries.slice(0, PAGE);
    const more = board2.entries.length > PAGE;
    replaceChildren(
      table,
      entries.length === 0 ? h("p", { class: "empty" }, offset ? t("board.past_end") : tn("board.empty", board2.min_games)) : h(
        "table",
        { class: "ranking", "data-game": game.name },
        h("caption", {}, t("board.caption", { game: game.title })),
        h("thead", {}, h(
          "tr",
          {},
          h("th", { scope: "col" }, t("board.rank")),
          h("th", { scope: "col" }, t("board.player")),
          h("th", { scope: "col" }, t("profile.rating")),
          h("th", { scope: "col" }, t("profile.games")),
          h("th", { scope: "col" }, t("profile.wins"))
        )),
        h("tbody", {}, entries.map((e) => h(
          "tr",
          { "data-player": e.player_id },
          h("td", {}, String(e.rank)),
          h("td", {}, h("a", { href: profileHref(e.player_id) }, e.name), e.bot ? [" ", h("small", { class: "bot-flag" }, t("profile.bot"))] : null),
          h("td", {}, e.rating.toFixed(1)),
          h("td", {}, String(e.games)),
          h("td", {}, String(e.wins))
        )))
      ),
      h(
        "nav",
        { class: "pager", "aria-label": t("board.pages") },
        offset > 0 ? h("a", { href: href(game.name, Math.max(0, offset - PAGE)), class: "button-link", rel: "prev" }, t("board.previous")) : null,
        more ? h("a", { href: href(game.name, offset + PAGE), class: "button-link", rel: "next" }, t("board.next")) : null
      ),
      h("p", { class: "hint" }, tn("board.provisional_note", board2.min_games))
    );
  }).catch((error2) => replaceChildren(table, h("p", { role: "alert", class: "message error" }, describeError(error2))));
  return {};
}

// src/community/mine.ts
var SHOWN = 50;
function others(me, challenge) {
  const names = [challenge.name, ...challenge.to.map((p) => p.name)];
  return names.filter((name) => name !== me.name);
}
function myMatchesPage(root2) {
  const stop = new AbortController();
  const me = identity();
  const titles = /* @__PURE__ */ new Map();
  const message = h("p", { class: "message", role: "status" });
  const challengesSlot = h("div", { "aria-live": "polite" });
  const matchesSlot = h("div");
  const title = (game) => titles.get(game) ?? game;
  const drafts = /* @__PURE__ */ new Map();
  function challengeItem(player, c) {
    const received = c.player_id !== player.player_id;
    const mine = c.to.find((p) => p.player_id === player.player_id);
    const open = c.status === "open";
    const id = c.challenge_id;
    const draft = drafts.get(id);
    const reason = h("input", {
      type: "text",
      id: `reason-${id}`,
      maxlength: 200,
      "data-key": `reason-${id}`,
      value: draft ?? "",
      oninput: () => drafts.set(id, reason.value)
    });
    const declining = (event) => {
      if (event.currentTarget.open) drafts.set(id, reason.value);
      else drafts.delete(id);
    };
    const answers = c.to.filter((p) => p.player_id !== player.player_id).map((p) => t(p.answer === "accepted" ? "me.answer.accepted" : p.answer === "declined" ? "me.answer.declined" : "me.answer.none", { name: p.name }));
    return h(
      "li",
      { class: "match-item challenge", "data-challenge": c.challenge_id, "data-status": c.status },
      h(
        "span",
        {},
        h("strong", {}, title(c.game)),
        " ",
        h("small", {}, tn("create.players_n", c.players)),
        " · ",
        received ? t("me.from", { name: c.name }) : t("me.to", { names: list(others(player, c)) })
      ),
      h("span", { class: `status status-${open ? "waiting" : "finished"}` }, t(`me.challenge.${c.status}`)),
      h(
        "span",
        { class: "seats-text" },
        [answers.join(" · "), c.reason ? t("me.reason", { reason: c.reason }) : ""].filter(Boolean).join(" · "),
        open ? [" ", t("me.expires", { time: dateTime(c.expires_at) })] : null
      ),
      h(
        "span",
        { class: "links" },
        received && open && mine?.answer == null ? [
          button(t("me.accept"), () => void answer(player, c, true, ""), { class: "primary", "data-key": `accept-${c.challenge_id}`, "aria-label": t("me.accept_label", { name: c.name, game: title(c.game) }) }),
          h(
            "details",
            { class: "decline", open: draft !== void 0, ontoggle: declining },
            h("summary", {}, t("me.decline")),
            field(t("me.decline_reason"), reason),
            button(t("me.decline_send"), () => void answer(player, c, false, reason.value.trim()), { "data-key": `decline-${c.challenge_id}`, "aria-label": t("me.decline_label", { name: c.name, game: title(c.game) }) })
          )
        ] : null,
        c.match_id ? h("a", { href: `#/match/${c.match_id}?as=spectator`, class: "button-link" }, t("me.watch")) : null
      )
    );
  }
  async function answer(player, c, accept, reason) {
    try {
      if (accept) await api.acceptChallenge(c.challenge_id, { token: player.key });
      else await api.declineChallenge(c.challenge_id, reason ? { reason } : {}, { token: player.key });
      drafts.delete(c.challenge_id);
      message.textContent = accept ? t("me.accepted") : t("me.declined");
    } catch (error2) {
      message.textContent = describeError(error2);
    }
    await load(player);
  }
  function matchItem(player, item2) {
    const m = item2.match;
    const opponents = m.seats.filter((s2) => s2.seat !== item2.seat).map((s2) => !s2.taken ? t("seats.free") : s2.bot ? t("lobby.bot_name", { name: s2.name ?? "" }) : s2.name ?? "");
    const short = m.id.slice(0, 6);
    return h(
      "li",
      { class: `match-item${item2.my_turn ? " my-turn" : ""}`, "data-match": m.id, "data-my-turn": item2.my_turn ? "yes" : "no" },
      h("span", { class: "game" }, h("strong", {}, title(m.game)), " ", h("small", {}, t("me.against", { names: list(opponents) }))),
      h("span", { class: `status status-${m.status}` }, item2.my_turn ? t("me.your_turn") : t(`match.status.${m.status}`)),
      h("span", { class: "seats-text" }, item2.deadline ? t("me.deadline", { time: dateTime(item2.deadline) }) : t("match.seat", { n: item2.seat + 1 })),
      h("span", { class: "links" }, seatedLink(player, m.id, item2.seat, t("me.open"), t("me.open_label", { game: title(m.game), id: short })))
    );
  }
  async function load(player) {
    try {
      const [challenges, active, waiting] = await Promise.all([
        api.listMyChallenges({ limit: SHOWN }, { token: player.key }),
        api.myMatches({ status: "active", limit: SHOWN }, { token: player.key }),
        api.myMatches({ status: "waiting", limit: SHOWN }, { token: player.key })
      ]);
      const received = challenges.items.filter((c) => c.player_id !== player.player_id);
      const sent = challenges.items.filter((c) => c.player_id === player.player_id);
      replaceChildren(
        challengesSlot,
        h("h2", { id: "received-title" }, t("me.received")),
        received.length ? h("ul", { class: "matches", "aria-labelledby": "received-title" }, received.map((c) => challengeItem(player, c))) : h("p", { class: "empty" }, t("me.none_received")),
        h("h2", { id: "sent-title" }, t("me.sent")),
        sent.length ? h("ul", { class: "matches", "aria-labelledby": "sent-title" }, sent.map((c) => challengeItem(player, c))) : h("p", { class: "empty" }, t("me.none_sent"))
      );
      const items = [...active.items, ...waiting.items].sort((a, b) => Number(b.my_turn) - Number(a.my_turn));
      replaceChildren(
        matchesSlot,
        h("h2", { id: "mine-title" }, t("me.matches")),
        items.length ? h("ul", { class: "matches", "aria-labelledby": "mine-title" }, items.map((item2) => matchItem(player, item2))) : h("p", { class: "empty" }, t("me.no_matches"))
      );
    } catch (error2) {
      message.textContent = describeError(error2);
    }
  }
  async function listen(player) {
    for await (const _frame of api.followPlayer({ key: player.key, hellos: true, signal: stop.signal })) await load(player);
  }
  replaceChildren(root2, h(
    "main",
    { id: "main", class: "mine" },
    h("h1", {}, t("me.title")),
    identityPanel(reopen),
    message,
    me ? h(
      "div",
      { class: "lobby-grid" },
      h("section", { class: "panel", "aria-label": t("me.matches") }, matchesSlot),
      h("section", { class: "panel", "aria-label": t("me.challenges") }, challengesSlot)
    ) : null,
    me ? h("p", {}, h("a", { href: profileHref(me.player_id) }, t("player.profile_link"))) : null
  ));
  if (me) {
    void api.listGames().then((games2) => {
      for (const g of games2.items) titles.set(g.name, g.title);
      void load(me);
    });
    listen(me).catch((error2) => {
      if (!stop.signal.aborted) message.textContent = t("play.stream_lost", { error: describeError(error2) });
    });
  }
  return { dispose: () => stop.abort() };
}

// src/community/chart.ts
var W = 480;
var H = 160;
var LEFT = 44;
var RIGHT = 10;
var TOP = 10;
var BOTTOM = 26;
var fixed = (n) => n.toFixed(1);
function ratingChart(points, title) {
  const ratings = [points[0]?.rating_before ?? 0, ...points.map((p) => p.rating_after)];
  const low = Math.floor(Math.min(...ratings));
  const high = Math.max(Math.ceil(Math.max(...ratings)), low + 1);
  const x = (i) => LEFT + (W - LEFT - RIGHT) * i / Math.max(ratings.length - 1, 1);
  const y = (r) => TOP + (H - TOP - BOTTOM) * (high - r) / (high - low);
  const first = ratings[0];
  const last = ratings.at(-1);
  const label = [title, tn("profile.chart_summary", points.length, { from: fixed(first), to: fixed(last), best: fixed(Math.max(...ratings)) })].join(": ");
  return s(
    "svg",
    { viewBox: `0 0 ${W} ${H}`, class: "rating-chart", role: "img", "aria-label": label },
    s("line", { x1: LEFT, y1: TOP, x2: LEFT, y2: H - BOTTOM, class: "axis" }),
    s("line", { x1: LEFT, y1: H - BOTTOM, x2: W - RIGHT, y2: H - BOTTOM, class: "axis" }),
    s("text", { x: LEFT - 6, y: y(high) + 4, "text-anchor": "end", class: "tick" }, String(high)),
    s("text", { x: LEFT - 6, y: y(low), "text-anchor": "end", class: "tick" }, String(low)),
    points.length ? [
      s("text", { x: LEFT, y: H - 8, class: "tick" }, dateTime(points[0].at)),
      s("text", { x: W - RIGHT, y: H - 8, "text-anchor": "end", class: "tick" }, dateTime(points.at(-1).at))
    ] : null,
    s("polyline", { points: ratings.map((r, i) => `${fixed(x(i))},${fixed(y(r))}`).join(" "), class: "line" }),
    ratings.map((r, i) => s(
      "circle",
      { cx: fixed(x(i)), cy: fixed(y(r)), r: 3, class: "point", "data-rating": fixed(r) },
      s("title", {}, i === 0 ? t("profile.chart_start", { rating: fixed(r) }) : t("profile.chart_point", { rating: fixed(r), time: dateTime(points[i - 1].at), rank: points[i - 1].rank }))
    ))
  );
}

// src/community/profile.ts
var fixed2 = (n) => n.toFixed(1);
function profilePage(root2, playerId) {
  const titles = /* @__PURE__ */ new Map();
  const main = h("main", { id: "main", class: "profile" }, h("h1", {}, t("profile.title")), h("p", {}, t("match.loading")));
  replaceChildren(root2, main);
  function gameSection(profile, rating) {
    const title = titles.get(rating.game) ?? rating.game;
    const chartSlot = h("div", { class: "chart" }, h("p", {}, t("match.loading")));
    void api.getRatingHistory(profile.player_id, rating.game).then(
      (history2) => replaceChildren(chartSlot, ratingChart(history2.points, t("profile.chart_title", { game: title }))),
      (error2) => replaceChildren(chartSlot, h("p", { role: "alert" }, describeError(error2)))
    );
    const id = `rating-${rating.game}`;
    return h(
      "section",
      { class: "panel", "aria-labelledby": id, "data-game": rating.game },
      h("h2", { id }, title),
      h(
        "dl",
        { class: "facts" },
        h("dt", {}, t("profile.rating")),
        h("dd", { "data-rating": fixed2(rating.rating) }, fixed2(rating.rating), rating.provisional ? [" ", h("small", {}, t("profile.provisional"))] : null),
        h("dt", {}, t("profile.games")),
        h("dd", {}, String(rating.games)),
        h("dt", {}, t("profile.wins")),
        h("dd", {}, String(rating.wins)),
        h("dt", {}, t("profile.last_played")),
        h("dd", {}, dateTime(rating.last_played))
      ),
      chartSlot
    );
  }
  function challengeForm(profile, games2) {
    const me = identity();
    if (!me || me.player_id === profile.player_id) return null;
    const game = h("select", { id: "challenge-game", "data-key": "challenge-game" }, games2.map((g) => h("option", { value: g.name }, g.title)));
    const message = h("p", { class: "message", role: "status" });
    return h(
      "section",
      { class: "panel", "aria-labelledby": "challenge-title" },
      h("h2", { id: "challenge-title" }, t("profile.challenge_title", { name: profile.name })),
      h("form", {
        class: "inline",
        onsubmit: (event) => {
          event.preventDefault();
          message.textContent = t("profile.challenging");
          api.createChallenge({ to: [profile.player_id], game: game.value }, { token: me.key }).then(
            () => replaceChildren(message, t("profile.challenged"), " ", h("a", { href: "#/me" }, t("nav.mine"))),
            (error2) => {
              message.textContent = describeError(error2);
            }
          );
        }
      }, field(t("lobby.game"), game), h("button", { type: "submit", class: "primary", "data-key": "challenge-send" }, t("profile.challenge"))),
      message
    );
  }
  void Promise.all([api.getPlayerProfile(playerId), api.listGames()]).then(([profile, games2]) => {
    for (const g of games2.items) titles.set(g.name, g.title);
    replaceChildren(
      main,
      h("h1", { "data-player": profile.player_id }, profile.name, profile.bot ? [" ", h("span", { class: "bot-flag", "data-bot": "yes" }, t("profile.bot"))] : null),
      profile.bot ? h("p", { class: "hint" }, t("profile.bot_hint")) : null,
      profile.ratings.length ? profile.ratings.map((rating) => gameSection(profile, rating)) : h("p", { class: "empty" }, t("profile.no_ratings")),
      challengeForm(profile, games2.items),
      h("p", {}, h("a", { href: "#/leaderboard" }, t("nav.leaderboards")))
    );
  }, (error2) => replaceChildren(main, h("h1", {}, t("profile.title")), h("p", { role: "alert", class: "message error" }, describeError(error2))));
  return {};
}

// src/gameoptions.ts
var seatChoices = (players2) => Array.from({ length: players2 }, (_, seat) => ({ value: seat, label: t("match.seat", { n: seat + 1 }) }));
var TYPES = ["idol", "dagger", "amphora", "crystal", "equipment"];
var SPECS = {
  mount_drago: [
    { name: "first_player", label: "opt.first_player", choices: (players2) => [{ value: null, label: t("opt.first_random") }, ...seatChoices(players2)] },
    { name: "negative_floor", label: "opt.md.negative_floor", hint: "opt.md.negative_floor_hint" },
    { name: "zero_scoring_counts", label: "opt.md.zero_scoring_counts", hint: "opt.md.zero_scoring_counts_hint" },
    { name: "refill_after_discard_empty", label: "opt.md.refill_after_discard_empty", hint: "opt.md.refill_after_discard_empty_hint" },
    { name: "explicit_end_turn", label: "opt.explicit_end_turn", hint: "opt.md.explicit_end_turn_hint" }
  ],
  yutaka: [
    { name: "mode", common: true, label: "opt.yu.mode", choices: () => ["mysteria", "tactika", "mixed"].map((mode) => ({
      value: mode,
      label: t(`yu.mode.${mode}`),
      hint: t(`opt.yu.mode_${mode}_hint`)
    })) },
    {
      name: "known_types",
      common: true,
      label: "opt.yu.known_types",
      hint: "opt.yu.known_types_hint",
      when: (v) => v.mode === "mixed",
      set: () => TYPES.map((type) => ({ value: type, label: t(`yu.kind.${type}`) }))
    },
    { name: "first_player", label: "opt.yu.first_player", choices: (players2) => [...seatChoices(players2), { value: "random", label: t("opt.first_random") }] },
    { name: "stacked", label: "opt.yu.stacked", hint: "opt.yu.stacked_hint" },
    { name: "tie_break", label: "opt.yu.tie_break", choices: () => ["equipment_tiles", "equipment_points", "shared"].map((rule) => ({
      value: rule,
      label: t(`opt.yu.tie_${rule}`)
    })) },
    { name: "explicit_end_turn", label: "opt.explicit_end_turn", hint: "opt.yu.explicit_end_turn_hint" }
  ]
};
var same2 = (a, b) => JSON.stringify(a) === JSON.stringify(b);
function control(spec, id, fallback, players2) {
  if (spec.choices) {
    const choices = spec.choices(players2);
    const select = h(
      "select",
      { id, "data-key": id },
      choices.map((choice, i) => h("option", { value: String(i), selected: same2(choice.value, fallback) }, choice.label))
    );
    const hint = h("small", { id: `${id}-hint` });
    const describe2 = () => hint.textContent = choices[Number(select.value)]?.hint ?? (spec.hint ? t(spec.hint) : "");
    select.addEventListener("change", describe2);
    describe2();
    select.setAttribute("aria-describedby", `${id}-hint`);
    const element2 = h("div", { class: "field" }, h("label", { for: id, class: "label" }, t(spec.label)), select, hint);
    return { spec, element: element2, read: () => choices[Number(select.value)]?.value };
  }
  if (spec.set) {
    const chosen = Array.isArray(fallback) ? fallback : fallback === null ? ["idol", "dagger"] : [];
    const boxes = spec.set().map((choice) => ({ choice, box: h("input", { type: "checkbox", id: `${id}-${String(choice.value)}`, checked: chosen.includes(choice.value) }) }));
    const element2 = h(
      "fieldset",
      { class: "checks", id, "aria-describedby": spec.hint ? `${id}-hint` : null },
      h("legend", {}, t(spec.label)),
      boxes.map(({ choice, box: box2 }) => h("label", {}, box2, " ", choice.label)),
      spec.hint ? h("small", { id: `${id}-hint` }, t(spec.hint)) : null
    );
    return { spec, element: element2, read: () => boxes.filter(({ box: box2 }) => box2.checked).map(({ choice }) => choice.value) };
  }
  const box = h("input", { type: "checkbox", id, checked: fallback === true, "data-key": id });
  const element = h("div", { class: "field check" }, box, h("label", { for: id }, t(spec.label)), spec.hint ? h("small", { id: `${id}-hint` }, t(spec.hint)) : null);
  if (spec.hint) box.setAttribute("aria-describedby", `${id}-hint`);
  return { spec, element, read: () => box.checked };
}
function optionsForm(game, schema, players2) {
  const properties = schema.properties ?? {};
  const controls = (SPECS[game] ?? []).filter((spec) => spec.name in properties).map((spec) => control(spec, `option-${game}-${spec.name}`, properties[spec.name].default, players2));
  const value = () => {
    const options = {};
    for (const { spec, element, read } of controls) {
      if (element.hidden) continue;
      const chosen = read();
      if (!same2(chosen, properties[spec.name].default)) options[spec.name] = chosen;
    }
    return options;
  };
  const sync = () => {
    const chosen = {};
    for (const { spec, read } of controls) chosen[spec.name] = read();
    for (const { spec, element } of controls) element.hidden = spec.when ? !spec.when(chosen) : false;
  };
  sync();
  return {
    common: controls.filter((c) => c.spec.common).map((c) => c.element),
    more: controls.filter((c) => !c.spec.common).map((c) => c.element),
    value,
    sync
  };
}

// src/create.ts
var LEVELS = ["random", "greedy", "ismcts"];
var UNITS = [["s", 1], ["min", 60], ["h", 3600], ["d", 86400]];
var remembered = /* @__PURE__ */ new Map();
function remember(form) {
  for (const control2 of form.querySelectorAll("input[id], select[id]")) {
    remembered.set(control2.id, control2 instanceof HTMLInputElement && (control2.type === "checkbox" || control2.type === "radio") ? control2.checked : control2.value);
  }
}
function restore(form, ids) {
  for (const control2 of form.querySelectorAll("input[id], select[id]")) {
    if (ids && !ids(control2.id)) continue;
    const value = remembered.get(control2.id);
    if (value === void 0) continue;
    if (typeof value === "boolean") {
      if (control2 instanceof HTMLInputElement) control2.checked = value;
    } else if (control2 instanceof HTMLSelectElement) {
      if ([...control2.options].some((option) => option.value === value)) control2.value = value;
    } else control2.value = value;
  }
}
function duration(id, seconds, min) {
  const [unit, size] = [...UNITS].reverse().find(([, s2]) => seconds % s2 === 0) ?? UNITS[0];
  const amount = h("input", { type: "number", id: `${id}-amount`, min, step: 1, value: seconds / size, class: "amount", "data-key": `${id}-amount` });
  const units = h(
    "select",
    { id: `${id}-unit`, "aria-label": t("create.unit"), "data-key": `${id}-unit` },
    UNITS.map(([code]) => h("option", { value: code, selected: code === unit }, t(`create.unit.${code}`)))
  );
  return {
    element: h("span", { class: "duration" }, amount, units),
    seconds: () => Number(amount.value) * (UNITS.find(([code]) => code === units.value)?.[1] ?? 1)
  };
}
function clockFields() {
  const kind = h(
    "select",
    { id: "create-clock", "data-key": "create-clock" },
    h("option", { value: "" }, t("create.clock.none")),
    h("option", { value: "decision" }, t("create.clock.decision")),
    h("option", { value: "bank" }, t("create.clock.bank"))
  );
  const time = duration("create-clock", 86400, 1);
  const increment = duration("create-inc", 30, 0);
  const timeField = h("div", { class: "field" }, h("label", { for: "create-clock-amount", class: "label", id: "create-clock-time" }), time.element);
  const incrementField = h("div", { class: "field" }, h("label", { for: "create-inc-amount", class: "label" }, t("create.clock.increment")), increment.element);
  const sync = () => {
    timeField.hidden = kind.value === "";
    timeField.querySelector("label").textContent = kind.value === "bank" ? t("create.clock.bank_time") : t("create.clock.decision_time");
    incrementField.hidden = kind.value !== "bank";
  };
  kind.addEventListener("change", sync);
  return {
    element: h("div", { class: "row clock-fields" }, field(t("create.clock"), kind, t("create.clock_hint")), timeField, incrementField),
    value() {
      if (kind.value === "decision") return { per_decision_s: time.seconds() };
      if (kind.value === "bank") return { initial_s: time.seconds(), increment_s: increment.seconds() };
      return null;
    },
    on: () => (sync(), kind.value !== "")
  };
}
function createForm(root2, games2) {
  const gameChoice = h(
    "fieldset",
    { class: "game-choice" },
    h("legend", {}, t("create.game")),
    games2.map((g, i) => h(
      "label",
      { class: "game-option" },
      h("input", { type: "radio", name: "create-game", id: `create-game-${g.name}`, value: g.name, checked: i === 0, "data-key": `create-game-${g.name}` }),
      h("span", { class: "game-title" }, g.title),
      h(
        "small",
        {},
        g.min_players === g.max_players ? tn("create.players_exactly", g.min_players) : t("create.players_range", { min: g.min_players, max: g.max_players }),
        has(`create.about.${g.name}`) ? [" · ", t(`create.about.${g.name}`)] : null
      )
    ))
  );
  const players2 = h("select", { id: "create-players", "data-key": "create-players" });
  const playersSlot = h("div");
  const seatsSlot = h("fieldset", { class: "seats-choice" });
  const commonSlot = h("div");
  const moreSlot = h("div");
  const clock = clockFields();
  const onTimeout = h(
    "select",
    { id: "create-timeout", "data-key": "create-timeout" },
    h("option", { value: "bot" }, t("create.timeout.bot")),
    h("option", { value: "forfeit" }, t("create.timeout.forfeit"))
  );
  const timeoutField = field(t("create.timeout"), onTimeout);
  const takeover = h("input", { type: "number", id: "create-takeover", min: 1, max: 100, step: 1, value: 3, class: "amount", "data-key": "create-takeover" });
  const takeoverField = field(t("create.takeover"), takeover, t("create.takeover_hint"));
  const visibility = h(
    "fieldset",
    { class: "visibility" },
    h("legend", {}, t("create.visibility")),
    ["public", "unlisted"].map((v) => h(
      "label",
      { class: "radio" },
      h("input", { type: "radio", name: "create-visibility", id: `create-visibility-${v}`, value: v, checked: v === "public" }),
      " ",
      t(`create.visibility.${v}`)
    ))
  );
  const drafts = h("input", { type: "checkbox", id: "create-drafts", "data-key": "create-drafts" });
  const samples = h("input", { type: "checkbox", id: "create-samples", checked: true, "data-key": "create-samples" });
  const message = h("p", { role: "status", class: "message" });
  let options = null;
  let seatChoices2 = [];
  let loading = 0;
  const game = () => games2.find((g) => gameChoice.querySelector(`#create-game-${g.name}`)?.checked) ?? games2[0];
  function renderSeats() {
    const count = Number(players2.value);
    seatChoices2 = Array.from({ length: count }, (_, seat) => {
      const id = `create-seat-${seat}`;
      const select = h(
        "select",
        { id, "data-key": id },
        h("option", { value: "" }, t("create.seat.person")),
        LEVELS.map((level2) => h("option", { value: level2 }, t(`create.seat.${level2}`)))
      );
      select.value = seatChoices2[seat]?.value ?? remembered.get(id) ?? "";
      return select;
    });
    replaceChildren(
      seatsSlot,
      h("legend", {}, t("create.seats")),
      h("p", { class: "hint" }, t("create.seats_hint")),
      h("div", { class: "row" }, seatChoices2.map((select, seat) => field(t("match.seat", { n: seat + 1 }), select)))
    );
  }
  async function renderOptions() {
    const chosen = game();
    const ticket = ++loading;
    replaceChildren(commonSlot, h("p", {}, t("create.loading_options")));
    replaceChildren(moreSlot);
    try {
      const detail = await gameDetail(chosen.name);
      if (ticket !== loading) return;
      options = optionsForm(chosen.name, detail.schemas.options ?? detail.options_schema, Number(players2.value));
      replaceChildren(commonSlot, options.common);
      replaceChildren(moreSlot, options.more);
      restore(form, (id) => id.startsWith(`option-${chosen.name}-`));
      options.sync();
    } catch (error2) {
      replaceChildren(commonSlot, h("p", { role: "alert" }, describeError(error2)));
    }
  }
  function selectGame() {
    const chosen = game();
    replaceChildren(players2, Array.from({ length: chosen.max_players - chosen.min_players + 1 }, (_, i) => {
      const n = chosen.min_players + i;
      return h("option", { value: n }, tn("create.players_n", n));
    }));
    const wanted = remembered.get("create-players");
    if (typeof wanted === "string" && Number(wanted) >= chosen.min_players && Number(wanted) <= chosen.max_players) players2.value = wanted;
    replaceChildren(playersSlot, chosen.min_players === chosen.max_players ? h("p", { class: "fixed-players" }, tn("create.players_exactly", chosen.min_players)) : field(t("create.players"), players2));
    renderSeats();
    void renderOptions();
  }
  async function submit(event) {
    event.preventDefault();
    message.textContent = t("create.creating");
    try {
      const bots = seatChoices2.flatMap((select, seat) => select.value ? [{ seat, level: select.value }] : []);
      const body = {
        game: game().name,
        players: Number(players2.value),
        options: options?.value() ?? {},
        bots,
        clock: clock.value(),
        on_timeout: onTimeout.value,
        takeover_after: Number(takeover.value) || 3,
        visibility: visibility.querySelector("#create-visibility-unlisted").checked ? "unlisted" : "public",
        drafts: drafts.checked,
        allow_samples: samples.checked
      };
      const created = await api.createMatch(body);
      saveHost(created.id, created.host_token, created.invite);
      location.hash = matchHref(created.id, created.invite ? { invite: created.invite } : {});
    } catch (error2) {
      message.textContent = t("create.failed", { error: describeError(error2) });
    }
  }
  const syncTimeout = () => {
    const on = clock.on();
    timeoutField.hidden = !on;
    takeoverField.hidden = !on || onTimeout.value !== "bot";
  };
  const form = h(
    "form",
    { class: "create", onsubmit: (event) => void submit(event) },
    gameChoice,
    playersSlot,
    seatsSlot,
    commonSlot,
    h(
      "fieldset",
      { class: "match-settings" },
      h("legend", {}, t("create.settings")),
      clock.element,
      h("div", { class: "row" }, timeoutField, takeoverField),
      visibility
    ),
    h(
      "details",
      { class: "more" },
      h("summary", {}, t("create.more")),
      h("p", { class: "hint" }, t("create.more_hint")),
      moreSlot,
      h("div", { class: "field check" }, drafts, h("label", { for: "create-drafts" }, t("create.drafts")), h("small", {}, t("create.drafts_hint"))),
      h("div", { class: "field check" }, samples, h("label", { for: "create-samples" }, t("create.samples")), h("small", {}, t("create.samples_hint")))
    ),
    h("button", { type: "submit", class: "primary big" }, t("create.submit")),
    message
  );
  form.addEventListener("change", (event) => {
    const target = event.target;
    if (target.id.startsWith("create-game-")) {
      remember(form);
      selectGame();
    } else if (target.id === "create-players") {
      remember(form);
      renderSeats();
      void renderOptions();
    }
    options?.sync();
    syncTimeout();
    remember(form);
  });
  replaceChildren(root2, form);
  restore(form, (id) => id.startsWith("create-game-"));
  selectGame();
  restore(form, (id) => !id.startsWith("option-") && !id.startsWith("create-game-"));
  syncTimeout();
}

// src/community/quickplay.ts
var BOTS_AFTER = ["", "0", "10", "30", "60", "300"];
var DEFAULT_BOTS_AFTER = "30";
var OPPONENTS = ["humans", "any", "bots"];
function botsAfterText(value) {
  if (value === "") return t("play.bots_never");
  if (value === "0") return t("play.bots_now");
  return tn("play.bots_after_n", Number(value));
}
function seekText(seek, titles) {
  const players2 = seek.players.length === 1 ? tn("create.players_n", seek.players[0]) : t("play.players_any_of", { list: seek.players.join(", ") });
  return [titles.get(seek.game) ?? seek.game, players2, botsAfterText(seek.bots_after_s === null ? "" : String(seek.bots_after_s))].join(" · ");
}
function quickPlayPage(root2, route) {
  const stop = new AbortController();
  const opened = /* @__PURE__ */ new Set();
  const titles = /* @__PURE__ */ new Map();
  let games2 = [];
  let me = identity();
  const message = h("p", { class: "message", role: "status" });
  const waiting = h("div", { class: "seeks", "aria-live": "polite" });
  const formSlot = h("div");
  const identitySlot = h("div");
  async function refresh() {
    if (!me) return replaceChildren(waiting);
    try {
      const seeks = (await api.listMySeeks({ limit: 20 }, { token: me.key })).items;
      const done = seeks.find((s2) => opened.has(s2.seek_id) && s2.status === "matched" && s2.match_id && s2.seat !== null);
      if (done) return openSeated(me, done.match_id, done.seat);
      const open = seeks.filter((s2) => s2.status === "open");
      replaceChildren(waiting, open.length === 0 ? null : [
        h("h2", { id: "seeks-title" }, t("play.waiting_title")),
        h("ul", { class: "matches", "aria-labelledby": "seeks-title" }, open.map((seek) => h(
          "li",
          { class: "match-item", "data-seek": seek.seek_id },
          h("span", {}, h("strong", {}, seekText(seek, titles))),
          h("span", { class: "status status-waiting" }, t("play.waiting")),
          h("time", { datetime: seek.created_at, class: "created" }, t("play.since", { time: dateTime(seek.created_at) })),
          h("span", { class: "links" }, button(t("play.cancel"), () => void cancel(seek), {
            "data-key": `cancel-${seek.seek_id}`,
            "aria-label": t("play.cancel_label", { seek: seekText(seek, titles) })
          }))
        )))
      ]);
    } catch (error2) {
      message.textContent = describeError(error2);
    }
  }
  async function cancel(seek) {
    if (!me) return;
    try {
      await api.cancelSeek(seek.seek_id, { token: me.key });
      message.textContent = t("play.cancelled");
    } catch (error2) {
      message.textContent = describeError(error2);
    }
    await refresh();
  }
  async function listen(player) {
    for await (const frame2 of api.followPlayer({ key: player.key, hellos: true, signal: stop.signal })) {
      if (frame2.type === "hello") await refresh();
      else if (frame2.notice.type === "seek_matched" && frame2.notice.match_id && typeof frame2.notice.seat === "number") {
        return openSeated(player, frame2.notice.match_id, frame2.notice.seat);
      } else await refresh();
    }
  }
  function form(player) {
    const params = route.params;
    const wanted = params.get("game");
    const gameChoice = h(
      "fieldset",
      { class: "game-choice" },
      h("legend", {}, t("create.game")),
      games2.map((g, i) => h(
        "label",
        { class: "game-option" },
        h("input", { type: "radio", name: "seek-game", id: `seek-game-${g.name}`, value: g.name, checked: wanted ? g.name === wanted : i === 0, "data-key": `seek-game-${g.name}` }),
        h("span", { class: "game-title" }, g.title)
      ))
    );
    const players2 = h("select", { id: "seek-players", "data-key": "seek-players" });
    const playersSlot = h("div");
    const opponents = h(
      "select",
      { id: "seek-opponents", "data-key": "seek-opponents" },
      OPPONENTS.map((o) => h("option", { value: o }, t(`play.opponents.${o}`)))
    );
    const botsAfterChoices = [...BOTS_AFTER];
    const preset = params.get("bots_after");
    if (preset !== null && /^\d+$/.test(preset) && !botsAfterChoices.includes(preset)) botsAfterChoices.push(preset);
    const botsAfter = h(
      "select",
      { id: "seek-bots-after", "data-key": "seek-bots-after" },
      botsAfterChoices.map((v) => h("option", { value: v, selected: v === (preset ?? DEFAULT_BOTS_AFTER) }, botsAfterText(v)))
    );
    const clock = clockFields();
    const game = () => games2.find((g) => gameChoice.querySelector(`#seek-game-${g.name}`)?.checked) ?? games2[0];
    function selectGame() {
      const chosen = game();
      const counts = Array.from({ length: chosen.max_players - chosen.min_players + 1 }, (_, i) => chosen.min_players + i);
      replaceChildren(
        players2,
        counts.map((n) => h("option", { value: n }, tn("create.players_n", n))),
        counts.length > 1 ? h("option", { value: "any" }, t("play.players_any")) : null
      );
      const count = params.get("players");
      if (count && [...players2.options].some((o) => o.value === count)) players2.value = count;
      replaceChildren(playersSlot, counts.length === 1 ? h("p", { class: "fixed-players" }, tn("create.players_exactly", chosen.min_players)) : field(t("create.players"), players2));
    }
    async function submit(event) {
      event.preventDefault();
      const chosen = game();
      const all = Array.from({ length: chosen.max_players - chosen.min_players + 1 }, (_, i) => chosen.min_players + i);
      const body = {
        game: chosen.name,
        players: players2.value === "any" ? all : Number(players2.value || chosen.min_players),
        options: {},
        clock: clock.value(),
        opponents: opponents.value,
        bots_after_s: botsAfter.value === "" ? null : Number(botsAfter.value)
      };
      message.textContent = t("play.opening");
      try {
        const seek = await api.createSeek(body, { token: player.key });
        opened.add(seek.seek_id);
        message.textContent = t("play.opened");
      } catch (error2) {
        message.textContent = t("play.failed", { error: describeError(error2) });
      }
      await refresh();
    }
    gameChoice.addEventListener("change", selectGame);
    clock.element.addEventListener("change", () => clock.on());
    selectGame();
    clock.on();
    return h(
      "form",
      { class: "create seek", onsubmit: (event) => void submit(event) },
      gameChoice,
      playersSlot,
      h(
        "div",
        { class: "row" },
        field(t("play.opponents"), opponents, t("play.opponents_hint")),
        field(t("play.bots_after"), botsAfter, t("play.bots_after_hint"))
      ),
      clock.element,
      h("button", { type: "submit", class: "primary big", "data-key": "seek-submit" }, t("play.submit"))
    );
  }
  let drawnFor;
  function draw() {
    me = identity();
    const who = me ? me.player_id : null;
    if (who !== drawnFor) {
      drawnFor = who;
      replaceChildren(identitySlot, identityPanel(reopen));
    }
    replaceChildren(formSlot, me && games2.length ? form(me) : null);
  }
  const seekPanel = h(
    "section",
    { class: "panel", "aria-labelledby": "seek-title", "aria-busy": "true" },
    h("h2", { id: "seek-title" }, t("play.new")),
    formSlot,
    message,
    waiting
  );
  replaceChildren(root2, h(
    "main",
    { id: "main", class: "quick-play" },
    h("h1", {}, t("play.title")),
    h("p", { class: "lead" }, t("play.lead")),
    identitySlot,
    seekPanel
  ));
  draw();
  void api.listGames().then((list2) => {
    games2 = list2.items;
    for (const g of games2) titles.set(g.name, g.title);
    draw();
    void refresh();
  }, (error2) => {
    message.textContent = describeError(error2);
  }).finally(() => seekPanel.setAttribute("aria-busy", "false"));
  if (me) {
    const player = me;
    listen(player).catch((error2) => {
      if (!stop.signal.aborted) message.textContent = t("play.stream_lost", { error: describeError(error2) });
    });
  }
  return { dispose: () => stop.abort() };
}

// src/lobby.ts
var PAGE2 = 20;
var STATUSES = ["waiting", "active", "finished", "aborted"];
var statusText = (status) => has(`match.status.${status}`) ? t(`match.status.${status}`) : status;
function seatsText(match) {
  return match.seats.map((s2) => !s2.taken ? t("seats.free") : s2.bot ? t("lobby.bot_name", { name: s2.name ?? "" }) : s2.name ?? "").join(" · ");
}
function item(match, titles) {
  const free = match.status === "waiting" && match.seats.some((s2) => !s2.taken);
  const title = titles.get(match.game) ?? match.game;
  const short = match.id.slice(0, 6);
  return h(
    "li",
    { class: "match-item", "data-match": match.id },
    h("span", { class: "game" }, h("strong", {}, title), " ", h("small", {}, tn("create.players_n", match.players))),
    h("span", { class: `status status-${match.status}` }, statusText(match.status)),
    h("span", { class: "seats-text" }, seatsText(match)),
    h("time", { datetime: match.created_at, class: "created" }, dateTime(match.created_at)),
    h(
      "span",
      { class: "links" },
      free ? h("a", { href: matchHref(match.id), class: "button-link", "aria-label": t("lobby.join_label", { game: title, id: short }) }, t("lobby.join")) : null,
      h("a", { href: matchHref(match.id, { as: "spectator" }), class: "button-link", "aria-label": t("lobby.watch_label", { game: title, id: short }) }, t("lobby.watch"))
    )
  );
}
function openTarget(text2) {
  const value = text2.trim();
  if (/^[0-9a-f]{32}$/i.test(value)) return matchHref(value);
  const hash = value.includes("#") ? value.slice(value.indexOf("#")) : "";
  const route = parseRoute(hash);
  return route.page === "match" && route.args[0] ? hash : null;
}
function lobbyPage(root2) {
  const list2 = h("div", { class: "match-list", "aria-live": "polite" });
  const more = h("div");
  const gameFilter = h("select", { id: "filter-game", "data-key": "filter-game" }, h("option", { value: "" }, t("lobby.any_game")));
  const statusFilter = h(
    "select",
    { id: "filter-status", "data-key": "filter-status" },
    h("option", { value: "" }, t("lobby.any_status")),
    STATUSES.map((s2) => h("option", { value: s2 }, statusText(s2)))
  );
  const openFilter = h("input", { type: "checkbox", id: "filter-open", "data-key": "filter-open" });
  const titles = /* @__PURE__ */ new Map();
  let shown = [];
  async function load(offset) {
    try {
      const page = await api.listMatches({
        game: gameFilter.value || null,
        status: statusFilter.value || null,
        open: openFilter.checked ? true : null,
        limit: PAGE2,
        offset
      });
      shown = offset === 0 ? page.items : [...shown, ...page.items];
      replaceChildren(list2, shown.length === 0 ? h("p", { class: "empty" }, t("lobby.empty")) : [
        h("h3", { id: "matches-count" }, tn("lobby.count", page.total)),
        h("ul", { class: "matches", "aria-labelledby": "matches-count" }, shown.map((m) => item(m, titles)))
      ]);
      replaceChildren(more, shown.length < page.total ? button(t("lobby.more"), () => void load(shown.length), { "data-key": "lobby-more" }) : null);
    } catch (error2) {
      replaceChildren(list2, h("p", { role: "alert" }, t("lobby.failed", { error: describeError(error2) })));
    }
  }
  for (const control2 of [gameFilter, statusFilter, openFilter]) control2.addEventListener("change", () => void load(0));
  const target = h("input", { id: "open-match", type: "text", placeholder: t("lobby.open_placeholder"), "data-key": "open-match", autocomplete: "off" });
  const openMessage = h("span", { role: "status" });
  const openForm = h("form", {
    class: "inline open-match",
    onsubmit: (event) => {
      event.preventDefault();
      const href2 = openTarget(target.value);
      if (href2) location.hash = href2;
      else openMessage.textContent = t("lobby.open_invalid");
    }
  }, field(t("lobby.open"), target), h("button", { type: "submit" }, t("lobby.open_button")), openMessage);
  const createSlot = h("div");
  replaceChildren(root2, h(
    "main",
    { id: "main", class: "lobby" },
    h("h1", {}, t("lobby.title")),
    h("p", { class: "lead" }, t("lobby.lead")),
    h(
      "div",
      { class: "lobby-grid" },
      h("section", { class: "panel create-panel", "aria-labelledby": "create-title" }, h("h2", { id: "create-title" }, t("lobby.create")), createSlot),
      h(
        "section",
        { class: "panel", "aria-labelledby": "lobby-title" },
        h("h2", { id: "lobby-title" }, t("lobby.matches")),
        h(
          "div",
          { class: "filters", role: "group", "aria-label": t("lobby.filters") },
          field(t("lobby.game"), gameFilter),
          field(t("lobby.status"), statusFilter),
          h("div", { class: "field check" }, openFilter, h("label", { for: "filter-open" }, t("lobby.free_only"))),
          button(t("lobby.refresh"), () => void load(0), { "data-key": "lobby-refresh" })
        ),
        list2,
        more,
        openForm
      )
    )
  ));
  void api.listGames().then(
    (games2) => {
      for (const game of games2.items) {
        titles.set(game.name, game.title);
        gameFilter.append(h("option", { value: game.name }, game.title));
      }
      createForm(createSlot, games2.items);
      void load(0);
    },
    (error2) => replaceChildren(list2, h("p", { role: "alert" }, t("lobby.unreachable", { error: describeError(error2) })))
  );
  return {};
}

// src/match/context.ts
function legal(ctx) {
  return ctx.playing && ctx.view ? ctx.view.legal_actions : [];
}
var same3 = (a, b) => JSON.stringify(a) === JSON.stringify(b);
function findLegal(ctx, action) {
  return legal(ctx).find((candidate) => same3(canonical(candidate), canonical(action)));
}
function canonical(value) {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.keys(value).sort().map((k) => [k, canonical(value[k])]));
  }
  return value;
}
function actionAttrs(ctx, action, label) {
  const attrs = { "data-legal": JSON.stringify(action), "aria-label": label, "data-key": `act:${JSON.stringify(canonical(action))}` };
  if (ctx.state.busy) attrs["aria-disabled"] = "true";
  return attrs;
}
function seatName(ctx, seat) {
  return ctx.names[seat] || t("match.seat", { n: seat + 1 });
}

// src/match/motion.ts
var reduce = window.matchMedia("(prefers-reduced-motion: reduce)");
function play(element, keyframes, options) {
  if (reduce.matches || typeof element.animate !== "function") return null;
  return element.animate(keyframes, { fill: "backwards", ...options });
}
function capture(root2) {
  const places = /* @__PURE__ */ new Map();
  if (reduce.matches) return places;
  for (const element of root2.querySelectorAll("[data-fly]")) {
    const rect = element.getBoundingClientRect();
    if (rect.width > 0) places.set(element.dataset.fly, rect);
  }
  return places;
}
function scaleOf(element) {
  const svg = element instanceof SVGElement ? element.ownerSVGElement : null;
  const box = svg?.viewBox.baseVal;
  if (!svg || !box || box.width === 0) return 1;
  return svg.getBoundingClientRect().width / box.width;
}
function flyFrom(element, from, duration2 = 520) {
  if (!element || !from) return;
  const to = element.getBoundingClientRect();
  const scale = scaleOf(element);
  const dx = (from.left + from.width / 2 - (to.left + to.width / 2)) / scale;
  const dy = (from.top + from.height / 2 - (to.top + to.height / 2)) / scale;
  play(element, [
    { transform: `translate(${dx}px, ${dy}px) scale(1.15)`, opacity: 0.6 },
    { transform: "translate(0px, 0px) scale(1)", opacity: 1 }
  ], { duration: duration2, easing: "cubic-bezier(.2,.7,.3,1)" });
}
function pulse(element, delay2 = 0) {
  if (!element) return;
  play(element, [{ transform: "scale(1)" }, { transform: "scale(1.35)" }, { transform: "scale(1)" }], { duration: 600, delay: delay2, easing: "ease-in-out" });
}
function flip(element, delay2 = 0) {
  if (!element) return;
  play(element, [{ transform: "scaleX(1)" }, { transform: "scaleX(0.05)", offset: 0.45 }, { transform: "scaleX(1)" }], { duration: 640, delay: delay2, easing: "ease-in-out" });
}
function floatText(anchor, text2, delay2 = 0) {
  if (!anchor || reduce.matches) return;
  const bubble = document.createElement("span");
  bubble.className = "float";
  bubble.setAttribute("aria-hidden", "true");
  bubble.textContent = text2;
  anchor.appendChild(bubble);
  const animation = bubble.animate([
    { opacity: 0, transform: "translateY(0)" },
    { opacity: 1, transform: "translateY(-0.6em)", offset: 0.2 },
    { opacity: 0, transform: "translateY(-1.8em)" }
  ], { duration: 1400, delay: delay2, fill: "both", easing: "ease-out" });
  animation.finished.then(() => bubble.remove(), () => bubble.remove());
}
function highlight(element) {
  if (!element) return;
  play(element, [{ backgroundColor: "#ffe08a" }, { backgroundColor: "transparent" }], { duration: 1600, easing: "ease-out" });
}

// src/boards/pieces.ts
function playerPanel(ctx, seat, viewer, turn, ...details) {
  return h(
    "li",
    { class: `player${turn ? " on-turn" : ""}${viewer === seat ? " you" : ""}`, "data-seat-row": seat, "data-fly": `seat:${seat}` },
    h(
      "span",
      { class: "who" },
      h("span", { class: "seat-badge", "aria-hidden": "true" }, seat + 1),
      h("strong", {}, seatName(ctx, seat)),
      viewer === seat ? ` (${t("match.you")})` : "",
      turn ? h("span", { class: "turn-flag" }, t("match.on_turn")) : null
    ),
    details
  );
}
var dragonName = (dragon) => t(`md.dragon.${dragon}`);
var dragonShort = (dragon) => t(`md.short.${dragon}`);
var mdCardText = (card) => t("md.card", { dragon: dragonName(card.dragon), value: card.value });
var WINGS = "M-7,-3 L-16,-12 L-13,-4 L-17,-1 L-12,1 L-15,5 L-8,5 Z M7,-3 L16,-12 L13,-4 L17,-1 L12,1 L15,5 L8,5 Z";
var HEAD = "M-5,-8 L-7,-15 L-2,-10 L0,-14 L2,-10 L7,-15 L5,-8 Z";
function dragonToken(dragon, rider, own, props = {}) {
  return s(
    "g",
    { class: `dragon-token dragon-${dragon}${rider === null ? "" : " ridden"}${own ? " own" : ""}`, "data-dragon": dragon, ...props },
    s("path", { class: "wings", d: `${WINGS} ${HEAD}` }),
    s("circle", { class: "body", r: 10 }),
    s("text", { class: "letters", y: 3.5 }, dragonShort(dragon)),
    rider === null ? null : s("g", { class: "rider" }, s("circle", { cx: 10, cy: 9, r: 6.5 }), s("text", { x: 10, y: 11.8 }, rider + 1))
  );
}
function dragonIcon(dragon) {
  return s(
    "svg",
    { class: `icon dragon-icon dragon-${dragon}`, viewBox: "-18 -16 36 30", "aria-hidden": "true", focusable: "false" },
    s("path", { class: "wings", d: `${WINGS} ${HEAD}` }),
    s("circle", { class: "body", r: 10 })
  );
}
function mdCard(card, zone, extra = {}) {
  return h(
    "span",
    { class: `card md dragon-${card.dragon}`, "data-card": `${card.dragon}-${card.value}`, "data-zone": zone, ...extra },
    dragonIcon(card.dragon),
    h("span", { class: "name" }, dragonName(card.dragon)),
    " ",
    h("span", { class: "value" }, card.value)
  );
}
var kindName = (kind) => t(`yu.kind.${kind}`);
var yuCardText = (card) => card.kind === "dynamite" ? kindName("dynamite") : t("yu.card", { kind: kindName(card.kind), value: card.value });
var SYMBOLS = {
  idol: "M0,-8 A4,4 0 1 1 0,0 A4,4 0 1 1 0,-8 Z M-6,9 L-4,1 L4,1 L6,9 Z",
  dagger: "M0,-9 L2.5,2 L-2.5,2 Z M-6,2 L6,2 L6,4 L-6,4 Z M-1.5,4 L1.5,4 L1.5,9 L-1.5,9 Z",
  amphora: "M-3,-9 L3,-9 L2,-6 C8,-4 8,5 3,9 L-3,9 C-8,5 -8,-4 -2,-6 Z",
  crystal: "M0,-9 L7,-2 L0,9 L-7,-2 Z",
  equipment: "M-8,-6 C-3,-10 3,-10 8,-6 L6,-4 C2,-7 -2,-7 -6,-4 Z M-1.5,-6 L1.5,-6 L1.5,9 L-1.5,9 Z",
  dynamite: "M-3,-5 L3,-5 L3,9 L-3,9 Z M0,-5 Q1,-8 4,-9 M3,-10 L6,-12 M5,-8 L8,-8"
};
function kindSymbol(kind, props = {}) {
  return s("path", { class: `symbol kind-${kind}`, d: SYMBOLS[kind] ?? "", ...props });
}
function yuCard(card, zone, extra = {}) {
  return h(
    "span",
    { class: `card yu kind-${card.kind}`, "data-card": `${card.kind}-${card.value}`, "data-zone": zone, ...extra },
    s("svg", { class: "icon", viewBox: "-10 -10 20 20", "aria-hidden": "true", focusable: "false" }, kindSymbol(card.kind)),
    h("span", { class: "name" }, kindName(card.kind)),
    card.kind === "dynamite" ? null : [" ", h("span", { class: "value" }, card.value)]
  );
}
function tileText(tile) {
  if (tile.face_up !== false && tile.value !== null && tile.type) return t("yu.tile_up", { type: kindName(tile.type), value: tile.value });
  return tile.type ? t("yu.tile_down_typed", { type: kindName(tile.type) }) : t("yu.tile_down");
}
function tileFace(tile, size) {
  const half = size / 2;
  const up = tile.face_up;
  return s(
    "g",
    { class: `tile-face ${up ? "up" : "down"} type-${tile.type ?? "hidden"}` },
    s("rect", { class: "tile-bg", x: -half, y: -half, width: size, height: size, rx: 5 }),
    tile.type ? s("rect", { class: "cube", x: -half + 5, y: -half + 5, width: size - 10, height: size - 10, rx: 3 }) : null,
    tile.type ? kindSymbol(tile.type, { transform: `translate(0 ${up ? -6 : -3}) scale(${up ? 0.8 : 1})` }) : null,
    up ? s("text", { class: "tile-value", y: half - 7 }, tile.value ?? "") : s("text", { class: "tile-mark", y: tile.type ? half - 5 : 6 }, "?")
  );
}

// src/boards/track.ts
var SUMMIT = 4;
var SCALE = 1.45;
var TOKEN = 34;
var LIFT = 42;
var ROW = 31;
function layoutTrack(count, compact) {
  const width = compact ? 430 : 960;
  const gap = compact ? 104 : 112;
  const rowHeight = compact ? 98 : 104;
  const middle = Math.max(0, count - 1 - SUMMIT);
  const widest = compact ? 4 : 8;
  const narrowest = compact ? 3 : 4;
  const taper = middle <= (compact ? 30 : 40);
  const capacity = (row) => taper ? Math.max(widest - (compact ? Math.floor(row / 2) : row), narrowest) : widest;
  const rows = [];
  for (let left2 = middle, row = 0; left2 > 0; row++) {
    rows.push(Math.min(capacity(row), left2));
    left2 -= rows[row];
  }
  const summitY = 118;
  const rowY = (row) => summitY + rowHeight * (rows.length - row);
  const centers = [];
  const startY = rowY(0) + rowHeight * 0.95;
  const startWidth = 5 * TOKEN + 24;
  let rightward = true;
  let lastX = width / 2;
  rows.forEach((inRow, row) => {
    const full = capacity(row);
    const span = (full - 1) * gap;
    const first = width / 2 - span / 2;
    for (let i = 0; i < inRow; i++) {
      const x = rightward ? first + i * gap : first + span - i * gap;
      centers.push({ x, y: rowY(row) });
      lastX = x;
    }
    rightward = !rightward;
  });
  const startX = Math.max(startWidth / 2 + 8, (centers[0]?.x ?? width / 2) - (compact ? 0 : 40));
  centers.unshift({ x: startX, y: startY });
  const summitGap = compact ? 82 : 90;
  const fromRight = lastX > width / 2;
  for (let i = 0; i < Math.min(SUMMIT, count - 1); i++) {
    const offset = (i - (SUMMIT - 1) / 2) * summitGap;
    centers.push({ x: width / 2 + (fromRight ? -offset : offset), y: summitY });
  }
  return {
    width,
    height: startY + 60,
    centers,
    start: { x: startX, y: startY, width: startWidth, height: 96 },
    peak: { x: width / 2, y: 18 }
  };
}
function cluster(count, start) {
  const perRow = start ? 5 : 3;
  const points = [];
  for (let i = 0; i < count; i++) {
    const row = Math.floor(i / perRow);
    const inRow = Math.min(perRow, count - row * perRow);
    const column2 = i % perRow;
    const x = (column2 - (inRow - 1) / 2) * TOKEN;
    points.push(start ? { x, y: -22 + row * ROW } : { x, y: -LIFT - row * ROW });
  }
  return points;
}
function spaceShape(kind) {
  switch (kind) {
    case "blue":
      return s("rect", { class: "shape", x: -18, y: -18, width: 36, height: 36, rx: 4, transform: "rotate(45)" });
    case "green":
      return s("polygon", { class: "shape", points: "-24,0 -12,-21 12,-21 24,0 12,21 -12,21" });
    case "summit":
      return s("polygon", { class: "shape", points: "0,-27 25,17 -25,17" });
    default:
      return s("circle", { class: "shape", r: 21 });
  }
}
function spaceText(space2, index) {
  if (space2.kind === "start") return t("md.space.start");
  return t(`md.space.${space2.kind}`, { n: index, value: space2.value });
}
function trackSvg(drawing, captionId) {
  const { layout, spaces, positions } = drawing;
  const { width, height, centers, start, peak } = layout;
  const byIndex = /* @__PURE__ */ new Map();
  for (const [dragon, at] of Object.entries(positions)) byIndex.set(at, [...byIndex.get(at) ?? [], dragon]);
  const trail = centers.map((p, i) => `${i ? "L" : "M"}${p.x.toFixed(1)},${p.y.toFixed(1)}`).join(" ");
  const base = height;
  const left2 = Math.min(...centers.map((p) => p.x)) - 70;
  const right = Math.max(...centers.map((p) => p.x)) + 70;
  const mountain = `M0,${base} L${Math.max(0, left2)},${centers[1]?.y ?? base} L${peak.x - 170},${peak.y + 80} L${peak.x},${peak.y} L${peak.x + 170},${peak.y + 80} L${Math.min(width, right)},${centers[1]?.y ?? base} L${width},${base} Z`;
  const snow = `M${peak.x - 62},${peak.y + 29} L${peak.x},${peak.y} L${peak.x + 62},${peak.y + 29} L${peak.x + 30},${peak.y + 22} L${peak.x + 10},${peak.y + 34} L${peak.x - 18},${peak.y + 22} Z`;
  const label = (dragon, at) => {
    const seat = drawing.riders[dragon];
    const where = spaceText(spaces[at] ?? { kind: "plain", value: 0 }, at);
    return seat === void 0 ? t("md.token", { dragon: dragonName(dragon), where }) : t("md.token_ridden", { dragon: dragonName(dragon), where, rider: drawing.names[seat] ?? "" });
  };
  return s(
    "svg",
    { class: "track", viewBox: `0 0 ${width} ${height}`, role: "group", "aria-labelledby": captionId, "data-width": width },
    s("path", { class: "mountain", d: mountain, "aria-hidden": "true" }),
    s("path", { class: "snow", d: snow, "aria-hidden": "true" }),
    s("path", { class: "trail", d: trail, "aria-hidden": "true" }),
    s("path", { class: "trail-steps", d: trail, "aria-hidden": "true" }),
    s("text", { class: "summit-label", x: peak.x, y: peak.y + 58, "aria-hidden": "true" }, t("md.summit")),
    spaces.map((space2, index) => {
      const at = centers[index];
      if (!at) return null;
      const here = (byIndex.get(index) ?? []).map(dragonName);
      const name = spaceText(space2, index) + (here.length ? `: ${tn("md.dragons_here", here.length, { dragons: here.join(", ") })}` : "");
      if (space2.kind === "start") {
        return s(
          "g",
          { class: "space kind-start", "data-space": index, "data-kind": "start", transform: `translate(${start.x} ${start.y})`, role: "img", "aria-label": name },
          s("rect", { class: "shape", x: -start.width / 2, y: -start.height / 2, width: start.width, height: start.height, rx: 16 }),
          s("text", { class: "space-name", y: start.height / 2 - 6 }, t("md.start"))
        );
      }
      return s(
        "g",
        { class: `space kind-${space2.kind}`, "data-space": index, "data-kind": space2.kind, transform: `translate(${at.x} ${at.y})`, role: "img", "aria-label": name },
        spaceShape(space2.kind),
        s("text", { class: "space-value", y: space2.kind === "summit" ? 12 : 6 }, space2.value < 0 ? `−${-space2.value}` : space2.value)
      );
    }),
    [...byIndex.entries()].flatMap(([index, dragons]) => {
      const center = centers[index];
      if (!center) return [];
      const places = cluster(dragons.length, index === 0);
      return dragons.map((dragon, i) => {
        const p = places[i];
        const seat = drawing.riders[dragon];
        return s(
          "g",
          { class: "dragon-place", transform: `translate(${(center.x + p.x).toFixed(1)} ${(center.y + p.y).toFixed(1)}) scale(${SCALE})` },
          dragonToken(dragon, seat ?? null, dragon === drawing.own, { role: "img", "aria-label": label(dragon, index) })
        );
      });
    })
  );
}
function animateTrack(svg, layout, before, after) {
  let longest = 0;
  for (const [dragon, to] of Object.entries(after)) {
    const from = before[dragon];
    if (from === void 0 || from === to) continue;
    const token = svg.querySelector(`[data-dragon="${dragon}"]`);
    const place = token?.parentNode;
    const end = place?.transform.baseVal.consolidate()?.matrix;
    if (!token || !end) continue;
    const step = to > from ? 1 : -1;
    const frames = [];
    const stand = (index) => {
      const c = layout.centers[index];
      return index === 0 ? { x: c.x, y: c.y - 22 } : { x: c.x, y: c.y - LIFT };
    };
    for (let i = from; i !== to + step; i += step) {
      const p = i === to ? { x: end.e, y: end.f } : stand(i);
      const frame2 = { transform: `translate(${((p.x - end.e) / end.a).toFixed(1)}px, ${((p.y - end.f) / end.a).toFixed(1)}px)` };
      if (i !== from) {
        const q = stand(i - step);
        frames.push({ transform: `translate(${(((p.x + q.x) / 2 - end.e) / end.a).toFixed(1)}px, ${(((p.y + q.y) / 2 - end.f - 18) / end.a).toFixed(1)}px)` });
      }
      frames.push(frame2);
    }
    const steps = Math.abs(to - from);
    const duration2 = Math.min(220 * steps, 2400);
    longest = Math.max(longest, duration2);
    play(token, frames, { duration: duration2, easing: "linear" });
  }
  return longest;
}

// src/boards/mountdrago.ts
var HANDLES = /* @__PURE__ */ new Set(["play", "discard", "choose_rider", "end_turn"]);
var SUMMIT_ENDS = 3;
function trackOf(ctx, view) {
  const catalogue = ctx.state.detail?.catalogue ?? {};
  const side = catalogue.track_by_players?.[String(view.players)];
  const printed = side ? catalogue.tracks?.[side] : void 0;
  if (!view.options.track && side && printed) return { spaces: printed, side };
  return { spaces: view.track, side: null };
}
var layouts = /* @__PURE__ */ new Map();
function layoutOf(spaces, compact) {
  const key3 = `${spaces.length}:${compact}`;
  let layout = layouts.get(key3);
  if (!layout) layouts.set(key3, layout = layoutTrack(spaces.length, compact));
  return layout;
}
function riders(view) {
  const map = {};
  view.riders.forEach((dragon, seat) => map[dragon] = seat);
  return map;
}
function lastPlay(events, seq) {
  for (let i = events.length - 1; i >= 0; i--) {
    const event = events[i];
    if (event.seq > seq || event.type !== "card_played") continue;
    const data = event.data;
    if (data.card) return { seat: data.seat, card: data.card, seq: event.seq };
  }
  return null;
}
function turnText(ctx, view) {
  if (view.status === "waiting") return t("match.waiting_players");
  if (view.status !== "active") return t("md.turn.over");
  const mine = ctx.playing && view.to_act.includes(view.seat ?? -1);
  const who = seatName(ctx, view.current_player);
  switch (view.phase) {
    case "play":
      return mine ? t("md.turn.you_play") : t("md.turn.plays", { name: who });
    case "choose_rider":
      return mine ? t("md.turn.you_choose", { dragon: dragonName(view.riders[view.seat ?? -1] ?? ""), other: dragonName(view.pending_card?.dragon ?? "") }) : t("md.turn.chooses", { name: who });
    case "discard":
      return mine ? t("md.turn.you_discard") : t("md.turn.discards", { name: who });
    default:
      return t("md.turn.over");
  }
}
function players(ctx, view) {
  return h(
    "ol",
    { class: "players", "aria-label": t("md.players") },
    view.scores.map((score, seat) => {
      const pile = view.rider_piles[seat];
      const turn = view.status === "active" && view.current_player === seat;
      const dragon = view.riders[seat];
      return playerPanel(
        ctx,
        seat,
        view.seat,
        turn,
        h("span", { class: "score" }, txn("md.points", score, { n: h("span", { class: "score-value", "data-score": seat }, score) })),
        dragon ? h("span", { class: "rides" }, tx("md.rides", { dragon: [dragonIcon(dragon), h("span", {}, dragonName(dragon))] })) : null,
        h("span", { class: "pile" }, pile ? tx("md.pile", { card: mdCard(pile.top, "rider-top", { "data-seat": String(seat) }), n: pile.size }) : t("md.pile_none")),
        h("span", { class: "hand-size", "data-hand-size": seat }, tn("md.hand_cards", view.hand_sizes[seat] ?? 0))
      );
    })
  );
}
function summit(ctx, view) {
  const played = lastPlay(ctx.state.events, view.seq);
  return h(
    "section",
    { class: "summit-box", "aria-labelledby": "summit-title" },
    h("h2", { id: "summit-title" }, t("md.summit_title", { n: view.summit_dragons.length, of: SUMMIT_ENDS })),
    h("p", { class: "summit-dragons" }, view.summit_dragons.length ? view.summit_dragons.map((d) => h("span", { class: "chip" }, dragonIcon(d), dragonName(d))) : t("md.summit_empty")),
    played ? h("p", { class: "last-play" }, tx("md.last_play", { name: seatName(ctx, played.seat), card: mdCard(played.card, "played") })) : null,
    view.pending_card ? h("p", {}, tx("md.pending", { card: mdCard(view.pending_card, "pending") })) : null,
    h("p", { class: "discards" }, view.discard_pile.length ? tx("md.discards", { cards: h("span", { class: "cards" }, view.discard_pile.map((c) => mdCard(c, "discard"))) }) : t("md.discards_none")),
    h("p", {}, tn("md.draw_pile", view.draw_pile_size))
  );
}
function hand(ctx, view) {
  if (view.hand === null) return null;
  return h(
    "section",
    { class: "hand", "aria-labelledby": "hand-title" },
    h("h2", { id: "hand-title" }, t("md.hand")),
    view.hand.length === 0 ? h("p", {}, t("md.hand_empty")) : null,
    h("div", { class: "cards" }, view.hand.map((c, index) => {
      const play2 = findLegal(ctx, { type: "play", card: c });
      const discard = findLegal(ctx, { type: "discard", cards: [c] });
      const action = play2 ?? discard;
      const text2 = mdCardText(c);
      const face = mdCard(c, "hand", { "data-index": String(index) });
      face.querySelector(".name")?.after(h("span", { class: "short", "aria-hidden": "true" }, dragonShort(c.dragon)));
      const common = { class: "card-button", "data-key": `hand:${index}`, "data-group": "hand", "data-fly": `hand:${c.dragon}-${c.value}` };
      if (!action) return button(face, () => void 0, { ...common, "aria-label": text2, "aria-disabled": "true" });
      const label = play2 ? t("md.play_card", { card: text2 }) : t("md.discard_card", { card: text2 });
      return button(face, () => ctx.act(action), { ...actionAttrs(ctx, action, label), ...common });
    }))
  );
}
function decisions(ctx, view) {
  const buttons = [];
  const seat = view.seat ?? -1;
  for (const choice of ["keep", "switch"]) {
    const action = findLegal(ctx, { type: "choose_rider", choice });
    if (!action) continue;
    const label = choice === "keep" ? t("md.keep", { dragon: dragonName(view.riders[seat] ?? "") }) : t("md.switch", { dragon: dragonName(view.pending_card?.dragon ?? "") });
    buttons.push(button(label, () => ctx.act(action), { class: "primary", "data-group": "turn", ...actionAttrs(ctx, action, label) }));
  }
  const end = findLegal(ctx, { type: "end_turn" });
  if (end) buttons.push(button(t("match.end_turn"), () => ctx.act(end), { class: "primary", "data-group": "turn", ...actionAttrs(ctx, end, t("match.end_turn")) }));
  return buttons.length ? h("div", { class: "decisions", role: "group", "aria-label": t("match.decisions") }, buttons) : null;
}
function dragonsTable(ctx, view, spaces) {
  const ridden = riders(view);
  const toggled = (event) => {
    ctx.state.ui.dragonsOpen = event.currentTarget.open;
  };
  return h(
    "details",
    { class: "dragons", open: ctx.state.ui.dragonsOpen === true, ontoggle: toggled },
    h("summary", {}, t("md.dragons_table")),
    h(
      "table",
      {},
      h("thead", {}, h("tr", {}, [t("md.col.dragon"), t("md.col.space"), t("md.col.value"), t("md.col.rider")].map((c) => h("th", { scope: "col" }, c)))),
      h("tbody", {}, Object.entries(view.positions).map(([dragon, at]) => {
        const space2 = spaces[at];
        const seat = ridden[dragon];
        return h(
          "tr",
          { "data-dragon-row": dragon },
          h("th", { scope: "row" }, dragonIcon(dragon), " ", dragonName(dragon)),
          h("td", {}, at === 0 ? t("md.start") : at),
          h("td", {}, space2 ? t(`md.kind.${space2.kind}`, { value: space2.value }) : ""),
          h("td", {}, seat === void 0 ? "—" : seatName(ctx, seat))
        );
      }))
    )
  );
}
function mountDragoBoard(ctx, view) {
  const { spaces, side } = trackOf(ctx, view);
  const layout = layoutOf(spaces, ctx.compact);
  const caption = side ? t("md.side", { side: side.replace("-", "–") }) : t("md.own_track");
  return h(
    "div",
    { class: "board md", "data-game": "mount_drago", "data-seq": view.seq, "data-phase": view.phase },
    h("p", { class: "turn-banner", "data-mine": ctx.playing && view.to_act.includes(view.seat ?? -1) ? "yes" : "no" }, turnText(ctx, view)),
    h(
      "figure",
      { class: "track-figure" },
      h("figcaption", { id: "track-caption" }, caption),
      trackSvg({ spaces, layout, positions: view.positions, riders: riders(view), own: view.seat === null ? null : view.riders[view.seat] ?? null, names: view.scores.map((_, seat) => seatName(ctx, seat)), caption }, "track-caption"),
      h(
        "p",
        { class: "legend", "aria-hidden": "true" },
        h("span", { class: "key kind-blue" }, t("md.legend.blue")),
        h("span", { class: "key kind-green" }, t("md.legend.green")),
        h("span", { class: "key kind-summit" }, t("md.legend.summit"))
      )
    ),
    decisions(ctx, view),
    hand(ctx, view),
    h("div", { class: "board-row" }, players(ctx, view), summit(ctx, view)),
    dragonsTable(ctx, view, spaces)
  );
}
function animateMountDrago(board2, ctx, before, view, places) {
  const svg = board2.querySelector("svg.track");
  const { spaces } = trackOf(ctx, view);
  const moving = svg ? animateTrack(svg, layoutOf(spaces, ctx.compact), before.positions, view.positions) : 0;
  const played = lastPlay(ctx.state.events, view.seq);
  if (played && played.seq > before.seq) {
    const card = `${played.card.dragon}-${played.card.value}`;
    const fromHand = played.seat === view.seat ? places.get(`hand:${card}`) : void 0;
    flyFrom(board2.querySelector('[data-zone="played"]'), fromHand ?? places.get(`seat:${played.seat}`));
  }
  view.riders.forEach((dragon, seat) => {
    if (before.riders[seat] === dragon) return;
    pulse(svg?.querySelector(`[data-dragon="${dragon}"]`) ?? null, moving);
    pulse(board2.querySelector(`[data-seat-row="${seat}"] .rides`), moving);
  });
  view.scores.forEach((score, seat) => {
    const change = score - (before.scores[seat] ?? score);
    if (change === 0) return;
    const cell = board2.querySelector(`[data-score="${seat}"]`);
    pulse(cell, moving);
    floatText(cell?.parentElement ?? null, `${change > 0 ? "+" : "−"}${Math.abs(change)}`, moving);
  });
}

// src/boards/islands.ts
var CARD_W = 128;
var CARD_H = 23;
var CARD_STEP = 26;
var MAX_CARDS = 5;
function layoutIslands(count, compact) {
  if (compact) {
    const width2 = 400;
    const band = 142;
    const tile2 = 44;
    const islands2 = Array.from({ length: count }, (_, i) => {
      const top = 30 + i * band;
      const cx = 76;
      const cy = top + 80;
      return {
        shape: { x: 4, y: top + 4, width: 146, height: band - 10 },
        name: { x: cx, y: top + 24 },
        slots: [0, 1, 2, 3].map((slot) => ({ x: cx + (slot % 2 ? 24 : -24), y: cy + (slot < 2 ? -22 : 26) })),
        columns: [
          { x: 158, y: top + 8, width: 238, height: 56 },
          { x: 158, y: top + 72, width: 238, height: 56 }
        ]
      };
    });
    const y = 30 + count * band + 20;
    return {
      width: width2,
      height: y + 64,
      compact,
      tile: tile2,
      islands: islands2,
      setAside: { label: { x: 8, y }, slots: [0, 1, 2, 3, 4].map((i) => ({ x: 30 + i * 52, y: y + 30 })) }
    };
  }
  const width = 980;
  const column2 = width / count;
  const tile = 50;
  const islands = Array.from({ length: count }, (_, i) => {
    const cx = column2 * i + column2 / 2;
    return {
      shape: { x: cx - column2 / 2 + 8, y: 166, width: column2 - 16, height: 160 },
      name: { x: cx, y: 196 },
      slots: [0, 1, 2, 3].map((slot) => ({ x: cx + (slot % 2 ? 29 : -29), y: 238 + (slot < 2 ? 0 : 56) })),
      columns: [
        { x: cx - CARD_W / 2, y: 28, width: CARD_W, height: MAX_CARDS * CARD_STEP + 8 },
        { x: cx - CARD_W / 2, y: 330, width: CARD_W, height: MAX_CARDS * CARD_STEP + 8 }
      ]
    };
  });
  return {
    width,
    height: 560,
    compact,
    tile,
    islands,
    setAside: { label: { x: 12, y: 524 }, slots: [0, 1, 2, 3, 4].map((i) => ({ x: 720 + i * 48, y: 522 })) }
  };
}
function cardBox(layout, column2, upper, index) {
  if (layout.compact) return { x: column2.x + index * 47, y: column2.y + 4, width: 44, height: 48 };
  const y = upper ? column2.y + column2.height - 4 - (index + 1) * CARD_STEP : column2.y + 4 + index * CARD_STEP;
  return { x: column2.x, y, width: CARD_W, height: CARD_H };
}
function cardShape(card, box, compact, props) {
  const value = card.kind === "dynamite" ? "" : String(card.value);
  return s(
    "g",
    { class: `col-card kind-${card.kind}`, transform: `translate(${box.x} ${box.y})`, role: "img", "aria-label": yuCardText(card), ...props },
    s("rect", { class: "card-bg", width: box.width, height: box.height, rx: 4 }),
    compact ? [kindSymbol(card.kind, { transform: `translate(${box.width / 2} 15) scale(.9)` }), s("text", { class: "card-value", x: box.width / 2, y: box.height - 7 }, value)] : [
      kindSymbol(card.kind, { transform: `translate(12 ${box.height / 2}) scale(.75)` }),
      s("text", { class: "card-name", x: 26, y: box.height / 2 + 4.5 }, kindName(card.kind)),
      s("text", { class: "card-value", x: box.width - 10, y: box.height / 2 + 5 }, value)
    ]
  );
}
function tileSlot(drawing, island, tile, at) {
  const attrs = {
    class: `tile${tile.face_up ? " up" : " down"}`,
    transform: `translate(${at.x} ${at.y})`,
    "data-island": String(island.island),
    "data-slot": String(tile.slot),
    "data-face": tile.face_up ? "up" : "down"
  };
  if (tile.type) attrs["data-type"] = tile.type;
  if (tile.value !== null) attrs["data-value"] = String(tile.value);
  const size = drawing.layout.tile;
  const reveal = tile.face_up ? null : drawing.reveal(island.island, tile.slot);
  const face = tileFace(tile, size);
  if (!reveal) return s("g", { ...attrs, role: "img", "aria-label": tileText(tile) }, face);
  const ring = s("rect", { class: "focus-ring", x: -size / 2 - 4, y: -size / 2 - 4, width: size + 8, height: size + 8, rx: 7 });
  return svgButton(s("g", { ...attrs, ...reveal.attrs, class: `${attrs.class} can-reveal`, role: "button", tabindex: 0 }, ring, face), reveal.act);
}
function column(drawing, island, position) {
  const { layout } = drawing;
  const seat = drawing.seats[position];
  const box = layout.islands[island.island].columns[position];
  const cards = island.cards[seat] ?? [];
  const sum = cards.reduce((total, c) => total + c.value, 0);
  const name = drawing.names[seat] ?? "";
  const label = cards.length ? t("yu.column", { name, island: island.name, cards: cards.map(yuCardText).join(", "), sum }) : t("yu.column_empty", { name, island: island.name });
  const target = drawing.target(island.island);
  const drop = target && target.side === seat ? svgButton(s(
    "g",
    { class: "target", role: "button", tabindex: 0, "data-group": "target", ...target.attrs },
    s("rect", { class: "target-area", x: box.x - 3, y: box.y - 3, width: box.width + 6, height: box.height + 6, rx: 8 }),
    s("text", { class: "target-plus", x: box.x + box.width / 2, y: box.y + box.height / 2 + 8 }, "+")
  ), target.act) : null;
  drop?.addEventListener("keydown", (event) => {
    if (event.key === "Escape") target.cancel();
  });
  return s(
    "g",
    { class: `column${position === 1 ? " near" : ""}`, "data-column": seat, role: "group", "aria-label": label },
    s("rect", { class: "column-bg", x: box.x - 3, y: box.y - 3, width: box.width + 6, height: box.height + 6, rx: 8 }),
    cards.map((card, index) => {
      const latest = drawing.latest && drawing.latest.island === island.island && drawing.latest.side === seat && drawing.latest.index === index;
      return cardShape(
        card,
        cardBox(layout, box, position === 0, index),
        layout.compact,
        { "data-card": `${card.kind}-${card.value}`, "data-zone": "column", "data-seat": String(seat), ...latest ? { class: `col-card kind-${card.kind} latest` } : {} }
      );
    }),
    !layout.compact && cards.length ? s("text", { class: "column-sum", x: box.x + box.width + 6, y: position === 0 ? box.y + box.height - 8 : box.y + 20, "aria-hidden": "true" }, `Σ${sum}`) : null,
    drop
  );
}
function islandShape(box) {
  const { x, y, width: w, height: hgt } = box;
  return `M${x + w * 0.12},${y + hgt * 0.18} C${x + w * 0.3},${y - hgt * 0.04} ${x + w * 0.7},${y + hgt * 0.02} ${x + w * 0.9},${y + hgt * 0.16} C${x + w * 1.03},${y + hgt * 0.35} ${x + w * 0.99},${y + hgt * 0.8} ${x + w * 0.84},${y + hgt * 0.93} C${x + w * 0.6},${y + hgt * 1.04} ${x + w * 0.3},${y + hgt * 0.99} ${x + w * 0.12},${y + hgt * 0.9} C${x - w * 0.02},${y + hgt * 0.75} ${x - w * 0.01},${y + hgt * 0.35} ${x + w * 0.12},${y + hgt * 0.18} Z`;
}
function tableSvg(drawing) {
  const { layout } = drawing;
  const [upper, lower] = drawing.seats;
  return s(
    "svg",
    { class: `table${layout.compact ? " compact" : ""}`, viewBox: `0 0 ${layout.width} ${layout.height}`, role: "group", "aria-labelledby": drawing.captionId },
    s("rect", { class: "sea", width: layout.width, height: layout.height, rx: 14, "aria-hidden": "true" }),
    layout.compact ? s("text", { class: "side-label", x: 8, y: 20, "aria-hidden": "true" }, t("yu.rows", { upper: drawing.names[upper] ?? "", lower: drawing.names[lower] ?? "" })) : [
      s("text", { class: "side-label", x: 10, y: 18, "aria-hidden": "true" }, t("yu.side_label", { name: drawing.names[upper] ?? "" })),
      s("text", { class: "side-label", x: 10, y: 484, "aria-hidden": "true" }, t("yu.side_label", { name: drawing.names[lower] ?? "" }))
    ],
    drawing.islands.map((island) => {
      const place = layout.islands[island.island];
      if (!place) return null;
      return s(
        "g",
        { class: "island", "data-island-box": island.island, role: "group", "aria-label": island.name },
        s("path", { class: "island-shape", d: islandShape(place.shape), "aria-hidden": "true" }),
        s("text", { class: "island-name", x: place.name.x, y: place.name.y, "aria-hidden": "true" }, island.name),
        s(
          "g",
          { class: "tiles", role: "group", "aria-label": t("yu.tiles_of", { island: island.name }) },
          island.tiles.map((tile) => tileSlot(drawing, island, tile, place.slots[tile.slot] ?? place.slots[0]))
        ),
        column(drawing, island, 0),
        column(drawing, island, 1)
      );
    }),
    s(
      "g",
      { class: "set-aside", role: "group", "aria-label": drawing.setAside ? t("yu.set_aside_open") : tn("yu.set_aside_hidden", drawing.setAsideCount) },
      s(
        "text",
        { class: "side-label", x: layout.setAside.label.x, y: layout.setAside.label.y, "aria-hidden": "true" },
        drawing.setAside ? t("yu.set_aside_open") : tn("yu.set_aside_hidden", drawing.setAsideCount)
      ),
      drawing.setAside ? drawing.setAside.map((tile, i) => s(
        "g",
        {
          class: "tile up",
          transform: `translate(${layout.setAside.slots[i]?.x ?? 0} ${layout.setAside.slots[i]?.y ?? 0})`,
          "data-zone": "set-aside",
          "data-type": tile.type,
          "data-value": String(tile.value),
          role: "img",
          "aria-label": tileText(tile)
        },
        tileFace({ face_up: true, type: tile.type, value: tile.value }, 40)
      )) : Array.from({ length: drawing.setAsideCount }, (_, i) => s("g", {
        class: "tile down",
        transform: `translate(${layout.setAside.slots[i]?.x ?? 0} ${layout.setAside.slots[i]?.y ?? 0})`,
        "data-zone": "set-aside-hidden",
        "aria-hidden": "true"
      }, tileFace({ face_up: false, type: null, value: null }, 40)))
    )
  );
}

// src/boards/yutaka.ts
var HANDLES2 = /* @__PURE__ */ new Set(["play", "reveal", "end_turn"]);
var layouts2 = /* @__PURE__ */ new Map();
function layoutOf2(count, compact) {
  const key3 = `${count}:${compact}`;
  let layout = layouts2.get(key3);
  if (!layout) layouts2.set(key3, layout = layoutIslands(count, compact));
  return layout;
}
function picked(ctx, view) {
  const index = ctx.state.ui.yutakaCard;
  const card = index === void 0 ? void 0 : view.hand?.[index];
  return card && index !== void 0 ? { index, card } : null;
}
function latestPlay(events, view) {
  for (let i = events.length - 1; i >= 0; i--) {
    const event = events[i];
    if (event.seq > view.seq || event.type !== "card_played") continue;
    const data = event.data;
    const column2 = view.islands[data.island]?.cards[data.side] ?? [];
    return { island: data.island, side: data.side, index: column2.length - 1, seat: data.seat, card: data.card };
  }
  return null;
}
function turnText2(ctx, view) {
  if (view.status === "waiting") return t("match.waiting_players");
  if (view.status !== "active") return t("yu.turn.over");
  const actor = view.to_act[0];
  const mine = ctx.playing && actor === view.seat;
  const who = actor === void 0 ? "" : seatName(ctx, actor);
  switch (view.phase) {
    case "opening":
      return mine ? tn("yu.turn.you_open", view.opening_reveals_left) : tn("yu.turn.opens", view.opening_reveals_left, { name: who });
    case "play":
      return mine ? t("yu.turn.you_play") : t("yu.turn.plays", { name: who });
    case "confirm":
      return mine ? t("yu.turn.you_confirm") : t("yu.turn.confirms", { name: who });
    case "reveal":
      return mine ? t("yu.turn.you_reveal") : t("yu.turn.reveals", { name: who });
    default:
      return t("yu.turn.wait");
  }
}
function seats(ctx, view) {
  return h("ol", { class: "players", "aria-label": t("yu.players") }, view.hand_sizes.map((size, seat) => {
    const turn = view.status === "active" && view.to_act.includes(seat);
    return playerPanel(
      ctx,
      seat,
      view.seat,
      turn,
      h("span", { "data-hand-size": seat }, tn("yu.hand_cards", size)),
      h("span", {}, tn("yu.deck_cards", view.deck_sizes[seat] ?? 0))
    );
  }));
}
function hand2(ctx, view) {
  if (view.hand === null) return null;
  const plays = legal(ctx).filter((a) => a.type === "play");
  const chosen = picked(ctx, view);
  return h(
    "section",
    { class: "hand", "aria-labelledby": "hand-title" },
    h("h2", { id: "hand-title" }, t("yu.hand"), plays.length ? h("small", {}, ` — ${t("yu.hand_hint")}`) : null),
    h("div", { class: "cards" }, view.hand.map((c, index) => {
      const face = yuCard(c, "hand", { "data-index": String(index) });
      const common = { class: "card-button", "data-key": `pick:${index}`, "data-group": "hand", "data-fly": `hand:${c.kind}-${c.value}` };
      const text2 = yuCardText(c);
      if (!plays.some((a) => JSON.stringify(a.card) === JSON.stringify(c))) return button(face, () => void 0, { ...common, "aria-label": text2, "aria-disabled": "true" });
      const pressed = chosen?.index === index;
      return button(face, () => {
        if (pressed) delete ctx.state.ui.yutakaCard;
        else ctx.state.ui.yutakaCard = index;
        ctx.update();
        if (!pressed) document.querySelector('[data-group="target"]')?.focus();
      }, { ...common, "aria-pressed": pressed ? "true" : "false", "aria-label": t("yu.pick", { card: text2 }), "data-pick": String(index) });
    }))
  );
}
function yutakaBoard(ctx, view) {
  const layout = layoutOf2(view.islands.length, ctx.compact);
  const below = view.seat ?? 0;
  const above = 1 - below;
  const chosen = picked(ctx, view);
  const end = findLegal(ctx, { type: "end_turn" });
  const mode = view.options.mode ?? "mysteria";
  const latest = latestPlay(ctx.state.events, view);
  const islandName = (island) => view.islands[island]?.name ?? "";
  const table = tableSvg({
    layout,
    islands: view.islands,
    seats: [above, below],
    names: [0, 1].map((seat) => seatName(ctx, seat)),
    setAside: view.set_aside,
    setAsideCount: view.set_aside_count,
    latest,
    captionId: "table-caption",
    reveal(island, slot) {
      const action = findLegal(ctx, { type: "reveal", island, slot });
      if (!action) return null;
      const tile = view.islands[island]?.tiles.find((x) => x.slot === slot);
      const label = t("yu.reveal", { tile: tile ? tileText(tile) : "", island: islandName(island), slot: slot + 1 });
      return { attrs: { ...actionAttrs(ctx, action, label), "data-group": "tile" }, act: () => ctx.act(action) };
    },
    target(island) {
      if (!chosen) return null;
      const action = findLegal(ctx, { type: "play", card: chosen.card, island });
      if (!action) return null;
      const side = chosen.card.kind === "dynamite" ? above : below;
      const label = t("yu.play_on", { card: yuCardText(chosen.card), island: islandName(island) });
      return {
        side,
        label,
        attrs: { ...actionAttrs(ctx, action, label), "data-key": `target:${island}` },
        act: () => {
          delete ctx.state.ui.yutakaCard;
          ctx.act(action);
        },
        cancel: () => {
          delete ctx.state.ui.yutakaCard;
          ctx.update();
          document.querySelector(`[data-key="pick:${chosen.index}"]`)?.focus();
        }
      };
    }
  });
  const modeText = mode === "mixed" ? t("yu.mode_mixed_known", { types: (view.options.known_types ?? []).map(kindName).join(", ") || "—" }) : t(`yu.mode.${mode}`);
  return h(
    "div",
    { class: "board yu", "data-game": "yutaka", "data-seq": view.seq, "data-phase": view.phase },
    h("p", { class: "turn-banner", "data-mine": ctx.playing && view.to_act.includes(view.seat ?? -1) ? "yes" : "no" }, turnText2(ctx, view)),
    h(
      "figure",
      { class: "table-figure" },
      h("figcaption", { id: "table-caption" }, t("yu.caption", { mode: modeText }), " · ", tn("yu.face_down_left", view.face_down)),
      table
    ),
    end ? h(
      "div",
      { class: "decisions", role: "group", "aria-label": t("match.decisions") },
      button(t("match.end_turn"), () => ctx.act(end), { class: "primary", "data-group": "turn", ...actionAttrs(ctx, end, t("match.end_turn")) })
    ) : null,
    hand2(ctx, view),
    seats(ctx, view)
  );
}
function animateYutaka(board2, ctx, before, view, places) {
  const latest = latestPlay(ctx.state.events, view);
  view.islands.forEach((island) => {
    island.tiles.forEach((tile) => {
      const old = before.islands[island.island]?.tiles.find((x) => x.slot === tile.slot);
      if (tile.face_up && old && !old.face_up) {
        flip(board2.querySelector(`[data-island="${island.island}"][data-slot="${tile.slot}"] .tile-face`));
      }
    });
    island.cards.forEach((cards, seat) => {
      const had = before.islands[island.island]?.cards[seat]?.length ?? 0;
      if (cards.length <= had) return;
      const placed = board2.querySelectorAll(`[data-island-box="${island.island}"] [data-column="${seat}"] [data-card]`);
      const card = cards[cards.length - 1];
      const player = latest && latest.island === island.island ? latest.seat : seat;
      const fromHand = player === view.seat ? places.get(`hand:${card.kind}-${card.value}`) : void 0;
      flyFrom(placed[placed.length - 1] ?? null, fromHand ?? places.get(`seat:${player}`));
    });
  });
  if (view.set_aside && !before.set_aside) {
    board2.querySelectorAll('[data-zone="set-aside"] .tile-face').forEach((face, i) => flip(face, i * 120));
  }
}

// src/controls/actions.ts
function otherActions(ctx, handled2) {
  const rest = legal(ctx).filter((a) => !handled2.has(String(a.type)));
  if (rest.length === 0) return null;
  return h(
    "div",
    { class: "other-actions", role: "group", "aria-label": t("match.other_actions") },
    rest.map((a, i) => {
      const type = String(a.type);
      const label = t("match.other_action", { action: has(`action.${type}`) ? t(`action.${type}`) : type, n: i + 1 });
      return button(label, () => ctx.act(a), { "data-group": "turn", ...actionAttrs(ctx, a, label) });
    })
  );
}

// src/controls/chat.ts
var ROOMS = ["players", "spectators"];
var MAX_TEXT = 500;
var PAGE3 = 100;
var newChat = () => ({ messages: [], room: null, draft: "", sending: false, error: null, available: true, resetsAsked: 0, resetsDone: 0 });
var over = (ctx) => ctx.state.live?.status === "finished" || ctx.state.live?.status === "aborted";
function rooms(ctx) {
  const seated = ctx.state.seat !== null && ctx.state.token !== null;
  if (over(ctx)) return { read: [...ROOMS], write: seated ? [...ROOMS] : identity() ? ["spectators"] : [] };
  if (seated) return { read: ["players"], write: ["players"] };
  return { read: ["spectators"], write: identity() ? ["spectators"] : [] };
}
function credential(ctx) {
  const token = ctx.state.token ?? identity()?.key ?? null;
  return token ? { token } : {};
}
function receive(chat, messages) {
  const known = new Set(chat.messages.map((m) => m.chat_seq));
  const fresh = messages.filter((m) => !known.has(m.chat_seq));
  chat.messages = [...chat.messages, ...fresh].sort((a, b) => a.chat_seq - b.chat_seq);
  return fresh;
}
async function loadChat(ctx, chat, reset = false) {
  if (!chat.available) return;
  if (reset) chat.resetsAsked += 1;
  const asked = chat.resetsAsked;
  const fromStart = chat.resetsDone < asked;
  let after = fromStart ? 0 : chat.messages.at(-1)?.chat_seq ?? 0;
  try {
    for (; ; ) {
      const page = await api.getChat(ctx.state.matchId, { after, limit: PAGE3 }, credential(ctx));
      receive(chat, page.messages);
      if (page.next === null || page.messages.length === 0) break;
      after = page.next;
    }
    if (fromStart) chat.resetsDone = Math.max(chat.resetsDone, asked);
  } catch (error2) {
    if (error2 instanceof NotFound && ctx.state.summary) chat.available = false;
    else chat.error = describeError(error2);
  }
  ctx.update();
}
function author(ctx, m) {
  if (m.author.seat !== null && m.author.seat !== void 0) return m.author.name || seatName(ctx, m.author.seat);
  return m.author.name || t("chat.spectator");
}
function spoken(ctx, m) {
  return t("chat.said", { name: author(ctx, m), text: m.text });
}
async function send(ctx, chat, room) {
  const text2 = chat.draft.trim();
  if (!text2 || chat.sending) return;
  chat.sending = true;
  chat.error = null;
  ctx.update();
  try {
    receive(chat, [await api.postChat(ctx.state.matchId, { room, text: text2 }, credential(ctx))]);
    chat.draft = "";
  } catch (error2) {
    chat.error = describeError(error2);
  } finally {
    chat.sending = false;
    ctx.update();
  }
}
function chatPanel(ctx, chat) {
  if (!chat.available || !ctx.state.summary) return null;
  const { read, write } = rooms(ctx);
  const room = chat.room && read.includes(chat.room) ? chat.room : read[0];
  const shown = chat.messages.filter((m) => m.room === room);
  const switcher = read.length > 1 ? h(
    "div",
    { class: "chat-rooms", role: "group", "aria-label": t("chat.rooms") },
    read.map((r) => h("button", {
      type: "button",
      "aria-pressed": r === room ? "true" : "false",
      "data-key": `chat-room-${r}`,
      "data-room": r,
      onclick: () => {
        chat.room = r;
        ctx.update();
      }
    }, t(`chat.room.${r}`)))
  ) : null;
  let writer;
  if (write.includes(room)) {
    const input = h("input", { type: "text", id: "chat-text", maxlength: MAX_TEXT, value: chat.draft, autocomplete: "off", "data-key": "chat-text", "aria-label": t("chat.message_label", { room: t(`chat.room.${room}`) }) });
    input.addEventListener("input", () => chat.draft = input.value);
    writer = h(
      "form",
      { class: "inline chat-form", onsubmit: (event) => {
        event.preventDefault();
        void send(ctx, chat, room);
      } },
      input,
      h("button", { type: "submit", "data-key": "chat-send", "aria-disabled": chat.sending ? "true" : null }, t("chat.send"))
    );
  } else {
    writer = h("p", { class: "hint" }, room === "players" ? t("chat.players_only") : t("chat.need_player"), room === "spectators" ? [" ", h("a", { href: "#/play" }, t("nav.play"))] : null);
  }
  return h(
    "section",
    { class: "chat", "aria-labelledby": "chat-title", "data-room": room },
    h("h2", { id: "chat-title" }, t("chat.title"), " ", h("small", {}, t(`chat.room.${room}`))),
    switcher,
    shown.length ? h("ol", { class: "chat-log", "aria-label": t("chat.messages") }, shown.map((m) => h(
      "li",
      { "data-chat-seq": m.chat_seq },
      h("strong", {}, author(ctx, m)),
      " ",
      h("time", { datetime: m.at }, dateTime(m.at)),
      h("br", {}),
      m.text
    ))) : h("p", { class: "empty" }, t("chat.empty")),
    writer,
    chat.error ? h("p", { class: "message error", role: "alert" }, chat.error) : null
  );
}

// src/controls/clock.ts
function left(deadline) {
  const seconds = Math.max(0, Math.round((Date.parse(deadline) - Date.now()) / 1e3));
  const d = Math.floor(seconds / 86400);
  const hms = [Math.floor(seconds / 3600) % 24, Math.floor(seconds / 60) % 60, seconds % 60].map((n) => String(n).padStart(2, "0")).join(":");
  return d > 0 ? t("clock.days", { d, hms }) : hms;
}
var ticking = false;
function tick() {
  for (const element of document.querySelectorAll("[data-deadline]")) {
    element.textContent = left(element.dataset.deadline ?? "");
  }
}
function clockPanel(ctx) {
  const clock = ctx.view?.clock ?? [];
  if (clock.length === 0 || ctx.view?.status !== "active") return null;
  if (!ticking) {
    ticking = true;
    setInterval(tick, 1e3);
  }
  return h(
    "section",
    { class: "clock", "aria-labelledby": "clock-title" },
    h("h2", { id: "clock-title" }, t("clock.title")),
    h("ul", {}, clock.map((c) => h(
      "li",
      {},
      `${seatName(ctx, c.seat)}: `,
      h("time", { datetime: c.deadline, "data-deadline": c.deadline, title: t("clock.until", { when: dateTime(c.deadline) }) }, left(c.deadline)),
      c.bank_s !== null && c.bank_s !== void 0 ? ` ${t("clock.bank", { s: Math.round(c.bank_s) })}` : ""
    )))
  );
}

// src/controls/draft.ts
var HANDLES3 = /* @__PURE__ */ new Set(["undo", "finish_turn"]);
function draftControls(ctx) {
  const undo = findLegal(ctx, { type: "undo" });
  const finish = findLegal(ctx, { type: "finish_turn" });
  const draft = ctx.view?.draft;
  if (!undo && !finish && !draft) return null;
  return h(
    "div",
    { class: "draft", role: "group", "aria-label": t("draft.group") },
    draft ? h("span", {}, tn("draft.steps", draft.steps), " ") : null,
    undo ? button(t("draft.undo"), () => ctx.act(undo), { "data-group": "turn", ...actionAttrs(ctx, undo, t("draft.undo_label")) }) : null,
    finish ? button(t("draft.finish"), () => ctx.act(finish), { class: "primary", "data-group": "turn", ...actionAttrs(ctx, finish, t("draft.finish")) }) : null
  );
}

// src/canonical.ts
function compare(a, b) {
  const x = Array.from(a, (c) => c.codePointAt(0));
  const y = Array.from(b, (c) => c.codePointAt(0));
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i] - y[i];
  return x.length - y.length;
}
function canonicalJson(value) {
  if (value === null || typeof value !== "object") {
    if (typeof value === "number" && !Number.isFinite(value)) throw new RangeError("not a JSON number");
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  const record = value;
  const keys = Object.keys(record).filter((k) => record[k] !== void 0).sort(compare);
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(record[k])}`).join(",")}}`;
}

// src/sha256.ts
var K = new Uint32Array([
  1116352408,
  1899447441,
  3049323471,
  3921009573,
  961987163,
  1508970993,
  2453635748,
  2870763221,
  3624381080,
  310598401,
  607225278,
  1426881987,
  1925078388,
  2162078206,
  2614888103,
  3248222580,
  3835390401,
  4022224774,
  264347078,
  604807628,
  770255983,
  1249150122,
  1555081692,
  1996064986,
  2554220882,
  2821834349,
  2952996808,
  3210313671,
  3336571891,
  3584528711,
  113926993,
  338241895,
  666307205,
  773529912,
  1294757372,
  1396182291,
  1695183700,
  1986661051,
  2177026350,
  2456956037,
  2730485921,
  2820302411,
  3259730800,
  3345764771,
  3516065817,
  3600352804,
  4094571909,
  275423344,
  430227734,
  506948616,
  659060556,
  883997877,
  958139571,
  1322822218,
  1537002063,
  1747873779,
  1955562222,
  2024104815,
  2227730452,
  2361852424,
  2428436474,
  2756734187,
  3204031479,
  3329325298
]);
var rotr = (x, n) => x >>> n | x << 32 - n;
function sha256Plain(bytes) {
  const length = bytes.length;
  const padded = new Uint8Array(Math.ceil((length + 9) / 64) * 64);
  padded.set(bytes);
  padded[length] = 128;
  const view = new DataView(padded.buffer);
  view.setUint32(padded.length - 8, Math.floor(length / 536870912));
  view.setUint32(padded.length - 4, length * 8 >>> 0);
  const hash = new Uint32Array([1779033703, 3144134277, 1013904242, 2773480762, 1359893119, 2600822924, 528734635, 1541459225]);
  const w = new Uint32Array(64);
  for (let block = 0; block < padded.length; block += 64) {
    for (let i = 0; i < 16; i++) w[i] = view.getUint32(block + 4 * i);
    for (let i = 16; i < 64; i++) {
      const a2 = w[i - 15], b2 = w[i - 2];
      w[i] = w[i - 16] + (rotr(a2, 7) ^ rotr(a2, 18) ^ a2 >>> 3) + w[i - 7] + (rotr(b2, 17) ^ rotr(b2, 19) ^ b2 >>> 10) >>> 0;
    }
    let [a, b, c, d, e, f, g, hh] = hash;
    for (let i = 0; i < 64; i++) {
      const t1 = hh + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + (e & f ^ ~e & g) + K[i] + w[i] >>> 0;
      const t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + (a & b ^ a & c ^ b & c) >>> 0;
      [hh, g, f, e, d, c, b, a] = [g, f, e, d + t1 >>> 0, c, b, a, t1 + t2 >>> 0];
    }
    [a, b, c, d, e, f, g, hh].forEach((x, i) => hash[i] = hash[i] + x >>> 0);
  }
  return Array.from(hash, (x) => x.toString(16).padStart(8, "0")).join("");
}
async function sha256Hex(text2) {
  const bytes = new TextEncoder().encode(text2);
  if (globalThis.crypto?.subtle) {
    const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
    return { hex: Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join(""), via: "Web Crypto" };
  }
  return { hex: sha256Plain(bytes), via: "plain JavaScript" };
}

// src/controls/fairness.ts
async function checkFairness(reveal, published) {
  if (reveal.algorithm === "drago-fair-2") {
    const catalogue = (await api.getGame(reveal.game)).catalogue;
    const verdict = await verifyMatch(reveal, catalogue);
    const events = reveal.events.length;
    return { computed: reveal.commitment, published, revealed: reveal.commitment, via: "Web Crypto", events, secret: reveal.secret, verdict };
  }
  const deal2 = reveal.events[0]?.data;
  const { hex, via } = await sha256Hex(canonicalJson({ deal: deal2, secret: reveal.secret }));
  return { computed: hex, published, revealed: reveal.commitment, via, events: reveal.events.length, secret: reveal.secret };
}
async function run(ctx) {
  ctx.state.ui.fairness = "checking";
  ctx.update();
  try {
    const reveal = await api.revealMatch(ctx.state.matchId);
    ctx.state.ui.fairness = await checkFairness(reveal, ctx.state.summary?.commitment ?? "");
  } catch (error2) {
    ctx.state.ui.fairness = t("fair.unreadable", { error: describeError(error2) });
  }
  ctx.update();
}
function fairnessPanel(ctx) {
  const status = ctx.state.summary?.status;
  if (status !== "finished" && status !== "aborted") return null;
  const state = ctx.state.ui.fairness;
  if (state === void 0) queueMicrotask(() => void run(ctx));
  let body = t("fair.checking");
  if (typeof state === "string" && state !== "checking") body = state;
  if (typeof state === "object") {
    const verdict = state.verdict;
    const ok = state.computed === state.published && state.computed === state.revealed && (verdict?.ok ?? true);
    const said = verdict ? verdict.ok && ok ? t("fair.verified") : t("fair.differs", { field: verdict.field ?? t("fair.published") }) : ok ? t("fair.ok") : t("fair.bad");
    body = h(
      "div",
      { "data-fair": ok ? "yes" : "no", "data-algorithm": verdict ? "drago-fair-2" : "drago-fair-1" },
      h("p", { class: ok ? "ok" : "bad", role: "status" }, said),
      h(
        "dl",
        {},
        h("dt", {}, t("fair.published")),
        h("dd", {}, h("code", { "data-commitment": "published" }, state.published)),
        h("dt", {}, t("fair.computed", { via: t(state.via === "Web Crypto" ? "fair.via_webcrypto" : "fair.via_plain") })),
        h("dd", {}, h("code", { "data-commitment": "computed" }, state.computed)),
        h("dt", {}, t("fair.secret")),
        h("dd", {}, h("code", {}, state.secret)),
        h("dt", {}, t("fair.log")),
        h("dd", {}, t("fair.log_events", { n: state.events }))
      )
    );
  }
  return h(
    "section",
    { class: "fairness", "aria-labelledby": "fairness-title" },
    h("h2", { id: "fairness-title" }, t("fair.title")),
    body,
    typeof state === "string" && state !== "checking" ? button(t("fair.again"), () => void run(ctx)) : null
  );
}

// src/controls/host.ts
function hostPanel(ctx) {
  const summary = ctx.state.summary;
  const host = credentials(ctx.state.matchId).host;
  if (!summary || !host) return null;
  const over2 = summary.status === "finished" || summary.status === "aborted";
  const run2 = async (what, call, after) => {
    try {
      const result = await call();
      after?.(result);
      ctx.say(t("host.done", { what }));
      await ctx.refreshSummary();
    } catch (error2) {
      ctx.say(t("host.failed", { what, error: describeError(error2) }), true);
    }
  };
  const issued = ctx.state.ui.reissued ?? {};
  const invite = host.invite ? absoluteLink(matchHref(summary.id, { invite: host.invite })) : null;
  return h(
    "section",
    { class: "host", "aria-labelledby": "host-title" },
    h("h2", { id: "host-title" }, t("host.title")),
    invite ? h("p", {}, h("label", { for: "invite-link" }, t("host.invite")), h("input", { type: "text", id: "invite-link", readonly: true, value: invite, class: "copy" })) : null,
    summary.status === "waiting" ? button(t("host.abort"), () => void run2(t("host.abort"), () => api.abortMatch(summary.id, host.token)), { "data-key": "host-abort" }) : null,
    over2 ? null : h("ul", { class: "host-seats" }, summary.seats.filter((s2) => s2.taken && !s2.bot).map((s2) => {
      const n = s2.seat + 1;
      const name = s2.name ?? "";
      return h(
        "li",
        {},
        t("host.seat", { n, name }),
        " ",
        button(
          t("host.reissue"),
          () => void run2(
            t("host.reissue_what", { n }),
            () => api.reissueSeatToken(summary.id, s2.seat, host.token),
            (result) => {
              issued[String(s2.seat)] = result.token;
              ctx.state.ui.reissued = issued;
            }
          ),
          { "aria-label": t("host.reissue_label", { n }), "data-key": `host-reissue-${s2.seat}` }
        ),
        summary.status === "active" ? button(
          t("host.to_bot"),
          () => void run2(t("host.to_bot_what", { n }), () => api.handSeatToBot(summary.id, s2.seat, host.token)),
          { "aria-label": t("host.to_bot_label", { n }), "data-key": `host-bot-${s2.seat}` }
        ) : null,
        issued[String(s2.seat)] ? h("p", {}, h("label", { for: `new-link-${s2.seat}` }, t("host.new_link", { n })), h("input", {
          type: "text",
          readonly: true,
          class: "copy",
          id: `new-link-${s2.seat}`,
          value: absoluteLink(matchHref(summary.id, { seat: String(s2.seat), token: issued[String(s2.seat)] }))
        })) : null
      );
    }))
  );
}

// src/controls/replay.ts
function commits(ctx) {
  return [...new Set(ctx.state.events.map((e) => e.commit))].sort((a, b) => a - b);
}
var pending = 0;
async function show(ctx, at) {
  const ticket = ++pending;
  ctx.state.replay = { at, view: ctx.state.replay?.at === at ? ctx.state.replay.view : null };
  ctx.update();
  try {
    const view = await api.getView(ctx.state.matchId, { at }, ctx.state.token ? { token: ctx.state.token } : {});
    if (ticket === pending && ctx.state.replay?.at === at) {
      ctx.state.replay = { at, view };
      ctx.update();
    }
  } catch (error2) {
    ctx.say(t("replay.failed", { error: describeError(error2) }), true);
  }
}
function replayControl(ctx) {
  const seqs = commits(ctx);
  if (seqs.length < 2) return null;
  const replay = ctx.state.replay;
  const index = replay ? Math.max(0, seqs.indexOf(replay.at)) : seqs.length - 1;
  const slider = h("input", {
    type: "range",
    min: 0,
    max: seqs.length - 1,
    step: 1,
    value: index,
    id: "replay",
    "data-key": "replay",
    "aria-valuetext": t("replay.valuetext", { n: index + 1, of: seqs.length, seq: seqs[index] ?? 0 })
  });
  slider.addEventListener("input", () => void show(ctx, seqs[Number(slider.value)]));
  return h(
    "section",
    { class: "replay", "aria-labelledby": "replay-title" },
    h("h2", { id: "replay-title" }, t("replay.title")),
    h("label", { for: "replay" }, replay ? t("replay.at", { n: index + 1, of: seqs.length, seq: replay.at }) : t("replay.live", { of: seqs.length })),
    slider,
    replay ? button(t("replay.back"), () => {
      pending++;
      ctx.state.replay = null;
      ctx.update();
    }, { "data-key": "replay-live" }) : null
  );
}

// src/controls/resign.ts
function resignControl(ctx) {
  const { seat, token, summary, replay } = ctx.state;
  if (seat === null || !token || replay || summary?.status !== "active" || summary.seats[seat]?.resigned) return null;
  const confirming = ctx.state.ui.confirmResign === true;
  const resign = async () => {
    try {
      await api.resign(ctx.state.matchId, { token });
      ctx.say(t("resign.done"));
      await ctx.refreshSummary();
    } catch (error2) {
      ctx.say(describeError(error2), true);
    }
  };
  return h(
    "div",
    { class: "resign" },
    confirming ? [
      h("span", {}, t("resign.confirm"), " "),
      button(t("resign.yes"), () => {
        delete ctx.state.ui.confirmResign;
        void resign();
      }, { class: "danger", "data-key": "resign-yes" }),
      button(t("resign.no"), () => {
        delete ctx.state.ui.confirmResign;
        ctx.update();
      }, { "aria-label": t("resign.no_label"), "data-key": "resign-no" })
    ] : button(t("resign.resign"), () => {
      ctx.state.ui.confirmResign = true;
      ctx.update();
    }, { "data-key": "resign" })
  );
}

// src/controls/result.ts
function resultPanel(ctx) {
  const outcome = ctx.state.live?.outcome;
  if (!outcome) return null;
  const name = (seat) => seatName(ctx, seat);
  const reason = has(`result.reason.${outcome.reason}`) ? t(`result.reason.${outcome.reason}`) : outcome.reason;
  const islands = outcome.details.islands;
  const live = ctx.state.live;
  const islandName = (i) => (live?.game === "yutaka" ? live.islands[i]?.name : void 0) ?? String(i + 1);
  const seats2 = (outcome.scores ?? islands?.[0]?.points ?? []).map((_, seat) => seat);
  return h(
    "section",
    { class: "result", "aria-labelledby": "result-title", "data-outcome": outcome.reason },
    h("h2", { id: "result-title" }, t("result.title")),
    h("p", { class: "winners" }, outcome.winners.length ? t(outcome.winners.length === 1 ? "result.winner" : "result.winners", { names: list(outcome.winners.map(name)), reason }) : t("result.nobody", { reason })),
    outcome.scores ? h("ul", {}, outcome.scores.map((score, seat) => h("li", { "data-final-score": seat }, t("result.score", { name: name(seat), score })))) : null,
    islands ? h(
      "table",
      {},
      h("caption", {}, t("result.per_island")),
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("result.island")), seats2.map((seat) => h("th", { scope: "col" }, name(seat))))),
      h("tbody", {}, islands.map((i) => h("tr", {}, h("th", { scope: "row" }, islandName(i.island)), i.points.map((p) => h("td", {}, p)))))
    ) : null
  );
}

// src/controls/seats.ts
async function join(ctx, seat, input, status) {
  const name = input.value.trim();
  if (!name) {
    status.textContent = t("seats.name_first");
    input.focus();
    return;
  }
  const matchId = ctx.state.matchId;
  try {
    const invite = credentials(matchId).invite ?? null;
    const token = await api.joinSeat(matchId, seat, { name, invite });
    saveSeat(matchId, seat, { token: token.token, name });
    rememberName(name);
    location.hash = matchHref(matchId, { as: String(seat) });
  } catch (error2) {
    replaceChildren(status, t("seats.join_failed", { error: describeError(error2) }));
  }
}
var level = (code) => code && has(`bot.level.${code}`) ? t(`bot.level.${code}`) : t("bot.level.default");
function seatsPanel(ctx) {
  const summary = ctx.state.summary;
  if (!summary) return null;
  const toAct = new Set(ctx.view?.to_act ?? summary.to_act);
  const held = new Set(heldSeats(summary.id));
  const status = h("p", { role: "status", class: "message" });
  const rows = summary.seats.map((s2) => {
    const n = s2.seat + 1;
    let who = !s2.taken ? t("seats.free") : s2.bot ? t("seats.bot", { name: s2.name ?? "", level: level(s2.level) }) : s2.name ?? "";
    if (s2.resigned) who = t("seats.resigned", { who });
    let joinForm = null;
    if (!s2.taken && summary.status === "waiting") {
      const typed = ctx.state.ui[`joinName${s2.seat}`];
      const input = h("input", {
        type: "text",
        maxlength: 40,
        value: typeof typed === "string" ? typed : lastName(),
        id: `join-name-${s2.seat}`,
        "data-key": `join-name-${s2.seat}`,
        "aria-label": t("seats.your_name", { n }),
        autocomplete: "nickname"
      });
      input.addEventListener("input", () => ctx.state.ui[`joinName${s2.seat}`] = input.value);
      joinForm = h(
        "form",
        { class: "inline", onsubmit: (event) => {
          event.preventDefault();
          void join(ctx, s2.seat, input, status);
        } },
        input,
        h("button", { type: "submit", id: `join-${s2.seat}`, "data-key": `join-${s2.seat}` }, t("seats.join", { n }))
      );
    }
    return h(
      "li",
      { "data-seat": s2.seat, class: toAct.has(s2.seat) ? "on-turn" : "" },
      toAct.has(s2.seat) ? h("span", { class: "to-act" }, t("seats.to_act"), " ") : null,
      t("seats.row", { n, who }),
      held.has(s2.seat) ? ` ${t("seats.this_browser")}` : "",
      joinForm
    );
  });
  const views = [...held].map((seat) => ({ seat: String(seat), label: t("seats.view_seat", { n: seat + 1, name: seatName(ctx, seat) }) }));
  views.push({ seat: "spectator", label: t("seats.spectator") });
  const current3 = ctx.state.seat === null ? "spectator" : String(ctx.state.seat);
  return h(
    "section",
    { class: "seats", "aria-labelledby": "seats-title" },
    h("h2", { id: "seats-title" }, t("seats.title")),
    h("ul", {}, rows),
    status,
    h(
      "nav",
      { class: "view-as", "aria-label": t("seats.view_as_label") },
      t("seats.view_as"),
      " ",
      views.map((v, i) => [i ? " · " : "", v.seat === current3 ? h("strong", { "aria-current": "page" }, v.label) : h("a", { href: matchHref(summary.id, { as: v.seat }) }, v.label)])
    )
  );
}

// src/match/log.ts
var space = (index) => index === 0 ? t("md.start") : String(index);
var signed = (n) => n > 0 ? `+${n}` : n < 0 ? `−${-n}` : "±0";
var word = (prefix, code) => has(`${prefix}.${code}`) ? t(`${prefix}.${code}`) : String(code);
var scores = (values, who) => values.map((n, seat) => `${who(seat)} ${n}`).join(" · ");
function mountDrago(type, d, who) {
  const cards = (list2) => h("span", { class: "cards" }, list2.map((c) => mdCard(c, "log")));
  switch (type) {
    case "game_started":
      return tx("ev.md.game_started", { riders: cards(d.riders), name: who(d.first_player) });
    case "card_played":
      return tx("ev.md.card_played", { name: who(d.seat), card: mdCard(d.card, "log"), from: space(d.from_space), to: space(d.to_space) });
    case "rider_settled":
      return [t(`ev.md.rider_${d.result}`, { name: who(d.seat), dragon: dragonName(d.rider) })];
    case "scored":
      return [t(`ev.md.scored_${d.kind}`, {
        changes: d.changes.map((n, seat) => `${who(seat)} ${signed(n)}`).join(", ")
      })];
    case "cards_discarded":
      return tx("ev.md.discarded", { name: who(d.seat), cards: cards(d.cards) });
    case "cards_drawn":
      return d.cards ? tx("ev.md.drew", { name: who(d.seat), cards: cards(d.cards) }) : [tn("ev.md.drew_count", d.count, { name: who(d.seat) })];
    case "draw_pile_reshuffled":
      return [tn("ev.md.reshuffled", d.size ?? d.draw_pile?.length ?? 0)];
    case "turn_ended":
      return [t("ev.turn_ended", { name: who(d.seat), next: who(d.next_seat) })];
    case "turn_passed":
      return [t("ev.md.turn_passed", { name: who(d.seat), next: who(d.next_seat) })];
    case "game_ended":
      return [t("ev.game_ended", { scores: scores(d.scores, who) })];
    default:
      return null;
  }
}
function yutaka(type, d, who, islands) {
  const island = (i) => islands[i] ?? String(i + 1);
  switch (type) {
    case "game_started":
      return d.hand ? tx("ev.yu.game_started_hand", { name: who(d.first_player), cards: h("span", { class: "cards" }, d.hand.map((c) => yuCard(c, "log"))) }) : [t("ev.yu.game_started", { name: who(d.first_player) })];
    case "tile_revealed":
      return [t("ev.yu.revealed", { name: who(d.seat), tile: tileText({ face_up: true, ...d.tile }), island: island(d.island) })];
    case "card_played":
      return d.side === d.seat ? tx("ev.yu.played", { name: who(d.seat), card: yuCard(d.card, "log"), island: island(d.island) }) : tx("ev.yu.played_against", { name: who(d.seat), card: yuCard(d.card, "log"), island: island(d.island), other: who(d.side) });
    case "turn_confirmed":
      return [t("ev.yu.confirmed", { name: who(d.seat) })];
    case "card_drawn":
      return d.card ? tx("ev.yu.drew", { name: who(d.seat), card: yuCard(d.card, "log") }) : [t("ev.yu.drew_hidden", { name: who(d.seat) })];
    case "game_ended":
      return [t("ev.yu.game_ended", { scores: scores(d.totals, who), decided: word("result.decided", d.decided_by) })];
    default:
      return null;
  }
}
function lifecycle(type, d, who) {
  switch (type) {
    case "seat_joined":
      return [d.bot ? t("ev.seat_joined_bot", { name: d.name, n: d.seat + 1, level: word("bot.level", d.level ?? "default") }) : t("ev.seat_joined", { name: d.name, n: d.seat + 1 })];
    case "match_started":
      return [t("ev.match_started")];
    case "seat_resigned":
      return [t("ev.seat_resigned", { name: who(d.seat) })];
    case "turn_timed_out":
      return [t("ev.timed_out", { name: who(d.seat), policy: word("ev.policy", d.policy) })];
    case "seat_taken_over":
      return [t("ev.taken_over", { name: who(d.seat), reason: word("ev.takeover", d.reason) })];
    case "seat_token_reissued":
      return [t("ev.reissued", { name: who(d.seat) })];
    case "match_aborted":
      return [t("ev.aborted", { reason: word("ev.abort", d.reason) })];
    case "match_ended":
      return [t("ev.match_ended", { reason: word("result.reason", d.reason) })];
    case "ratings_changed":
      return [t("ev.ratings_changed", { changes: d.changes.map((c) => {
        const [before, after] = [c.before.rating, c.after.rating];
        return `${who(c.seat)} ${before.toFixed(1)} → ${after.toFixed(1)} (${signed(Math.round((after - before) * 10) / 10)})`;
      }).join(", ") })];
    case "draft_step":
      return [t("ev.draft_step", { action: word("action", d.action.type) })];
    case "draft_undone":
      return [t("ev.draft_undone")];
    case "draft_changed":
      return [t("ev.draft_changed", { name: who(d.seat) })];
    case "draft_published":
      return [tn("ev.draft_published", d.steps, { name: who(d.seat) })];
    default:
      return [type];
  }
}
function describe(ctx, event) {
  const game = ctx.state.summary?.game ?? ctx.view?.game ?? "";
  const who = (seat) => seatName(ctx, seat);
  const data = event.data;
  const islands = ctx.view?.game === "yutaka" ? (ctx.view.islands ?? []).map((i) => i.name) : [];
  const own = game === "mount_drago" ? mountDrago(event.type, data, who) : game === "yutaka" ? yutaka(event.type, data, who, islands) : null;
  return own ?? lifecycle(event.type, data, who);
}
function describeText(ctx, event) {
  return h("span", {}, describe(ctx, event)).textContent ?? "";
}
function eventLog(ctx) {
  const events = [...ctx.state.events].reverse();
  return h(
    "section",
    { class: "log-box", "aria-labelledby": "log-title" },
    h("h2", { id: "log-title" }, t("match.history")),
    h(
      "ol",
      { class: "log", reversed: true, tabindex: 0, "aria-label": t("match.history_list") },
      events.map((event) => h("li", { "data-seq": event.seq, value: event.seq }, describe(ctx, event)))
    )
  );
}

// src/match/page.ts
var SUMMARY_EVENTS = /* @__PURE__ */ new Set(["seat_joined", "match_started", "seat_resigned", "seat_taken_over", "match_ended", "match_aborted", "seat_token_reissued"]);
var NARROW = window.matchMedia("(max-width: 640px)");
var HOLD_MS = 1e3;
var ENVELOPE = /* @__PURE__ */ new Set(["match_id", "game", "seq", "status", "seat", "to_act", "legal_actions", "outcome", "clock", "draft"]);
function dealt(view) {
  return Object.keys(view).some((k) => !ENVELOPE.has(k));
}
function board(ctx, view) {
  if (!dealt(view)) {
    return h("div", { class: "board undealt", "data-game": view.game, "data-seq": view.seq, "data-undealt": "yes" }, h("p", {}, t("match.not_dealt")));
  }
  if (view.game === "mount_drago") return mountDragoBoard(ctx, view);
  if (view.game === "yutaka") return yutakaBoard(ctx, view);
  return h("p", {}, t("match.unknown_game", { game: view.game }));
}
function animate(element, ctx, before, view, places) {
  if (before.game !== view.game) return;
  if (view.game === "mount_drago") animateMountDrago(element, ctx, before, view, places);
  else if (view.game === "yutaka") animateYutaka(element, ctx, before, view, places);
}
function handled(game) {
  const own = game === "mount_drago" ? HANDLES : game === "yutaka" ? HANDLES2 : /* @__PURE__ */ new Set();
  return /* @__PURE__ */ new Set([...own, ...HANDLES3]);
}
function chooseSeat(matchId, params) {
  const held = heldSeats(matchId);
  const wanted = params.get("as");
  if (wanted === "spectator") return null;
  if (wanted !== null && held.includes(Number(wanted))) return Number(wanted);
  return held[0] ?? null;
}
function absorbLink(matchId, params) {
  const invite = params.get("invite");
  if (invite) saveInvite(matchId, invite);
  const seat = params.get("seat");
  const token = params.get("token");
  if (seat !== null && token) {
    saveSeat(matchId, Number(seat), { token, name: credentials(matchId).seats[seat]?.name ?? "" });
    history.replaceState(null, "", matchHref(matchId, { as: seat }));
    return true;
  }
  return false;
}
function matchPage(root2, matchId, params) {
  if (absorbLink(matchId, params)) params = new URLSearchParams({ as: params.get("seat") ?? "" });
  const seat = chooseSeat(matchId, params);
  const stop = new AbortController();
  const state = {
    matchId,
    summary: null,
    detail: null,
    seat,
    token: seat === null ? null : credentials(matchId).seats[String(seat)]?.token ?? null,
    live: null,
    events: [],
    replay: null,
    busy: false,
    message: null,
    connection: "connecting",
    ui: {}
  };
  const status = h("p", { class: "message", role: "status" });
  const announcer = h("p", { class: "visually-hidden", "aria-live": "polite" });
  const chat = newChat();
  let drawn = null;
  let logged = 0;
  const ctx = {
    state,
    get view() {
      return state.replay ? state.replay.view ?? drawn?.view ?? null : state.live;
    },
    get playing() {
      return !state.replay && state.seat !== null && state.live?.status === "active";
    },
    get names() {
      return (state.summary?.seats ?? []).map((s2) => s2.name ?? "");
    },
    get compact() {
      return NARROW.matches;
    },
    act: (action) => void act(action),
    update: () => render(),
    say(text2, error2 = false) {
      state.message = { text: text2, error: error2 };
      render();
    },
    refreshSummary: async () => {
      state.summary = await api.getMatch(matchId);
      render();
    }
  };
  let ahead = null;
  function setView(view) {
    if (view && (!ahead || view.seq >= ahead.seq)) ahead = view;
    if (!ahead || ahead.seq > (state.events.at(-1)?.seq ?? 0)) return;
    if (!state.live || ahead.seq >= state.live.seq) state.live = ahead;
    ahead = null;
  }
  function addEvents(events, reply = false) {
    const last = state.events.at(-1)?.seq ?? 0;
    const fresh = events.filter((e) => e.seq > last);
    if (reply && fresh[0] && fresh[0].seq !== last + 1) return [];
    state.events.push(...fresh);
    return fresh;
  }
  async function act(action) {
    if (!state.live || !state.token || state.busy) return;
    state.busy = true;
    render();
    try {
      const reply = await api.submitAction(matchId, { action, expected_seq: state.live.seq }, { token: state.token });
      addEvents(reply.events, true);
      setView(reply.view);
      state.message = null;
    } catch (error2) {
      state.message = { text: describeError(error2), error: true };
    } finally {
      state.busy = false;
      render();
    }
  }
  function boardFor(view) {
    const pick = state.ui.yutakaCard ?? null;
    const key3 = JSON.stringify([view, state.busy, pick, ctx.names, lang(), ctx.compact, state.replay !== null, state.events.at(-1)?.seq ?? 0]);
    if (drawn?.key === key3) return { element: drawn.element, before: null };
    const before = drawn && drawn.view.seq !== view.seq && dealt(drawn.view) && dealt(view) ? drawn.view : null;
    drawn = { key: key3, element: board(ctx, view), view };
    return { element: drawn.element, before };
  }
  function headline() {
    const live = state.live;
    const statusText2 = live ? t(`match.status.${live.status}`) : t("match.loading");
    const who = state.seat === null ? t("match.as_spectator") : t("match.as_seat", { name: seatName(ctx, state.seat), n: state.seat + 1 });
    return [statusText2, live ? t("match.commit_seq", { seq: live.seq }) : null, who, t(`match.connection.${state.connection}`)].filter(Boolean).join(" · ");
  }
  let pressing = null;
  let held = false;
  function press(event) {
    if (event.button !== 0 || !(event.target instanceof Element) || !event.target.closest(".chat")) return;
    if (pressing !== null) clearTimeout(pressing);
    pressing = setTimeout(release, HOLD_MS);
  }
  function release() {
    if (pressing === null) return;
    clearTimeout(pressing);
    pressing = null;
    if (held) setTimeout(() => {
      if (held) render();
    });
  }
  root2.addEventListener("pointerdown", press, { capture: true, signal: stop.signal });
  for (const type of ["pointerup", "pointercancel"]) window.addEventListener(type, release, { capture: true, signal: stop.signal });
  function render() {
    if (stop.signal.aborted) return;
    held = pressing !== null;
    if (held) return;
    const view = ctx.view;
    const summary = state.summary;
    const title = summary ? state.detail?.title ?? summary.game : t("match.title");
    const shown = view ? boardFor(view) : null;
    const places = shown?.before ? capture(root2) : /* @__PURE__ */ new Map();
    replaceChildren(
      root2,
      h(
        "main",
        { id: "main" },
        h(
          "div",
          { class: "match-head" },
          h("h1", {}, title, " ", h("small", {}, t("match.id", { id: matchId.slice(0, 8) }))),
          h("p", { "data-status": state.live?.status ?? "", "data-connection": state.connection }, headline())
        ),
        status,
        announcer,
        h(
          "div",
          { class: "match" },
          h(
            "section",
            { class: "main", "aria-label": t("match.board") },
            state.replay ? h(
              "p",
              { class: "replay-note", "data-loading": state.replay.view ? null : "yes" },
              t("match.replay_note", { seq: state.replay.at }),
              state.replay.view ? "" : ` ${t("match.replay_loading")}`
            ) : null,
            shown ? shown.element : h("p", {}, t("match.loading")),
            draftControls(ctx),
            view ? otherActions(ctx, handled(view.game)) : null
          ),
          h(
            "aside",
            { class: "side", "aria-label": t("match.side") },
            resultPanel(ctx),
            clockPanel(ctx),
            resignControl(ctx),
            seatsPanel(ctx),
            hostPanel(ctx),
            chatPanel(ctx, chat),
            replayControl(ctx),
            fairnessPanel(ctx),
            eventLog(ctx)
          )
        )
      )
    );
    status.textContent = state.message?.text ?? (state.busy ? t("match.sending") : "");
    status.className = state.message?.error ? "message error" : "message";
    if (shown?.before && view) animate(shown.element, ctx, shown.before, view, places);
    const newest = state.events.at(-1)?.seq ?? 0;
    if (logged && newest > logged) {
      for (const line of root2.querySelectorAll(".log li")) if (Number(line.dataset.seq) > logged) highlight(line);
    }
    logged = newest;
  }
  function announce(events) {
    const lines = events.filter((e) => e.data.seat !== state.seat || e.type === "match_ended").filter((e) => !e.type.startsWith("draft_") && e.type !== "cards_drawn" && e.type !== "card_drawn").map((e) => describeText(ctx, e));
    if (lines.length) announcer.textContent = lines.join(". ");
  }
  async function history2() {
    let after = 0;
    for (; ; ) {
      const page = await api.listEvents(matchId, { after }, state.token ? { token: state.token } : {});
      addEvents(page.events);
      after = page.events.at(-1)?.seq ?? after;
      if (page.events.length === 0 || after >= page.seq) return after;
    }
  }
  async function follow2() {
    const [summary, after] = await Promise.all([api.getMatch(matchId), history2()]);
    state.summary = summary;
    state.detail = await gameDetail(summary.game);
    render();
    const onChat = ({ message }) => {
      if (receive(chat, [message]).length && message.author.seat !== state.seat) announcer.textContent = spoken(ctx, message);
      render();
    };
    const options = { token: state.token, after, hellos: true, signal: stop.signal, onChat };
    for await (const frame2 of api.follow(matchId, options)) {
      if (frame2.type === "hello") {
        state.connection = "live";
        setView(frame2.view);
        void loadChat(ctx, chat);
      } else {
        const fresh = addEvents(frame2.events);
        setView(frame2.view);
        if (frame2.events.some((e) => SUMMARY_EVENTS.has(e.type))) state.summary = await api.getMatch(matchId);
        if (frame2.events.some((e) => e.type === "match_ended")) void loadChat(ctx, chat, true);
        announce(fresh);
      }
      render();
    }
    state.summary = await api.getMatch(matchId);
    if (!state.live || state.live.seq < state.summary.seq) setView(await api.getView(matchId, {}, state.token ? { token: state.token } : {}));
    state.connection = "closed";
    render();
    await loadChat(ctx, chat, true);
    if (chat.available) await chatAfterEnd(onChat);
  }
  async function chatAfterEnd(onChat) {
    const options = { token: state.token, after: state.live?.seq ?? null, views: false, untilEnd: false, hellos: true, signal: stop.signal, onChat };
    for await (const frame2 of api.follow(matchId, options)) if (frame2.type === "hello") void loadChat(ctx, chat);
  }
  const relayout = () => render();
  NARROW.addEventListener("change", relayout);
  render();
  follow2().catch((error2) => {
    if (stop.signal.aborted) return;
    state.connection = "closed";
    const refused = error2 instanceof Unauthorized || error2 instanceof StreamClosed && error2.code === 4401;
    if (refused && state.seat !== null) {
      forgetSeat(matchId, state.seat);
      state.message = { text: t("match.token_gone", { n: state.seat + 1 }), error: true };
    } else {
      state.message = { text: error2 instanceof ApiError ? describeError(error2) : t("match.connection_lost", { error: describeError(error2) }), error: true };
    }
    render();
  });
  return {
    dispose() {
      stop.abort();
      NARROW.removeEventListener("change", relayout);
    },
    relabel: render
  };
}

// src/main.ts
function notFound(root2) {
  replaceChildren(root2, h("main", { id: "main" }, h("h1", {}, t("nav.not_found")), h("p", {}, h("a", { href: "#/" }, t("nav.back_to_lobby")))));
  return {};
}
var PAGES = {
  "": (root2) => lobbyPage(root2),
  match: (root2, route) => route.args[0] ? matchPage(root2, route.args[0], route.params) : notFound(root2),
  play: (root2, route) => quickPlayPage(root2, route),
  me: (root2) => myMatchesPage(root2),
  player: (root2, route) => route.args[0] ? profilePage(root2, route.args[0]) : notFound(root2),
  leaderboard: (root2, route) => leaderboardPage(root2, route)
};
var NAV = [
  { href: "#/", page: "", label: "nav.lobby" },
  { href: "#/play", page: "play", label: "nav.play" },
  { href: "#/me", page: "me", label: "nav.mine" },
  { href: "#/leaderboard", page: "leaderboard", label: "nav.leaderboards" }
];
var LANG_NAMES = { en: "English", de: "Deutsch" };
var root = document.getElementById("app");
var current2 = {};
function frame() {
  const route = parseRoute();
  const select = h(
    "select",
    { id: "lang", "data-key": "lang" },
    LANGS.map((code) => h("option", { value: code, lang: code, selected: code === lang() }, LANG_NAMES[code]))
  );
  select.addEventListener("change", () => setLang(select.value));
  replaceChildren(
    document.getElementById("top"),
    h("a", { href: "#/", class: "brand" }, "Mount Drago · Yutakâ"),
    h("nav", { "aria-label": t("nav.main") }, h("ul", {}, NAV.map((item2) => h("li", {}, h("a", { href: item2.href, "aria-current": route.page === item2.page ? "page" : null }, t(item2.label)))))),
    h("div", { class: "lang" }, h("label", { for: "lang" }, t("nav.language")), select)
  );
  const foot = document.getElementById("foot");
  replaceChildren(foot, h("a", { href: "/docs" }, t("nav.api_docs")), " · ", h("a", { href: "/redoc" }, t("nav.api_reference")));
  const skip = document.getElementById("skip");
  skip.textContent = t("nav.skip");
}
function show2() {
  current2.dispose?.();
  const route = parseRoute();
  frame();
  current2 = (PAGES[route.page] ?? notFound)(root, route);
  window.scrollTo(0, 0);
}
document.getElementById("skip").addEventListener("click", (event) => {
  event.preventDefault();
  const main = document.querySelector("main");
  if (!main) return;
  main.setAttribute("tabindex", "-1");
  main.addEventListener("blur", () => main.removeAttribute("tabindex"), { once: true });
  main.focus();
});
window.addEventListener("langchange", () => {
  frame();
  if (current2.relabel) current2.relabel();
  else show2();
});
window.addEventListener("hashchange", show2);
show2();
