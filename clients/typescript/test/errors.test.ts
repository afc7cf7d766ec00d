/** The error tree mirrors the server's: one class per code, with the same status (read from the
 * server's own `app.service.errors.ALL_ERRORS`). */

import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { test } from "node:test";

import { ApiError, BY_CODE, Conflict, DragoError, NotYourTurn, RateLimited, apiError } from "../src/index.js";
import { PYTHON, REPO } from "./server.js";

const LIST = "import json; from app.service.errors import ALL_ERRORS, Conflict as C; " +
  "print(json.dumps({c.code: [c.http_status, issubclass(c, C)] for c in ALL_ERRORS}))";

test("every server code has its class, with the same status, conflicts as conflicts", () => {
  const server = JSON.parse(execFileSync(PYTHON, ["-c", LIST], { cwd: REPO, encoding: "utf8" })) as Record<string, [number, boolean]>;
  const client = Object.fromEntries(Object.entries(BY_CODE).map(([code, cls]) => [code, [cls.status, cls.prototype instanceof Conflict]]));
  assert.deepEqual(client, server);
});

test("an envelope becomes its class; an unknown code falls back on its status", () => {
  const error = apiError({ error: { code: "not_your_turn", message: "not yet", details: { to_act: [1] } } }, 409);
  assert.ok(error instanceof NotYourTurn && error instanceof Conflict && error instanceof DragoError);
  assert.deepEqual([error.code, error.status, error.message, error.details, error.name], ["not_your_turn", 409, "not yet", { to_act: [1] }, "NotYourTurn"]);
  const unknown = apiError({ error: { code: "brand_new", message: "m" } }, 409);
  assert.ok(unknown instanceof Conflict && unknown.code === "brand_new");
  const proxy = apiError("<html>bad gateway</html>", 502);
  assert.ok(proxy.constructor === ApiError && proxy.status === 502 && proxy.code === "http_502");
  const limited = apiError({ error: { code: "rate_limited", message: "slow" } }, 429, 2.5);
  assert.ok(limited instanceof RateLimited && limited.retryAfter === 2.5);
});
