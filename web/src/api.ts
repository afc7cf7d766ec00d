/**
 * The page's one API client (the TypeScript SDK in clients/typescript, bundled from its source) on
 * this page's own origin, and the wording of its errors for people: the server's messages are
 * English for developers, so the page says what an error code means in its own words.
 */

import { ApiError, DragoClient, StreamClosed, TransportError, type GameDetail } from "drago-client";
import { has, t } from "./i18n/index.js";

export const api = new DragoClient(location.origin, { retry: { attempts: 3 } });

/** A short sentence, in the page's language, for an error thrown by the client. */
export function describeError(error: unknown): string {
  if (error instanceof ApiError) {
    const key = `error.${error.code}`;
    return has(key) ? t(key) : t("error.other", { code: error.code });
  }
  if (error instanceof StreamClosed) return t("error.stream_closed", { code: error.code });
  if (error instanceof TransportError) return t("error.transport");
  console.error(error); // a bug of this page: its details are for the console, not for people
  return t("error.unexpected");
}

const games = new Map<string, Promise<GameDetail>>();

/** A game's detail (schemas, catalogue), fetched once per page. */
export function gameDetail(name: string): Promise<GameDetail> {
  let detail = games.get(name);
  if (!detail) {
    detail = api.getGame(name);
    detail.catch(() => games.delete(name));
    games.set(name, detail);
  }
  return detail;
}
