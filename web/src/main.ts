/**
 * The reference web client of the Mount Drago and Yutakâ game server: a lobby and a match page,
 * switched by the URL's fragment (route.ts). Everything it shows comes from the public API and
 * the match streams, through the TypeScript client in clients/typescript.
 */

import { lobbyPage } from "./lobby.js";
import { matchPage } from "./match/page.js";
import { parseRoute } from "./route.js";

const root = document.getElementById("app")!;
let dispose: (() => void) | null = null;

function show(): void {
  dispose?.();
  dispose = null;
  const route = parseRoute();
  if (route.page === "match") dispose = matchPage(root, route.matchId, route.params);
  else lobbyPage(root);
  window.scrollTo(0, 0);
}

window.addEventListener("hashchange", show);
show();
