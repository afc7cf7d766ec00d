/**
 * A player's profile (`#/player/<id>`): its name, whether it says it is a bot (or is one of the
 * server's built-in bots), and per game its rating, games, wins and a chart of its rating over its
 * rated matches (chart.ts); a provisional rating is marked so. The player this browser plays as may
 * challenge the player from here: the challenge goes to "my matches" on both sides.
 */

import type { Game, GameRating, Profile } from "drago-client";
import { api, describeError } from "../api.js";
import { field, h, replaceChildren } from "../dom.js";
import { dateTime, t } from "../i18n/index.js";
import type { Page } from "../route.js";
import { ratingChart } from "./chart.js";
import { identity } from "./player.js";

const fixed = (n: number): string => n.toFixed(1);

export function profilePage(root: HTMLElement, playerId: string): Page {
  const titles = new Map<string, string>();
  const main = h("main", { id: "main", class: "profile" }, h("h1", {}, t("profile.title")), h("p", {}, t("match.loading")));
  replaceChildren(root, main);

  function gameSection(profile: Profile, rating: GameRating): HTMLElement {
    const title = titles.get(rating.game) ?? rating.game;
    const chartSlot = h("div", { class: "chart" }, h("p", {}, t("match.loading")));
    void api.getRatingHistory(profile.player_id, rating.game).then(
      (history) => replaceChildren(chartSlot, ratingChart(history.points, t("profile.chart_title", { game: title }))),
      (error: unknown) => replaceChildren(chartSlot, h("p", { role: "alert" }, describeError(error))));
    const id = `rating-${rating.game}`;
    return h("section", { class: "panel", "aria-labelledby": id, "data-game": rating.game },
      h("h2", { id }, title),
      h("dl", { class: "facts" },
        h("dt", {}, t("profile.rating")), h("dd", { "data-rating": fixed(rating.rating) }, fixed(rating.rating), rating.provisional ? [" ", h("small", {}, t("profile.provisional"))] : null),
        h("dt", {}, t("profile.games")), h("dd", {}, String(rating.games)),
        h("dt", {}, t("profile.wins")), h("dd", {}, String(rating.wins)),
        h("dt", {}, t("profile.last_played")), h("dd", {}, dateTime(rating.last_played))),
      chartSlot);
  }

  function challengeForm(profile: Profile, games: readonly Game[]): HTMLElement | null {
    const me = identity();
    if (!me || me.player_id === profile.player_id) return null;
    const game = h("select", { id: "challenge-game", "data-key": "challenge-game" }, games.map((g) => h("option", { value: g.name }, g.title)));
    const message = h("p", { class: "message", role: "status" });
    return h("section", { class: "panel", "aria-labelledby": "challenge-title" },
      h("h2", { id: "challenge-title" }, t("profile.challenge_title", { name: profile.name })),
      h("form", {
        class: "inline",
        onsubmit: (event: Event) => {
          event.preventDefault();
          message.textContent = t("profile.challenging");
          api.createChallenge({ to: [profile.player_id], game: game.value }, { token: me.key }).then(
            () => replaceChildren(message, t("profile.challenged"), " ", h("a", { href: "#/me" }, t("nav.mine"))),
            (error: unknown) => { message.textContent = describeError(error); });
        },
      }, field(t("lobby.game"), game), h("button", { type: "submit", class: "primary", "data-key": "challenge-send" }, t("profile.challenge"))),
      message);
  }

  void Promise.all([api.getPlayerProfile(playerId), api.listGames()]).then(([profile, games]) => {
    for (const g of games.items) titles.set(g.name, g.title);
    replaceChildren(main,
      h("h1", { "data-player": profile.player_id }, profile.name, profile.bot ? [" ", h("span", { class: "bot-flag", "data-bot": "yes" }, t("profile.bot"))] : null),
      profile.bot ? h("p", { class: "hint" }, t("profile.bot_hint")) : null,
      profile.ratings.length ? profile.ratings.map((rating) => gameSection(profile, rating)) : h("p", { class: "empty" }, t("profile.no_ratings")),
      challengeForm(profile, games.items as Game[]),
      h("p", {}, h("a", { href: "#/leaderboard" }, t("nav.leaderboards"))));
  }, (error: unknown) => replaceChildren(main, h("h1", {}, t("profile.title")), h("p", { role: "alert", class: "message error" }, describeError(error))));
  return {};
}
