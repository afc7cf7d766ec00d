/**
 * The page's one API client (the TypeScript SDK in clients/typescript, bundled from its source) on
 * this page's own origin, and the wording of its errors for people.
 */

import { ApiError, DragoClient, type GameDetail } from "drago-client";

export const api = new DragoClient(location.origin, { retry: { attempts: 3 } });

/** A short sentence for an error thrown by the client. */
export function describeError(error: unknown): string {
  if (error instanceof ApiError) return `${error.message} (${error.code})`;
  if (error instanceof Error) return error.message;
  return String(error);
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
