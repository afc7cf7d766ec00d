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
var MatchNotFinished = class extends Conflict {
  static code = "match_not_finished";
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
    MatchNotFinished,
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
var sleep = (seconds, signal) => new Promise((resolve2, reject) => {
  if (signal?.aborted) return reject(signal.reason);
  const timer = setTimeout(resolve2, seconds * 1e3);
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
    const key2 = options.idempotencyKey ?? (spec.keyed ? newKey() : void 0);
    if (key2 !== void 0) headers["Idempotency-Key"] = key2;
    let body;
    if (spec.body !== void 0) {
      headers["Content-Type"] = "application/json";
      body = JSON.stringify(spec.body);
    }
    const url = new URL(this.baseUrl + spec.path);
    for (const [name, value] of Object.entries(spec.query ?? {})) {
      if (value !== void 0 && value !== null) url.searchParams.set(name, String(value));
    }
    const safe = spec.method === "GET" || key2 !== void 0;
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
  const text = await response.text();
  let body = text.slice(0, 500);
  try {
    body = JSON.parse(text);
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
  /** A game: player counts, payload schemas, drawing data. */
  getGame(game, options = {}) {
    return this.call({ method: "GET", path: `/v1/games/${enc(game)}` }, options);
  }
  /** A match's public summary. */
  getMatch(matchId, options = {}) {
    return this.call({ method: "GET", path: `/v1/matches/${enc(matchId)}` }, options);
  }
  /** The player of the key. */
  getMe(options = {}) {
    return this.call({ method: "GET", path: `/v1/players/me`, auth: "token" }, options);
  }
  /** Prometheus metrics. */
  getMetrics(options = {}) {
    return this.call({ method: "GET", path: `/metrics`, text: true }, options);
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
   * unlisted match needs its `invite` code.
   */
  joinSeat(matchId, seat, body, options = {}) {
    return this.call({ method: "POST", path: `/v1/matches/${enc(matchId)}/seats/${enc(seat)}`, body, auth: "explicit" }, options);
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
  /**
   * The player's matches, newest activity first.
   *
   * `to_act=me`: only matches where the player must act now.
   */
  myMatches(query = {}, options = {}) {
    return this.call({ method: "GET", path: `/v1/players/me/matches`, query, auth: "token" }, options);
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
  send(text) {
    if (!this.closed) this.ws.send(text);
  }
  async next() {
    while (this.items.length === 0) await new Promise((resolve2) => this.wake = resolve2);
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
  push(item) {
    this.items.push(item);
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
function streamUrl(base, path, query) {
  const url = new URL(base.replace(/^http/, "ws") + path);
  for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
  return url.toString();
}
function constructor(transport) {
  if (!transport.WebSocket) throw new TypeError("no WebSocket here: pass one as the client's `WebSocket` option");
  return transport.WebSocket;
}
function refusalOf(frame) {
  return apiError(frame, BY_CODE[String(frame.error?.code)]?.status ?? 400);
}
function abortable(connection, signal) {
  const stop = () => connection.end(1e3, "aborted");
  signal?.addEventListener("abort", stop, { once: true });
  return () => signal?.removeEventListener("abort", stop);
}
async function* follow(transport, matchId, options = {}) {
  const { views = true, hellos = false, untilEnd = true, signal } = options;
  const WS = constructor(transport);
  const credential = options.token ?? transport.token;
  const link = new Link(transport, options.retry, signal);
  let last = options.after ?? null;
  for (; ; ) {
    const query = { views: views ? "1" : "0" };
    if (last !== null) query.after = String(last);
    if (!credential) query.spectate = "1";
    const path = `/v1/matches/${encodeURIComponent(matchId)}/stream`;
    const auth = credential ? JSON.stringify({ type: "auth", token: credential }) : null;
    const connection = new Connection(WS, streamUrl(transport.baseUrl, path, query), auth);
    const release = abortable(connection, signal);
    let refusal = null;
    let close;
    try {
      for (; ; ) {
        const item = await connection.next();
        if ("close" in item) {
          close = { code: item.close, reason: item.reason };
          break;
        }
        const frame = item.frame;
        if (frame.type === "ping") connection.send('{"type":"pong"}');
        else if (frame.type === "error" && frame.id == null) refusal = refusalOf(frame);
        else if (frame.type === "hello") {
          const hello = frame;
          link.failures = 0;
          connection.heartbeat(hello.heartbeat);
          last ??= hello.after;
          if (hellos) yield hello;
          if (untilEnd && OVER.has(hello.view.status) && hello.seq <= last) return;
        } else if (frame.type === "commit" && last !== null) {
          const commit = frame;
          if (commit.seq <= last) continue;
          if ((commit.events[0]?.seq ?? commit.seq) !== last + 1) {
            connection.end(1006, `gap after seq ${last}`);
            continue;
          }
          yield commit;
          last = commit.seq;
          if (untilEnd && commit.events.some((e) => e.type === "match_ended")) return;
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
  const key2 = options.key ?? transport.token;
  if (!key2) throw new TypeError("followPlayer needs a player key");
  const link = new Link(transport, options.retry, signal);
  let last = options.after ?? null;
  for (; ; ) {
    const query = last === null ? {} : { after: String(last) };
    const url = streamUrl(transport.baseUrl, "/v1/players/me/stream", query);
    const connection = new Connection(WS, url, JSON.stringify({ type: "auth", token: key2 }));
    const release = abortable(connection, signal);
    let refusal = null;
    let close;
    try {
      for (; ; ) {
        const item = await connection.next();
        if ("close" in item) {
          close = { code: item.close, reason: item.reason };
          break;
        }
        const frame = item.frame;
        if (frame.type === "ping") connection.send('{"type":"pong"}');
        else if (frame.type === "error" && frame.id == null) refusal = refusalOf(frame);
        else if (frame.type === "hello") {
          const hello = frame;
          link.failures = 0;
          connection.heartbeat(hello.heartbeat);
          last ??= hello.after;
          if (hellos) yield hello;
        } else if (frame.type === "notice" && last !== null) {
          const notice = frame;
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

// src/api.ts
var api = new DragoClient(location.origin, { retry: { attempts: 3 } });
function describeError(error2) {
  if (error2 instanceof ApiError) return `${error2.message} (${error2.code})`;
  if (error2 instanceof Error) return error2.message;
  return String(error2);
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
function h(tag, props = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(props)) {
    if (value === null || value === void 0 || value === false) continue;
    if (typeof value === "function") element.addEventListener(name.replace(/^on/, ""), value);
    else if (name === "value" && "value" in element) element.value = String(value);
    else if (name === "checked" && element instanceof HTMLInputElement) element.checked = Boolean(value);
    else element.setAttribute(name, value === true ? "" : String(value));
  }
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
var focusedKey;
document.addEventListener("focusin", (event) => {
  focusedKey = event.target instanceof HTMLElement ? event.target.dataset.key : void 0;
});
function replaceChildren(parent, ...children) {
  const active = document.activeElement;
  const inside = active instanceof HTMLElement && parent.contains(active);
  const key2 = inside ? active.dataset.key : active === document.body || active === null ? focusedKey : void 0;
  parent.replaceChildren();
  append(parent, children);
  if (key2) parent.querySelector(`[data-key="${CSS.escape(key2)}"]`)?.focus();
}
function field(text, control2, hint) {
  return h("label", { class: "field" }, h("span", {}, text), control2, hint ? h("small", {}, hint) : null);
}
var plural = (n, one, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

// src/route.ts
function parseRoute(hash = location.hash) {
  const [path = "", query = ""] = hash.replace(/^#/, "").split("?", 2);
  const parts = path.split("/").filter(Boolean);
  if (parts[0] === "match" && parts[1]) return { page: "match", matchId: decodeURIComponent(parts[1]), params: new URLSearchParams(query) };
  return { page: "lobby" };
}
function matchHref(matchId, params = {}) {
  const query = new URLSearchParams(params).toString();
  return `#/match/${encodeURIComponent(matchId)}${query ? `?${query}` : ""}`;
}
function absoluteLink(fragment) {
  return `${location.origin}${location.pathname}${fragment}`;
}

// src/schemaform.ts
var NONE = "\0null";
function resolve(root2, schema) {
  const ref = schema.$ref;
  if (!ref?.startsWith("#/$defs/")) return schema;
  const target = (root2.$defs ?? {})[ref.slice("#/$defs/".length)] ?? {};
  const { $ref: _ignored, ...rest } = schema;
  return { ...resolve(root2, target), ...rest };
}
var humanize = (name) => name.replaceAll("_", " ");
var same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
function choices(root2, schema) {
  if (Array.isArray(schema.enum)) return schema.enum;
  if (!Array.isArray(schema.oneOf)) return null;
  const values = [];
  for (const option of schema.oneOf.map((s) => resolve(root2, s))) {
    if (option.type === "null") values.push(null);
    else if ("const" in option) values.push(option.const);
    else if (Array.isArray(option.enum)) values.push(...option.enum);
    else if (option.type === "integer" && Number.isInteger(option.minimum) && Number.isInteger(option.maximum) && option.maximum - option.minimum <= 20) {
      for (let n = option.minimum; n <= option.maximum; n++) values.push(n);
    } else return null;
  }
  return values;
}
function enumSet(root2, schema) {
  const alternatives = Array.isArray(schema.oneOf) ? schema.oneOf.map((s) => resolve(root2, s)) : [schema];
  const array = alternatives.find((s) => s.type === "array");
  const items = array ? resolve(root2, array.items ?? {}) : null;
  if (!items || !Array.isArray(items.enum) || alternatives.some((s) => s !== array && s.type !== "null")) return null;
  return { values: items.enum, nullable: alternatives.some((s) => s.type === "null") };
}
function control(root2, name, schema, id) {
  const fallback = schema.default;
  if (schema.type === "boolean") {
    const input = h("input", { type: "checkbox", id, name, checked: fallback === true, "data-key": id });
    return { element: input, read: () => input.checked };
  }
  const options = choices(root2, schema);
  if (options) {
    const select = h(
      "select",
      { id, name, "data-key": id },
      options.map(
        (option) => h(
          "option",
          { value: option === null ? NONE : JSON.stringify(option), selected: same(option, fallback) },
          option === null ? "default (none)" : String(option)
        )
      )
    );
    return { element: select, read: () => select.value === NONE ? null : JSON.parse(select.value) };
  }
  const set = enumSet(root2, schema);
  if (set) {
    const boxes = set.values.map((value) => h("input", { type: "checkbox", value, name: `${name}-${value}`, checked: Array.isArray(fallback) && fallback.includes(value) }));
    const element = h("fieldset", { class: "checks", id }, h("legend", {}, humanize(name)), boxes.map((box) => h("label", {}, box, " ", box.value)));
    return {
      element,
      read: () => {
        const chosen = boxes.filter((box) => box.checked).map((box) => box.value);
        return chosen.length === 0 && set.nullable ? null : chosen;
      }
    };
  }
  if (schema.type === "integer") {
    const input = h("input", { type: "number", id, name, step: 1, min: schema.minimum, max: schema.maximum, value: fallback ?? "", "data-key": id });
    return { element: input, read: () => input.value === "" ? void 0 : Number(input.value) };
  }
  const area = h("textarea", { id, name, rows: 2, placeholder: fallback === void 0 ? "JSON" : JSON.stringify(fallback), "data-key": id });
  return {
    element: area,
    read: () => {
      if (area.value.trim() === "") return void 0;
      try {
        return JSON.parse(area.value);
      } catch {
        throw new Error(`option ${humanize(name)}: not valid JSON`);
      }
    }
  };
}
function optionsForm(root2, prefix) {
  const properties = Object.entries(root2.properties ?? {});
  const controls = properties.map(([name, raw]) => {
    const schema = resolve(root2, raw);
    const made = control(root2, name, schema, `${prefix}-${name}`);
    return { name, schema, made };
  });
  const element = h(
    "fieldset",
    { class: "options" },
    h("legend", {}, root2.title ?? "Options"),
    controls.map(
      ({ name, schema, made }) => made.element instanceof HTMLFieldSetElement ? made.element : field(humanize(name), made.element, schema.description)
    )
  );
  return {
    element,
    value() {
      const options = {};
      for (const { name, schema, made } of controls) {
        const value = made.read();
        if (value !== void 0 && !same(value, schema.default)) options[name] = value;
      }
      return options;
    }
  };
}

// src/session.ts
var key = (matchId) => `drago:match:${matchId}`;
function credentials(matchId) {
  try {
    const raw = localStorage.getItem(key(matchId));
    const parsed = raw ? JSON.parse(raw) : {};
    return { seats: parsed.seats ?? {}, ...parsed.host ? { host: parsed.host } : {}, invite: parsed.invite ?? null };
  } catch {
    return { seats: {} };
  }
}
function save(matchId, value) {
  localStorage.setItem(key(matchId), JSON.stringify(value));
}
function saveSeat(matchId, seat, credential) {
  const current = credentials(matchId);
  current.seats[String(seat)] = credential;
  save(matchId, current);
}
function forgetSeat(matchId, seat) {
  const current = credentials(matchId);
  delete current.seats[String(seat)];
  save(matchId, current);
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

// src/create.ts
var LEVELS = ["random", "greedy", "ismcts"];
function clockFields() {
  const kind = h(
    "select",
    { id: "create-clock", "data-key": "create-clock" },
    h("option", { value: "" }, "no clock"),
    h("option", { value: "decision" }, "per decision"),
    h("option", { value: "bank" }, "bank with increment")
  );
  const seconds = h("input", { type: "number", id: "create-clock-s", min: 1, step: 1, value: 86400, "data-key": "create-clock-s" });
  const increment = h("input", { type: "number", id: "create-clock-inc", min: 0, step: 1, value: 30, "data-key": "create-clock-inc" });
  const incrementField = field("Increment per commit (s)", increment);
  const sync = () => {
    seconds.disabled = kind.value === "";
    incrementField.hidden = kind.value !== "bank";
  };
  kind.addEventListener("change", sync);
  sync();
  return {
    element: h("div", { class: "row" }, field("Clock", kind), field("Seconds (per decision, or the bank)", seconds), incrementField),
    value() {
      if (kind.value === "decision") return { per_decision_s: Number(seconds.value) };
      if (kind.value === "bank") return { initial_s: Number(seconds.value), increment_s: Number(increment.value) };
      return null;
    }
  };
}
function createForm(root2, games2) {
  const gameSelect = h("select", { id: "create-game", "data-key": "create-game" }, games2.map((g) => h("option", { value: g.name }, g.title)));
  const players2 = h("input", { type: "number", id: "create-players", step: 1, "data-key": "create-players" });
  const botsSlot = h("fieldset", { class: "bots" });
  const optionsSlot = h("div");
  const clock = clockFields();
  const onTimeout = h("select", { id: "create-timeout" }, h("option", { value: "bot" }, "a bot decides"), h("option", { value: "forfeit" }, "the seat forfeits"));
  const visibility = h("select", { id: "create-visibility" }, h("option", { value: "public" }, "public (in the lobby)"), h("option", { value: "unlisted" }, "unlisted (invite link)"));
  const drafts = h("input", { type: "checkbox", id: "create-drafts" });
  const message = h("p", { role: "status", class: "message" });
  let options = null;
  let botLevels = [];
  const game = () => games2.find((g) => g.name === gameSelect.value) ?? games2[0];
  function renderBots() {
    const count = Number(players2.value);
    if (count === botLevels.length) return;
    botLevels = Array.from({ length: count }, (_, seat) => {
      const select = h(
        "select",
        { id: `create-seat-${seat}`, "data-key": `create-seat-${seat}` },
        h("option", { value: "" }, "a person"),
        LEVELS.map((level) => h("option", { value: level }, `bot (${level})`))
      );
      select.value = botLevels[seat]?.value ?? "";
      return select;
    });
    replaceChildren(botsSlot, h("legend", {}, "Seats"), botLevels.map((select, seat) => field(`Seat ${seat}`, select)));
  }
  async function selectGame() {
    const chosen = game();
    players2.min = String(chosen.min_players);
    players2.max = String(chosen.max_players);
    players2.value = String(chosen.min_players);
    players2.disabled = chosen.min_players === chosen.max_players;
    renderBots();
    replaceChildren(optionsSlot, h("p", {}, "Loading the options…"));
    try {
      const detail = await gameDetail(chosen.name);
      options = optionsForm(detail.schemas.options ?? detail.options_schema, `option-${chosen.name}`);
      replaceChildren(optionsSlot, options.element);
    } catch (error2) {
      replaceChildren(optionsSlot, h("p", { role: "alert" }, describeError(error2)));
    }
  }
  async function submit(event) {
    event.preventDefault();
    message.textContent = "Creating…";
    try {
      const bots = botLevels.flatMap(
        (select, seat) => select.value ? [{ seat, level: select.value }] : []
      );
      const body = {
        game: game().name,
        players: Number(players2.value),
        options: options?.value() ?? {},
        bots,
        clock: clock.value(),
        on_timeout: onTimeout.value,
        visibility: visibility.value,
        drafts: drafts.checked
      };
      const created = await api.createMatch(body);
      saveHost(created.id, created.host_token, created.invite);
      location.hash = matchHref(created.id, created.invite ? { invite: created.invite } : {});
    } catch (error2) {
      message.textContent = `Not created: ${describeError(error2)}`;
    }
  }
  gameSelect.addEventListener("change", () => void selectGame());
  players2.addEventListener("change", renderBots);
  replaceChildren(
    root2,
    h(
      "form",
      { class: "create", onsubmit: (event) => void submit(event) },
      h("div", { class: "row" }, field("Game", gameSelect), field("Players", players2)),
      botsSlot,
      optionsSlot,
      h(
        "fieldset",
        {},
        h("legend", {}, "Match settings"),
        clock.element,
        h("div", { class: "row" }, field("When time runs out", onTimeout), field("Visibility", visibility)),
        h("label", { class: "field check" }, drafts, h("span", {}, "turn drafts (undo, finish turn)"))
      ),
      h("button", { type: "submit", class: "primary" }, "Create match"),
      message
    )
  );
  void selectGame();
}

// src/lobby.ts
var PAGE = 20;
function seatsText(match2) {
  return match2.seats.map((s) => s.taken ? `${s.name ?? "?"}${s.bot ? " (bot)" : ""}` : "free").join(", ");
}
function row(match2, titles) {
  const free = match2.status === "waiting" && match2.seats.some((s) => !s.taken);
  const title = titles.get(match2.game) ?? match2.game;
  return h(
    "tr",
    { "data-match": match2.id },
    h("td", {}, title),
    h("td", {}, match2.players),
    h("td", {}, match2.status),
    h("td", {}, seatsText(match2)),
    h("td", {}, new Date(match2.created_at).toLocaleString()),
    h(
      "td",
      { class: "links" },
      free ? h("a", { href: matchHref(match2.id), "aria-label": `Join ${title} match ${match2.id.slice(0, 6)}` }, "Join") : null,
      h("a", { href: matchHref(match2.id, { as: "spectator" }), "aria-label": `Watch ${title} match ${match2.id.slice(0, 6)}` }, "Watch")
    )
  );
}
function openTarget(text) {
  const value = text.trim();
  if (/^[0-9a-f]{32}$/i.test(value)) return matchHref(value);
  const hash = value.includes("#") ? value.slice(value.indexOf("#")) : "";
  return parseRoute(hash).page === "match" ? hash : null;
}
function lobbyPage(root2) {
  const list = h("div", { "aria-live": "polite" });
  const more = h("div");
  const gameFilter = h("select", { id: "filter-game", "data-key": "filter-game" }, h("option", { value: "" }, "any game"));
  const statusFilter = h(
    "select",
    { id: "filter-status", "data-key": "filter-status" },
    ["", "waiting", "active", "finished", "aborted"].map((s) => h("option", { value: s }, s || "any status"))
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
        limit: PAGE,
        offset
      });
      shown = offset === 0 ? page.items : [...shown, ...page.items];
      replaceChildren(
        list,
        shown.length === 0 ? h("p", {}, "No match here yet: create one below.") : h(
          "table",
          { class: "matches" },
          h("caption", {}, `Matches (${page.total})`),
          h("thead", {}, h("tr", {}, ["Game", "Players", "Status", "Seats", "Created", ""].map((t) => h("th", { scope: "col" }, t)))),
          h("tbody", {}, shown.map((m) => row(m, titles)))
        )
      );
      replaceChildren(more, shown.length < page.total ? button("More matches", () => void load(shown.length)) : null);
    } catch (error2) {
      replaceChildren(list, h("p", { role: "alert" }, `The lobby could not be loaded: ${describeError(error2)}`));
    }
  }
  for (const control2 of [gameFilter, statusFilter, openFilter]) control2.addEventListener("change", () => void load(0));
  const target = h("input", { id: "open-match", type: "text", placeholder: "match id or invite link", "data-key": "open-match" });
  const openMessage = h("span", { role: "status" });
  const openForm = h(
    "form",
    {
      class: "inline",
      onsubmit: (event) => {
        event.preventDefault();
        const href = openTarget(target.value);
        if (href) location.hash = href;
        else openMessage.textContent = "That is neither a match id nor a match link.";
      }
    },
    field("Open a match", target),
    h("button", { type: "submit" }, "Open"),
    openMessage
  );
  const createSlot = h("div");
  replaceChildren(
    root2,
    h("h1", {}, "Mount Drago & Yutakâ"),
    h(
      "section",
      { "aria-labelledby": "lobby-title" },
      h("h2", { id: "lobby-title" }, "Lobby"),
      h(
        "div",
        { class: "filters", role: "group", "aria-label": "Filter matches" },
        field("Game", gameFilter),
        field("Status", statusFilter),
        h("label", { class: "field check" }, openFilter, h("span", {}, "free seats only")),
        button("Refresh", () => void load(0))
      ),
      list,
      more,
      openForm
    ),
    h("section", { "aria-labelledby": "create-title" }, h("h2", { id: "create-title" }, "Create a match"), createSlot)
  );
  void api.listGames().then(
    (games2) => {
      for (const game of games2.items) {
        titles.set(game.name, game.title);
        gameFilter.append(h("option", { value: game.name }, game.title));
      }
      createForm(createSlot, games2.items);
      void load(0);
    },
    (error2) => replaceChildren(list, h("p", { role: "alert" }, `The server did not answer: ${describeError(error2)}`))
  );
}

// src/match/context.ts
function legal(ctx) {
  return ctx.playing && ctx.view ? ctx.view.legal_actions : [];
}
var same2 = (a, b) => JSON.stringify(a) === JSON.stringify(b);
function findLegal(ctx, action) {
  return legal(ctx).find((candidate) => same2(canonical(candidate), canonical(action)));
}
function canonical(value) {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.keys(value).sort().map((k) => [k, canonical(value[k])]));
  }
  return value;
}
function actionAttrs(ctx, action, label) {
  return { "data-legal": JSON.stringify(action), "aria-label": label, "data-key": `act:${JSON.stringify(canonical(action))}`, disabled: ctx.state.busy };
}

// src/boards/mountdrago.ts
var HANDLES = /* @__PURE__ */ new Set(["play", "discard", "choose_rider", "end_turn"]);
var dragonName = (dragon) => dragon.replace("_", " ");
var SHORT = {
  blue: "Bu",
  brown: "Br",
  black: "Bk",
  red: "Re",
  yellow: "Ye",
  green: "Gn",
  gray: "Gy",
  light_blue: "LB",
  purple: "Pu",
  orange: "Or"
};
var cardText = (card3) => `${dragonName(card3.dragon)} ${card3.value}`;
function card(value, zone, extra = {}) {
  return h(
    "span",
    { class: `card md dragon-${value.dragon}`, "data-card": `${value.dragon}-${value.value}`, "data-zone": zone, ...extra },
    h("span", { class: "value" }, value.value),
    " ",
    h("span", { class: "name" }, dragonName(value.dragon))
  );
}
function trackOf(ctx, view) {
  const catalogue = ctx.state.detail?.catalogue ?? {};
  const side = catalogue.track_by_players?.[String(view.players)];
  const printed = side ? catalogue.tracks?.[side] : void 0;
  if (!view.options.track && printed) return { spaces: printed, side: `board side for ${side} players` };
  return { spaces: view.track, side: "this match's own track" };
}
function riderOf(view, dragon, names) {
  const seat = view.riders.indexOf(dragon);
  return seat >= 0 && seat < names.length ? seat : null;
}
function track(ctx, view) {
  const { spaces, side } = trackOf(ctx, view);
  const dragons = Object.entries(view.positions);
  return h(
    "figure",
    { class: "track-figure" },
    h("figcaption", {}, `Track (${side}): start → summit`),
    h(
      "ol",
      { class: "track", start: 0 },
      spaces.map((space, index) => {
        const here = dragons.filter(([, at]) => at === index);
        const label = `space ${index}, ${space.kind} ${space.value}${here.length ? `: ${here.map(([d]) => dragonName(d)).join(", ")}` : ""}`;
        return h(
          "li",
          { class: `space kind-${space.kind}`, "data-space": index, "aria-label": label },
          h("span", { class: "space-value", "aria-hidden": "true" }, space.kind === "start" ? "start" : space.value),
          here.map(([dragon]) => {
            const seat = riderOf(view, dragon, ctx.names);
            return h(
              "span",
              { class: `token dragon-${dragon}${seat === null ? "" : " ridden"}`, "data-dragon": dragon, title: dragonName(dragon) },
              SHORT[dragon] ?? dragon.slice(0, 2),
              seat === null ? null : h("sup", {}, seat)
            );
          })
        );
      })
    )
  );
}
function dragonsTable(view, names, spaces) {
  return h(
    "table",
    { class: "dragons" },
    h("caption", {}, "Dragons"),
    h("thead", {}, h("tr", {}, ["Dragon", "Space", "Value", "Rider"].map((t) => h("th", { scope: "col" }, t)))),
    h(
      "tbody",
      {},
      Object.entries(view.positions).map(([dragon, at]) => {
        const seat = riderOf(view, dragon, names);
        const space = spaces[at];
        return h(
          "tr",
          { "data-dragon-row": dragon },
          h("th", { scope: "row" }, h("span", { class: `swatch dragon-${dragon}`, "aria-hidden": "true" }), " ", dragonName(dragon)),
          h("td", {}, at),
          h("td", {}, space ? `${space.kind} ${space.value}` : ""),
          h("td", {}, seat === null ? "—" : names[seat])
        );
      })
    )
  );
}
function players(ctx, view) {
  return h(
    "table",
    { class: "seats-table" },
    h("caption", {}, "Players"),
    h("thead", {}, h("tr", {}, ["Seat", "Score", "Hand", "Rides", "Rider pile"].map((t) => h("th", { scope: "col" }, t)))),
    h(
      "tbody",
      {},
      view.scores.map((score, seat) => {
        const pile = view.rider_piles[seat];
        const turn = view.status === "active" && view.current_player === seat;
        return h(
          "tr",
          { class: turn ? "on-turn" : "", "data-seat-row": seat },
          h("th", { scope: "row" }, turn ? "▶ " : "", ctx.names[seat] ?? `Seat ${seat}`, view.seat === seat ? " (you)" : ""),
          h("td", { "data-score": seat }, score),
          h("td", { "data-hand-size": seat }, view.hand_sizes[seat] ?? 0),
          h("td", {}, dragonName(view.riders[seat] ?? "")),
          h("td", {}, pile ? [card(pile.top, "rider-top", { "data-seat": String(seat) }), ` ×${pile.size}`] : "—")
        );
      })
    )
  );
}
function hand(ctx, view) {
  if (view.hand === null) return null;
  const phase = view.phase;
  return h(
    "section",
    { class: "hand", "aria-label": "Your hand" },
    h("h3", {}, "Your hand", phase === "discard" ? " — discard cards of dragons on the summit, or end your turn" : ""),
    view.hand.length === 0 ? h("p", {}, "No cards.") : null,
    h("div", { class: "cards" }, view.hand.map((c, index) => {
      const play = findLegal(ctx, { type: "play", card: c });
      const discard = findLegal(ctx, { type: "discard", cards: [c] });
      const action = play ?? discard;
      const face = card(c, "hand", { "data-index": String(index) });
      if (!action) return face;
      const label = `${play ? "Play" : "Discard"} ${cardText(c)}`;
      return button(face, () => ctx.act(action), { class: "card-button", ...actionAttrs(ctx, action, label), "data-key": `hand:${index}:${label}` });
    }))
  );
}
function decisions(ctx, view) {
  const buttons = [];
  const seat = view.seat ?? -1;
  for (const choice of ["keep", "switch"]) {
    const action = findLegal(ctx, { type: "choose_rider", choice });
    if (!action) continue;
    const label = choice === "keep" ? `Keep riding ${dragonName(view.riders[seat] ?? "")}` : `Switch to ${dragonName(view.pending_card?.dragon ?? "")}`;
    buttons.push(button(label, () => ctx.act(action), { class: "primary", ...actionAttrs(ctx, action, label) }));
  }
  const end = findLegal(ctx, { type: "end_turn" });
  if (end) buttons.push(button("End turn", () => ctx.act(end), { class: "primary", ...actionAttrs(ctx, end, "End turn") }));
  return buttons.length ? h("div", { class: "decisions", role: "group", "aria-label": "Decisions" }, buttons) : null;
}
function mountDragoBoard(ctx, view) {
  const spaces = trackOf(ctx, view).spaces;
  return h(
    "div",
    { class: "board md", "data-game": "mount_drago", "data-seq": view.seq, "data-phase": view.phase },
    track(ctx, view),
    h(
      "div",
      { class: "board-row" },
      players(ctx, view),
      h(
        "section",
        { class: "summit", "aria-label": "Summit and piles" },
        h("h3", {}, "Summit"),
        h("p", {}, view.summit_dragons.length ? `On the summit: ${view.summit_dragons.map(dragonName).join(", ")}` : "No dragon on the summit yet."),
        h("p", {}, "Summit discards: ", view.discard_pile.length ? view.discard_pile.map((c) => card(c, "discard")) : "none"),
        view.pending_card ? h("p", {}, "Card waiting for the rider choice: ", card(view.pending_card, "pending")) : null,
        h("p", {}, `Draw pile: ${plural(view.draw_pile_size, "card")}`)
      )
    ),
    decisions(ctx, view),
    hand(ctx, view),
    dragonsTable(view, ctx.names, spaces)
  );
}

// src/boards/yutaka.ts
var HANDLES2 = /* @__PURE__ */ new Set(["play", "reveal", "end_turn"]);
var cardText2 = (c) => c.kind === "dynamite" ? "dynamite" : `${c.kind} ${c.value}`;
function card2(value, zone, extra = {}) {
  return h(
    "span",
    { class: `card yu kind-${value.kind}`, "data-card": `${value.kind}-${value.value}`, "data-zone": zone, ...extra },
    value.kind === "dynamite" ? "✹" : h("span", { class: "value" }, value.value),
    " ",
    h("span", { class: "name" }, value.kind)
  );
}
function tile(ctx, island2, t) {
  const attrs = {
    class: `tile ${t.face_up ? "up" : "down"} type-${t.type ?? "hidden"}`,
    "data-island": String(island2),
    "data-slot": String(t.slot),
    "data-face": t.face_up ? "up" : "down"
  };
  if (t.type) attrs["data-type"] = t.type;
  if (t.value !== null) attrs["data-value"] = String(t.value);
  const text = t.face_up ? `${t.type} ${t.value}` : t.type ? `${t.type} ?` : "?";
  const label = t.face_up ? `tile ${t.type} ${t.value}` : t.type ? `face-down ${t.type} tile` : "face-down tile";
  const reveal = t.face_up ? void 0 : findLegal(ctx, { type: "reveal", island: island2, slot: t.slot });
  if (reveal) {
    const name = `Reveal the ${label} in slot ${t.slot} of ${islandName(ctx, island2)}`;
    return button(text, () => ctx.act(reveal), { ...attrs, ...actionAttrs(ctx, reveal, name) });
  }
  return h("span", { ...attrs, role: "img", "aria-label": label }, text);
}
function islandName(ctx, island2) {
  const view = ctx.view;
  return view.islands[island2]?.name ?? `island ${island2}`;
}
function column(cards, seat, owner, isle) {
  return h(
    "div",
    { class: "side-box" },
    h("span", { class: "owner", "aria-hidden": "true" }, owner),
    h(
      "ol",
      { class: "column", "aria-label": `${owner}'s cards on ${isle}`, "data-column": seat },
      cards.map((c) => h("li", {}, card2(c, "column", { "data-seat": String(seat) })))
    )
  );
}
function picked(ctx, view) {
  const chosen = ctx.state.ui.yutakaCard;
  const c = chosen === void 0 ? void 0 : view.hand?.[chosen];
  return c ?? null;
}
function island(ctx, view, isle, below) {
  const above = 1 - below;
  const chosen = picked(ctx, view);
  const play = chosen ? findLegal(ctx, { type: "play", card: chosen, island: isle.island }) : void 0;
  const name = (seat) => ctx.names[seat] ?? `Seat ${seat}`;
  return h(
    "section",
    { class: "island", "data-island-box": isle.island, "aria-label": isle.name },
    h("h3", {}, isle.name),
    column(isle.cards[above] ?? [], above, name(above), isle.name),
    h("div", { class: "tiles", role: "group", "aria-label": `Tiles of ${isle.name}` }, isle.tiles.map((t) => tile(ctx, isle.island, t))),
    column(isle.cards[below] ?? [], below, name(below), isle.name),
    play && chosen ? button(
      `Play here`,
      () => {
        delete ctx.state.ui.yutakaCard;
        ctx.act(play);
      },
      { class: "primary target", ...actionAttrs(ctx, play, `Play ${cardText2(chosen)} on ${isle.name}`) }
    ) : null
  );
}
function hand2(ctx, view) {
  if (view.hand === null) return null;
  const plays = legal(ctx).filter((a) => a.type === "play");
  const chosen = ctx.state.ui.yutakaCard;
  return h(
    "section",
    { class: "hand", "aria-label": "Your hand" },
    h("h3", {}, "Your hand", plays.length ? " — pick a card, then an island" : ""),
    h("div", { class: "cards" }, view.hand.map((c, index) => {
      const face = card2(c, "hand", { "data-index": String(index) });
      if (!plays.some((a) => JSON.stringify(a.card) === JSON.stringify(c))) return face;
      const pressed = chosen === index;
      return button(face, () => {
        if (pressed) delete ctx.state.ui.yutakaCard;
        else ctx.state.ui.yutakaCard = index;
        ctx.update();
      }, { class: "card-button", "aria-pressed": pressed ? "true" : "false", "aria-label": `Pick ${cardText2(c)}`, "data-pick": String(index), "data-key": `pick:${index}` });
    }))
  );
}
function phaseText(ctx, view) {
  const name = (seat) => seat === null || seat === void 0 ? "" : ctx.names[seat] ?? `Seat ${seat}`;
  switch (view.phase) {
    case "opening":
      return `Opening reveals: ${view.opening_reveals_left} left (${name(view.to_act[0])} reveals)`;
    case "play":
      return `${name(view.turn)} plays a card`;
    case "confirm":
      return `${name(view.turn)} ends the turn`;
    case "reveal":
      return `${name(view.to_act[0])} reveals a tile`;
    default:
      return view.status === "finished" ? "The game is over" : view.phase;
  }
}
function yutakaBoard(ctx, view) {
  const below = view.seat ?? 0;
  const end = findLegal(ctx, { type: "end_turn" });
  const name = (seat) => ctx.names[seat] ?? `Seat ${seat}`;
  const seats = view.hand_sizes.map((size, seat) => h("li", { "data-seat-row": seat }, `${name(seat)}${view.seat === seat ? " (you)" : ""}: ${plural(size, "card")} in hand, ${plural(view.deck_sizes[seat] ?? 0, "card")} in deck`));
  return h(
    "div",
    { class: "board yu", "data-game": "yutaka", "data-seq": view.seq, "data-phase": view.phase },
    h("p", { class: "phase" }, phaseText(ctx, view), ` · mode ${view.options.mode ?? "mysteria"} · ${plural(view.face_down, "face-down tile")} left`),
    h("ul", { class: "yu-seats" }, seats),
    h("div", { class: "islands" }, view.islands.map((isle) => island(ctx, view, isle, below))),
    end ? h("div", { class: "decisions" }, button("End turn", () => ctx.act(end), { class: "primary", ...actionAttrs(ctx, end, "End turn") })) : null,
    hand2(ctx, view),
    h("p", { class: "set-aside" }, view.set_aside ? ["Set aside: ", view.set_aside.map((t) => h("span", { class: `tile up type-${t.type}`, "data-zone": "set-aside", "data-type": t.type, "data-value": String(t.value) }, `${t.type} ${t.value}`))] : `${plural(view.set_aside_count, "tile")} set aside, face down`)
  );
}

// src/controls/actions.ts
function otherActions(ctx, handled2) {
  const rest = legal(ctx).filter((a) => !handled2.has(String(a.type)));
  if (rest.length === 0) return null;
  return h(
    "div",
    { class: "other-actions", role: "group", "aria-label": "Other actions" },
    rest.map((a) => {
      const label = JSON.stringify(a);
      return button(label, () => ctx.act(a), actionAttrs(ctx, a, label));
    })
  );
}

// src/controls/clock.ts
function left(deadline) {
  const seconds = Math.max(0, Math.round((Date.parse(deadline) - Date.now()) / 1e3));
  const d = Math.floor(seconds / 86400);
  const hms = [Math.floor(seconds / 3600) % 24, Math.floor(seconds / 60) % 60, seconds % 60].map((n) => String(n).padStart(2, "0")).join(":");
  return d > 0 ? `${d} d ${hms}` : hms;
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
    { class: "clock", "aria-label": "Turn clock" },
    h("h2", {}, "Clock"),
    h("ul", {}, clock.map((c) => h(
      "li",
      {},
      `${ctx.names[c.seat] ?? `Seat ${c.seat}`}: `,
      h("time", { datetime: c.deadline, "data-deadline": c.deadline, title: `until ${new Date(c.deadline).toLocaleString()}` }, left(c.deadline)),
      c.bank_s !== null && c.bank_s !== void 0 ? ` (bank ${Math.round(c.bank_s)} s)` : ""
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
    { class: "draft", role: "group", "aria-label": "Turn draft" },
    draft ? h("span", {}, `Draft: ${draft.steps} step${draft.steps === 1 ? "" : "s"}, only you see them. `) : null,
    undo ? button("Undo", () => ctx.act(undo), actionAttrs(ctx, undo, "Undo the last step")) : null,
    finish ? button("Finish turn", () => ctx.act(finish), { class: "primary", ...actionAttrs(ctx, finish, "Finish turn") }) : null
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
async function sha256Hex(text) {
  const bytes = new TextEncoder().encode(text);
  if (globalThis.crypto?.subtle) {
    const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
    return { hex: Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join(""), via: "Web Crypto" };
  }
  return { hex: sha256Plain(bytes), via: "plain JavaScript" };
}

// src/controls/fairness.ts
async function checkFairness(reveal, published) {
  const deal = reveal.events[0]?.data;
  const { hex, via } = await sha256Hex(canonicalJson({ deal, secret: reveal.secret }));
  return { computed: hex, published, revealed: reveal.commitment, via, events: reveal.events.length, secret: reveal.secret };
}
async function run(ctx) {
  ctx.state.ui.fairness = "checking";
  ctx.update();
  try {
    const reveal = await api.revealMatch(ctx.state.matchId);
    ctx.state.ui.fairness = await checkFairness(reveal, ctx.state.summary?.commitment ?? "");
  } catch (error2) {
    ctx.state.ui.fairness = `The reveal could not be read: ${describeError(error2)}`;
  }
  ctx.update();
}
function fairnessPanel(ctx) {
  const status = ctx.state.summary?.status;
  if (status !== "finished" && status !== "aborted") return null;
  const state = ctx.state.ui.fairness;
  if (state === void 0) queueMicrotask(() => void run(ctx));
  let body = "Checking…";
  if (typeof state === "string" && state !== "checking") body = state;
  if (typeof state === "object") {
    const ok = state.computed === state.published && state.computed === state.revealed;
    body = h(
      "div",
      { "data-fair": ok ? "yes" : "no" },
      h("p", { class: ok ? "ok" : "bad", role: "status" }, ok ? "✔ The deal matches the commitment published at creation." : "✘ The deal does NOT match the commitment published at creation."),
      h(
        "dl",
        {},
        h("dt", {}, "Published commitment"),
        h("dd", {}, h("code", { "data-commitment": "published" }, state.published)),
        h("dt", {}, `SHA-256 computed here (${state.via})`),
        h("dd", {}, h("code", { "data-commitment": "computed" }, state.computed)),
        h("dt", {}, "Secret"),
        h("dd", {}, h("code", {}, state.secret)),
        h("dt", {}, "Full log"),
        h("dd", {}, `${state.events} events, every shuffle and draw`)
      )
    );
  }
  return h(
    "section",
    { class: "fairness", "aria-labelledby": "fairness-title" },
    h("h2", { id: "fairness-title" }, "Fairness"),
    body,
    typeof state === "string" && state !== "checking" ? button("Check again", () => void run(ctx)) : null
  );
}

// src/controls/host.ts
function hostPanel(ctx) {
  const summary = ctx.state.summary;
  const host = credentials(ctx.state.matchId).host;
  if (!summary || !host) return null;
  const over = summary.status === "finished" || summary.status === "aborted";
  const run2 = async (what, call, after) => {
    try {
      const result = await call();
      after?.(result);
      ctx.say(`${what}: done.`);
      await ctx.refreshSummary();
    } catch (error2) {
      ctx.say(`${what}: ${describeError(error2)}`, true);
    }
  };
  const issued = ctx.state.ui.reissued ?? {};
  const invite = host.invite ? absoluteLink(matchHref(summary.id, { invite: host.invite })) : null;
  return h(
    "section",
    { class: "host", "aria-labelledby": "host-title" },
    h("h2", { id: "host-title" }, "Host"),
    invite ? h("p", {}, "Invite link: ", h("input", { type: "text", readonly: true, value: invite, "aria-label": "Invite link", class: "copy" })) : null,
    summary.status === "waiting" ? button("Abort the match", () => void run2("Abort", () => api.abortMatch(summary.id, host.token)), { "data-key": "host-abort" }) : null,
    over ? null : h("ul", { class: "host-seats" }, summary.seats.filter((s) => s.taken && !s.bot).map((s) => h(
      "li",
      {},
      `Seat ${s.seat} (${s.name ?? "?"}) `,
      button(
        "Reissue token",
        () => void run2(
          `Reissue seat ${s.seat}`,
          () => api.reissueSeatToken(summary.id, s.seat, host.token),
          (result) => {
            issued[String(s.seat)] = result.token;
            ctx.state.ui.reissued = issued;
          }
        ),
        { "aria-label": `Reissue the token of seat ${s.seat}`, "data-key": `host-reissue-${s.seat}` }
      ),
      summary.status === "active" ? button(
        "Hand to a bot",
        () => void run2(`Seat ${s.seat} to a bot`, () => api.handSeatToBot(summary.id, s.seat, host.token)),
        { "aria-label": `Hand seat ${s.seat} to a bot`, "data-key": `host-bot-${s.seat}` }
      ) : null,
      issued[String(s.seat)] ? h("p", {}, "New seat link (shown once): ", h("input", {
        type: "text",
        readonly: true,
        class: "copy",
        value: absoluteLink(matchHref(summary.id, { seat: String(s.seat), token: issued[String(s.seat)] })),
        "aria-label": `New link for seat ${s.seat}`
      })) : null
    )))
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
    ctx.say(`Replay: ${describeError(error2)}`, true);
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
    "aria-valuetext": `commit ${index + 1} of ${seqs.length}, seq ${seqs[index]}`
  });
  slider.addEventListener("input", () => void show(ctx, seqs[Number(slider.value)]));
  return h(
    "section",
    { class: "replay", "aria-labelledby": "replay-title" },
    h("h2", { id: "replay-title" }, "Replay"),
    h("label", { for: "replay" }, replay ? `Commit ${index + 1} of ${seqs.length} (seq ${replay.at})` : `Live (${seqs.length} commits)`),
    slider,
    replay ? button("Back to live", () => {
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
      ctx.say("You resigned.");
      await ctx.refreshSummary();
    } catch (error2) {
      ctx.say(describeError(error2), true);
    }
  };
  return h(
    "div",
    { class: "resign" },
    confirming ? [
      h("span", {}, "Resign this match? "),
      button("Yes, resign", () => {
        delete ctx.state.ui.confirmResign;
        void resign();
      }, { class: "danger", "data-key": "resign-yes" }),
      button("No", () => {
        delete ctx.state.ui.confirmResign;
        ctx.update();
      }, { "aria-label": "Do not resign", "data-key": "resign-no" })
    ] : button("Resign", () => {
      ctx.state.ui.confirmResign = true;
      ctx.update();
    }, { "data-key": "resign" })
  );
}

// src/controls/result.ts
function resultPanel(ctx) {
  const outcome = ctx.state.live?.outcome;
  if (!outcome) return null;
  const name = (seat) => ctx.names[seat] ?? `Seat ${seat}`;
  const winners = outcome.winners.length ? outcome.winners.map(name).join(" and ") : "nobody";
  const islands = outcome.details.islands;
  return h(
    "section",
    { class: "result", "aria-labelledby": "result-title", "data-outcome": outcome.reason },
    h("h2", { id: "result-title" }, "Result"),
    h("p", { class: "winners" }, `Winner${outcome.winners.length === 1 ? "" : "s"}: ${winners} (${outcome.reason})`),
    outcome.scores ? h("ul", {}, outcome.scores.map((score, seat) => h("li", { "data-final-score": seat }, `${name(seat)}: ${score}`))) : null,
    islands ? h(
      "table",
      {},
      h("caption", {}, "Points per island"),
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Island"), ctx.names.map((n) => h("th", { scope: "col" }, n)))),
      h("tbody", {}, islands.map((i) => h("tr", {}, h("th", { scope: "row" }, i.island), i.points.map((p) => h("td", {}, p)))))
    ) : null
  );
}

// src/controls/seats.ts
async function join(ctx, seat, input, status) {
  const name = input.value.trim();
  if (!name) {
    status.textContent = "Enter a name first.";
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
    replaceChildren(status, `Could not join: ${describeError(error2)}`);
  }
}
function seatsPanel(ctx) {
  const summary = ctx.state.summary;
  if (!summary) return null;
  const toAct = new Set(ctx.view?.to_act ?? summary.to_act);
  const held = new Set(heldSeats(summary.id));
  const status = h("p", { role: "status", class: "message" });
  const rows = summary.seats.map((s) => {
    const who = s.taken ? `${s.name ?? "?"}${s.bot ? ` (bot${s.level ? `, ${s.level}` : ""})` : ""}${s.resigned ? " — resigned" : ""}` : "free";
    let joinForm = null;
    if (!s.taken && summary.status === "waiting") {
      const typed = ctx.state.ui[`joinName${s.seat}`];
      const input = h("input", { type: "text", maxlength: 40, value: typeof typed === "string" ? typed : lastName(), id: `join-name-${s.seat}`, "data-key": `join-name-${s.seat}`, "aria-label": `Your name for seat ${s.seat}` });
      input.addEventListener("input", () => ctx.state.ui[`joinName${s.seat}`] = input.value);
      joinForm = h(
        "form",
        { class: "inline", onsubmit: (event) => {
          event.preventDefault();
          void join(ctx, s.seat, input, status);
        } },
        input,
        h("button", { type: "submit", "data-key": `join-${s.seat}` }, `Join seat ${s.seat}`)
      );
    }
    return h(
      "li",
      { "data-seat": s.seat, class: toAct.has(s.seat) ? "on-turn" : "" },
      toAct.has(s.seat) ? h("span", { class: "to-act" }, "▶ to act ") : null,
      `Seat ${s.seat}: ${who}`,
      held.has(s.seat) ? " (this browser)" : "",
      joinForm
    );
  });
  const views = [...held].map((seat) => ({ seat: String(seat), label: `Seat ${seat} (${ctx.names[seat] ?? "?"})` }));
  views.push({ seat: "spectator", label: "Spectator" });
  const current = ctx.state.seat === null ? "spectator" : String(ctx.state.seat);
  return h(
    "section",
    { class: "seats", "aria-labelledby": "seats-title" },
    h("h2", { id: "seats-title" }, "Seats"),
    h("ul", {}, rows),
    status,
    h(
      "nav",
      { class: "view-as", "aria-label": "View this match as" },
      "View as: ",
      views.map((v, i) => [i ? " · " : "", v.seat === current ? h("strong", { "aria-current": "page" }, v.label) : h("a", { href: matchHref(summary.id, { as: v.seat }) }, v.label)])
    )
  );
}

// src/match/log.ts
function mountDrago(type, d, who) {
  const c = (card3) => card(card3, "log");
  switch (type) {
    case "game_started":
      return ["The cards are dealt; riders: ", d.riders.map(c)];
    case "card_played":
      return [who(d.seat), " played ", c(d.card), ` (space ${d.from_space} → ${d.to_space})`];
    case "rider_settled":
      return [who(d.seat), ` rides ${String(d.rider).replace("_", " ")} (card ${d.result === "under" ? "under the pile" : "on top"})`];
    case "scored":
      return [`${d.kind} scoring: ${d.changes.map((n, s) => `${who(s)} ${n >= 0 ? "+" : ""}${n}`).join(", ")}`];
    case "cards_discarded":
      return [who(d.seat), " discarded ", d.cards.map(c)];
    case "cards_drawn":
      return d.cards ? [who(d.seat), " drew ", d.cards.map(c)] : [`${who(d.seat)} drew ${d.count} card(s)`];
    case "draw_pile_reshuffled":
      return [`The draw pile was rebuilt (${d.size} cards)`];
    case "turn_ended":
      return [`${who(d.seat)} ended the turn; ${who(d.next_seat)} is on turn`];
    case "turn_passed":
      return [`${who(d.seat)} passed; ${who(d.next_seat)} is on turn`];
    case "game_ended":
      return [`Game over: ${d.scores.join(" – ")}`];
    default:
      return null;
  }
}
function yutaka(type, d, who) {
  switch (type) {
    case "game_started":
      return ["The tiles and cards are dealt", d.hand ? ["; your hand: ", d.hand.map((c) => card2(c, "log"))] : null];
    case "tile_revealed":
      return [`${who(d.seat)} revealed ${d.tile.type} ${d.tile.value} (island ${d.island}, slot ${d.slot})`];
    case "card_played":
      return [who(d.seat), " played ", card2(d.card, "log"), ` on island ${d.island}${d.side !== d.seat ? ` against ${who(d.side)}` : ""}`];
    case "turn_confirmed":
      return [`${who(d.seat)} ended the turn`];
    case "card_drawn":
      return d.card ? [who(d.seat), " drew ", card2(d.card, "log")] : [`${who(d.seat)} drew a card`];
    case "game_ended":
      return [`Game over: ${d.totals.join(" – ")} (${d.decided_by})`];
    default:
      return null;
  }
}
function match(type, d, who) {
  switch (type) {
    case "seat_joined":
      return [`${d.name} took seat ${d.seat}${d.bot ? ` (bot, ${d.level ?? "default"})` : ""}`];
    case "match_started":
      return ["The match started"];
    case "seat_resigned":
      return [`${who(d.seat)} resigned`];
    case "turn_timed_out":
      return [`${who(d.seat)} ran out of time (${d.policy})`];
    case "seat_taken_over":
      return [`A bot plays ${who(d.seat)}'s seat from now on (${d.reason})`];
    case "seat_token_reissued":
      return [`The host reissued ${who(d.seat)}'s token`];
    case "match_aborted":
      return [`The match was aborted (${d.reason})`];
    case "match_ended":
      return [`The match ended (${d.reason})`];
    case "draft_step":
      return [`Your draft: ${String(d.action.type)}`];
    case "draft_undone":
      return ["Your draft: undo"];
    case "draft_changed":
      return [`${who(d.seat)} is working on a turn`];
    case "draft_published":
      return [`${who(d.seat)} finished the turn (${d.steps} steps)`];
    default:
      return [type];
  }
}
function describe(game, event, names) {
  const who = (seat) => names[seat] ?? `Seat ${seat}`;
  const data = event.data;
  const own = game === "mount_drago" ? mountDrago(event.type, data, who) : game === "yutaka" ? yutaka(event.type, data, who) : null;
  return own ?? match(event.type, data, who);
}
function eventLog(ctx) {
  const game = ctx.state.summary?.game ?? ctx.view?.game ?? "";
  const events = [...ctx.state.events].reverse();
  return h(
    "section",
    { class: "log-box", "aria-labelledby": "log-title" },
    h("h2", { id: "log-title" }, "History"),
    h(
      "ol",
      { class: "log", reversed: true, tabindex: 0, "aria-label": "Events, newest first" },
      events.map((event) => h("li", { "data-seq": event.seq, value: event.seq }, describe(game, event, ctx.names)))
    )
  );
}

// src/match/page.ts
var SUMMARY_EVENTS = /* @__PURE__ */ new Set(["seat_joined", "match_started", "seat_resigned", "seat_taken_over", "match_ended", "match_aborted", "seat_token_reissued"]);
function board(ctx, view) {
  if (view.game === "mount_drago") return mountDragoBoard(ctx, view);
  if (view.game === "yutaka") return yutakaBoard(ctx, view);
  return h("p", {}, `This page cannot draw the game ${view.game}.`);
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
  const live = h("p", { class: "message", role: "status", "aria-live": "polite" });
  const ctx = {
    state,
    get view() {
      return state.replay ? state.replay.view : state.live;
    },
    get playing() {
      return !state.replay && state.seat !== null && state.live?.status === "active";
    },
    get names() {
      return (state.summary?.seats ?? []).map((s) => s.name ?? `Seat ${s.seat}`);
    },
    act: (action) => void act(action),
    update: () => render(),
    say(text, error2 = false) {
      state.message = { text, error: error2 };
      render();
    },
    refreshSummary: async () => {
      state.summary = await api.getMatch(matchId);
      render();
    }
  };
  function setView(view) {
    if (view && (!state.live || view.seq >= state.live.seq)) state.live = view;
  }
  async function act(action) {
    if (!state.live || !state.token || state.busy) return;
    state.busy = true;
    render();
    try {
      const reply = await api.submitAction(matchId, { action, expected_seq: state.live.seq }, { token: state.token });
      setView(reply.view);
      state.message = null;
    } catch (error2) {
      state.message = { text: describeError(error2), error: true };
    } finally {
      state.busy = false;
      render();
    }
  }
  function render() {
    if (stop.signal.aborted) return;
    const view = ctx.view;
    const summary = state.summary;
    const title = summary ? state.detail?.title ?? summary.game : "Match";
    const status = state.live ? `${state.live.status} · seq ${state.live.seq}` : "loading…";
    const who = state.seat === null ? "watching as a spectator" : `playing seat ${state.seat} (${ctx.names[state.seat] ?? ""})`;
    replaceChildren(
      root2,
      h(
        "header",
        { class: "match-head" },
        h("a", { href: "#/" }, "← Lobby"),
        h("h1", {}, title, " ", h("small", {}, matchId.slice(0, 8))),
        h("p", { "data-status": state.live?.status ?? "", "data-connection": state.connection }, `${status} · ${who} · ${state.connection}`)
      ),
      live,
      h(
        "div",
        { class: "match" },
        h(
          "main",
          { class: "main", "aria-label": "Board" },
          state.replay ? h("p", { class: "replay-note" }, `Replay at seq ${state.replay.at}: the board as it was then.`) : null,
          view ? board(ctx, view) : h("p", {}, state.replay ? "Loading that position…" : "Loading…"),
          draftControls(ctx),
          view ? otherActions(ctx, handled(view.game)) : null
        ),
        h(
          "aside",
          { class: "side" },
          resultPanel(ctx),
          clockPanel(ctx),
          resignControl(ctx),
          seatsPanel(ctx),
          hostPanel(ctx),
          replayControl(ctx),
          fairnessPanel(ctx),
          eventLog(ctx)
        )
      )
    );
    live.textContent = state.message?.text ?? (state.busy ? "Sending…" : "");
    live.className = state.message?.error ? "message error" : "message";
  }
  async function history2() {
    let after = 0;
    for (; ; ) {
      const page = await api.listEvents(matchId, { after }, state.token ? { token: state.token } : {});
      state.events.push(...page.events);
      after = page.events.at(-1)?.seq ?? after;
      if (page.events.length === 0 || after >= page.seq) return after;
    }
  }
  async function follow2() {
    const [summary, after] = await Promise.all([api.getMatch(matchId), history2()]);
    state.summary = summary;
    state.detail = await gameDetail(summary.game);
    render();
    const options = { token: state.token, after, hellos: true, signal: stop.signal };
    for await (const frame of api.follow(matchId, options)) {
      if (frame.type === "hello") {
        state.connection = "live";
        setView(frame.view);
      } else {
        state.events.push(...frame.events);
        setView(frame.view);
        if (frame.events.some((e) => SUMMARY_EVENTS.has(e.type))) state.summary = await api.getMatch(matchId);
      }
      render();
    }
    state.summary = await api.getMatch(matchId);
    if (!state.live || state.live.seq < state.summary.seq) setView(await api.getView(matchId, {}, state.token ? { token: state.token } : {}));
    state.connection = "closed";
    render();
  }
  render();
  follow2().catch((error2) => {
    if (stop.signal.aborted) return;
    state.connection = "closed";
    const refused = error2 instanceof Unauthorized || error2 instanceof StreamClosed && error2.code === 4401;
    if (refused && state.seat !== null) {
      forgetSeat(matchId, state.seat);
      state.message = { text: `This browser's token for seat ${state.seat} no longer works (reissued by the host?); it was forgotten. Reload to watch.`, error: true };
    } else {
      state.message = { text: error2 instanceof ApiError ? describeError(error2) : `Connection lost: ${describeError(error2)}. Reload to resume.`, error: true };
    }
    render();
  });
  return () => stop.abort();
}

// src/main.ts
var root = document.getElementById("app");
var dispose = null;
function show2() {
  dispose?.();
  dispose = null;
  const route = parseRoute();
  if (route.page === "match") dispose = matchPage(root, route.matchId, route.params);
  else lobbyPage(root);
  window.scrollTo(0, 0);
}
window.addEventListener("hashchange", show2);
show2();
