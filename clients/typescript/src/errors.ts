/**
 * Every error the client throws, one tree; `ApiError` subclasses mirror the server's error codes.
 *
 *     DragoError
 *     ├── TransportError            the server could not be reached (after the retries)
 *     ├── StreamClosed              a stream closed for good (a close code retrying cannot fix)
 *     └── ApiError                  the server refused: status, code, message, details
 *         ├── ValidationError       validation_error        422
 *         ├── IdempotencyKeyReused  idempotency_key_reused  422
 *         ├── Unauthorized          unauthorized            401
 *         ├── Forbidden             forbidden               403
 *         ├── PlayerKeyRequired     player_key_required     403 (a rated match's seat)
 *         ├── Banned                banned                  403 (an operator banned the player)
 *         ├── ChatClosed            chat_closed             403 (no spectators' chat room)
 *         ├── NotFound              not_found               404
 *         ├── MethodNotAllowed      method_not_allowed      405
 *         ├── Conflict              (409): IllegalAction, NotYourTurn, MatchOver, VersionConflict,
 *         │                         SeatTaken, SeatNotHeld, AlreadySeated, AlreadyResigned,
 *         │                         MatchNotStarted, MatchStarted, NameTaken, MatchNotFinished,
 *         │                         TooManySeeks (too_many_seeks), SeekClosed (seek_closed),
 *         │                         ChallengeClosed (challenge_closed)
 *         ├── PayloadTooLarge       payload_too_large       413
 *         ├── RateLimited           rate_limited            429 (retryAfter, seconds)
 *         ├── InternalError         internal_error          500
 *         └── Unavailable           unavailable             503
 *
 * A code this client does not know becomes `Conflict` for a 409, else a plain `ApiError`.
 */

export class DragoError extends Error {
  override name = "DragoError";
}

/** The server could not be reached, or the connection broke, and retrying did not help. */
export class TransportError extends DragoError {
  override name = "TransportError";
}

/** A stream closed with a code that retrying cannot fix (4400 bad request, 1003…). */
export class StreamClosed extends DragoError {
  override name = "StreamClosed";
  constructor(
    readonly code: number,
    readonly reason = "",
  ) {
    super(reason ? `stream closed with ${code}: ${reason}` : `stream closed with ${code}`);
  }
}

/** The server answered with its error envelope `{"error": {"code", "message", "details"}}`. */
export class ApiError extends DragoError {
  static readonly code: string = "error";
  static readonly status: number = 400;
  override name = "ApiError";
  readonly code: string;
  readonly status: number;

  constructor(
    message: string,
    readonly details: unknown = null,
    status?: number,
    code?: string,
  ) {
    super(message);
    const cls = this.constructor as typeof ApiError;
    this.code = code ?? cls.code;
    this.status = status ?? cls.status;
    this.name = new.target.name;
  }
}

function error(code: string, status: number) {
  return class extends ApiError {
    static override readonly code = code;
    static override readonly status = status;
  };
}

export class ValidationError extends error("validation_error", 422) {}
export class IdempotencyKeyReused extends error("idempotency_key_reused", 422) {}
export class Unauthorized extends error("unauthorized", 401) {}
export class Forbidden extends error("forbidden", 403) {}
/** 403: a rated match's seats are joined only with a player key. */
export class PlayerKeyRequired extends error("player_key_required", 403) {}
/** 403: an operator banned the player: its key and its seats' tokens are refused everywhere. */
export class Banned extends error("banned", 403) {}
export class ChatClosed extends error("chat_closed", 403) {}
export class NotFound extends error("not_found", 404) {}
export class MethodNotAllowed extends error("method_not_allowed", 405) {}
/** 409: the request is well formed but the match's state refuses it. */
export class Conflict extends error("conflict", 409) {}
export class IllegalAction extends Conflict {
  static override readonly code = "illegal_action";
}
export class NotYourTurn extends Conflict {
  static override readonly code = "not_your_turn";
}
export class MatchOver extends Conflict {
  static override readonly code = "match_over";
}
/** `expected_seq` is stale: the match moved on; read the view again and decide again. */
export class VersionConflict extends Conflict {
  static override readonly code = "version_conflict";
}
export class SeatTaken extends Conflict {
  static override readonly code = "seat_taken";
}
export class SeatNotHeld extends Conflict {
  static override readonly code = "seat_not_held";
}
export class AlreadySeated extends Conflict {
  static override readonly code = "already_seated";
}
export class AlreadyResigned extends Conflict {
  static override readonly code = "already_resigned";
}
export class MatchNotStarted extends Conflict {
  static override readonly code = "match_not_started";
}
export class MatchStarted extends Conflict {
  static override readonly code = "match_started";
}
/** 409: another player has this name (names are unique regardless of case). */
export class NameTaken extends Conflict {
  static override readonly code = "name_taken";
}
export class MatchNotFinished extends Conflict {
  static override readonly code = "match_not_finished";
}
export class TooManySeeks extends Conflict {
  static override readonly code = "too_many_seeks";
}
export class SeekClosed extends Conflict {
  static override readonly code = "seek_closed";
}
export class ChallengeClosed extends Conflict {
  static override readonly code = "challenge_closed";
}
export class PayloadTooLarge extends error("payload_too_large", 413) {}
/** 429 (or a stream closed with 4429): `retryAfter` is the server's `Retry-After`, in seconds. */
export class RateLimited extends error("rate_limited", 429) {
  retryAfter: number | null = null;
}
export class InternalError extends error("internal_error", 500) {}
export class Unavailable extends error("unavailable", 503) {}

/** Every server error code and its class. */
export const BY_CODE: Readonly<Record<string, typeof ApiError>> = Object.fromEntries(
  [
    ValidationError, IdempotencyKeyReused, Unauthorized, Forbidden, PlayerKeyRequired, Banned, ChatClosed,
    NotFound,
    MethodNotAllowed, IllegalAction, NotYourTurn, MatchOver, VersionConflict, SeatTaken, SeatNotHeld,
    AlreadySeated, AlreadyResigned, MatchNotStarted, MatchStarted, NameTaken, MatchNotFinished, TooManySeeks,
    SeekClosed, ChallengeClosed, PayloadTooLarge, RateLimited, InternalError, Unavailable,
  ].map((cls) => [cls.code, cls]),
);

/** The `ApiError` for an error answer: its envelope if it has one, else the status alone. */
export function apiError(body: unknown, status: number, retryAfter: number | null = null): ApiError {
  const envelope = (body as { error?: { code?: unknown; message?: unknown; details?: unknown } } | null)?.error;
  let code = `http_${status}`;
  let message = `HTTP ${status}`;
  let details: unknown = body;
  if (envelope && typeof envelope.code === "string") {
    code = envelope.code;
    message = typeof envelope.message === "string" ? envelope.message : code;
    details = envelope.details ?? null;
  }
  const cls = BY_CODE[code] ?? (status === 409 ? Conflict : ApiError);
  const error = new cls(message, details, status, code);
  if (error instanceof RateLimited) error.retryAfter = retryAfter;
  return error;
}
