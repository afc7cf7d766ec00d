/**
 * The leaderboards (`#/leaderboard/<game>?offset=<n>`): a game's non-provisional players, best
 * rating first, a page of 20 at a time with links to the previous and next page (the page is in the
 * URL, so it survives a reload and can be shared). Each name links to its profile; built-in and
 * self-declared bots are marked.
 */

import type { Game } from "drago-client";
import { api, describeError } from "../api.js";
import { field, h, replaceChildren } from "../dom.js";
import { t, tn } from "../i18n/index.js";
import type { Page, Route } from "../route.js";
import { profileHref } from "./player.js";

const PAGE = 20;

const href = (game: string, offset: number): string => `#/leaderboard/${encodeURIComponent(game)}${offset ? `?offset=${offset}` : ""}`;

export function leaderboardPage(root: HTMLElement, route: Route): Page {
  const offset = Math.max(0, Number(route.params.get("offset")) || 0);
  const table = h("div", { "aria-live": "polite" }, h("p", {}, t("match.loading")));
  const pick = h("select", { id: "board-game", "data-key": "board-game" });
  pick.addEventListener("change", () => { location.hash = href(pick.value, 0); });
  replaceChildren(root, h("main", { id: "main", class: "leaderboard" },
    h("h1", {}, t("board.title")),
    h("p", { class: "lead" }, t("board.lead")),
    h("div", { class: "filters" }, field(t("lobby.game"), pick)),
    table));

  void api.listGames().then(async (games) => {
    const list = games.items as Game[];
    const game = list.find((g) => g.name === route.args[0]) ?? list[0];
    if (!game) return;
    replaceChildren(pick, list.map((g) => h("option", { value: g.name, selected: g.name === game.name }, g.title)));
    const board = await api.getLeaderboard(game.name, { limit: PAGE + 1, offset });
    const entries = board.entries.slice(0, PAGE);
    const more = board.entries.length > PAGE;
    replaceChildren(table,
      entries.length === 0
        ? h("p", { class: "empty" }, offset ? t("board.past_end") : tn("board.empty", board.min_games))
        : h("table", { class: "ranking", "data-game": game.name },
          h("caption", {}, t("board.caption", { game: game.title })),
          h("thead", {}, h("tr", {},
            h("th", { scope: "col" }, t("board.rank")), h("th", { scope: "col" }, t("board.player")),
            h("th", { scope: "col" }, t("profile.rating")), h("th", { scope: "col" }, t("profile.games")), h("th", { scope: "col" }, t("profile.wins")))),
          h("tbody", {}, entries.map((e) => h("tr", { "data-player": e.player_id },
            h("td", {}, String(e.rank)),
            h("td", {}, h("a", { href: profileHref(e.player_id) }, e.name), e.bot ? [" ", h("small", { class: "bot-flag" }, t("profile.bot"))] : null),
            h("td", {}, e.rating.toFixed(1)), h("td", {}, String(e.games)), h("td", {}, String(e.wins)))))),
      h("nav", { class: "pager", "aria-label": t("board.pages") },
        offset > 0 ? h("a", { href: href(game.name, Math.max(0, offset - PAGE)), class: "button-link", rel: "prev" }, t("board.previous")) : null,
        more ? h("a", { href: href(game.name, offset + PAGE), class: "button-link", rel: "next" }, t("board.next")) : null),
      h("p", { class: "hint" }, tn("board.provisional_note", board.min_games)));
  }).catch((error: unknown) => replaceChildren(table, h("p", { role: "alert", class: "message error" }, describeError(error))));
  return {};
}
