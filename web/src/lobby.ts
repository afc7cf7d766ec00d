/**
 * The lobby: the create form (create.ts) and the public matches with filters (game, status, free
 * seats), paged, each opened to join a seat or to watch; and a box that opens a match by id or
 * invite link. Its sections are a list, so quick play and "your matches" can join it as sections.
 */

import type { Game, Match } from "drago-client";
import { api, describeError } from "./api.js";
import { createForm } from "./create.js";
import { button, field, h, replaceChildren } from "./dom.js";
import { dateTime, has, t, tn, type Key } from "./i18n/index.js";
import { matchHref, parseRoute, type Page } from "./route.js";

const PAGE = 20;
const STATUSES = ["waiting", "active", "finished", "aborted"] as const;

const statusText = (status: string): string => (has(`match.status.${status}`) ? t(`match.status.${status}` as Key) : status);

function seatsText(match: Match): string {
  return match.seats.map((s) => (!s.taken ? t("seats.free") : s.bot ? t("lobby.bot_name", { name: s.name ?? "" }) : (s.name ?? ""))).join(" · ");
}

function item(match: Match, titles: Map<string, string>): HTMLLIElement {
  const free = match.status === "waiting" && match.seats.some((s) => !s.taken);
  const title = titles.get(match.game) ?? match.game;
  const short = match.id.slice(0, 6);
  return h("li", { class: "match-item", "data-match": match.id },
    h("span", { class: "game" }, h("strong", {}, title), " ", h("small", {}, tn("create.players_n", match.players))),
    h("span", { class: `status status-${match.status}` }, statusText(match.status)),
    h("span", { class: "seats-text" }, seatsText(match)),
    h("time", { datetime: match.created_at, class: "created" }, dateTime(match.created_at)),
    h("span", { class: "links" },
      free ? h("a", { href: matchHref(match.id), class: "button-link", "aria-label": t("lobby.join_label", { game: title, id: short }) }, t("lobby.join")) : null,
      h("a", { href: matchHref(match.id, { as: "spectator" }), class: "button-link", "aria-label": t("lobby.watch_label", { game: title, id: short }) }, t("lobby.watch"))));
}

/** Accepts a match id, a `#/match/…` fragment or a whole link (an invite link included). */
function openTarget(text: string): string | null {
  const value = text.trim();
  if (/^[0-9a-f]{32}$/i.test(value)) return matchHref(value);
  const hash = value.includes("#") ? value.slice(value.indexOf("#")) : "";
  const route = parseRoute(hash);
  return route.page === "match" && route.args[0] ? hash : null;
}

export function lobbyPage(root: HTMLElement): Page {
  const list = h("div", { class: "match-list", "aria-live": "polite" });
  const more = h("div");
  const gameFilter = h("select", { id: "filter-game", "data-key": "filter-game" }, h("option", { value: "" }, t("lobby.any_game")));
  const statusFilter = h("select", { id: "filter-status", "data-key": "filter-status" },
    h("option", { value: "" }, t("lobby.any_status")), STATUSES.map((s) => h("option", { value: s }, statusText(s))));
  const openFilter = h("input", { type: "checkbox", id: "filter-open", "data-key": "filter-open" });
  const titles = new Map<string, string>();
  let shown: Match[] = [];

  async function load(offset: number): Promise<void> {
    try {
      const page = await api.listMatches({
        game: gameFilter.value || null,
        status: (statusFilter.value || null) as Match["status"] | null,
        open: openFilter.checked ? true : null,
        limit: PAGE,
        offset,
      });
      shown = offset === 0 ? page.items : [...shown, ...page.items];
      replaceChildren(list, shown.length === 0
        ? h("p", { class: "empty" }, t("lobby.empty"))
        : [h("h3", { id: "matches-count" }, tn("lobby.count", page.total)),
          h("ul", { class: "matches", "aria-labelledby": "matches-count" }, shown.map((m) => item(m, titles)))]);
      replaceChildren(more, shown.length < page.total ? button(t("lobby.more"), () => void load(shown.length), { "data-key": "lobby-more" }) : null);
    } catch (error) {
      replaceChildren(list, h("p", { role: "alert" }, t("lobby.failed", { error: describeError(error) })));
    }
  }

  for (const control of [gameFilter, statusFilter, openFilter]) control.addEventListener("change", () => void load(0));

  const target = h("input", { id: "open-match", type: "text", placeholder: t("lobby.open_placeholder"), "data-key": "open-match", autocomplete: "off" });
  const openMessage = h("span", { role: "status" });
  const openForm = h("form", {
    class: "inline open-match",
    onsubmit: (event: Event) => {
      event.preventDefault();
      const href = openTarget(target.value);
      if (href) location.hash = href;
      else openMessage.textContent = t("lobby.open_invalid");
    },
  }, field(t("lobby.open"), target), h("button", { type: "submit" }, t("lobby.open_button")), openMessage);

  const createSlot = h("div");
  replaceChildren(root, h("main", { id: "main", class: "lobby" },
    h("h1", {}, t("lobby.title")),
    h("p", { class: "lead" }, t("lobby.lead")),
    h("div", { class: "lobby-grid" },
      h("section", { class: "panel create-panel", "aria-labelledby": "create-title" }, h("h2", { id: "create-title" }, t("lobby.create")), createSlot),
      h("section", { class: "panel", "aria-labelledby": "lobby-title" },
        h("h2", { id: "lobby-title" }, t("lobby.matches")),
        h("div", { class: "filters", role: "group", "aria-label": t("lobby.filters") },
          field(t("lobby.game"), gameFilter),
          field(t("lobby.status"), statusFilter),
          h("div", { class: "field check" }, openFilter, h("label", { for: "filter-open" }, t("lobby.free_only"))),
          button(t("lobby.refresh"), () => void load(0), { "data-key": "lobby-refresh" })),
        list,
        more,
        openForm))));

  void api.listGames().then(
    (games) => {
      for (const game of games.items) {
        titles.set(game.name, game.title);
        gameFilter.append(h("option", { value: game.name }, game.title));
      }
      createForm(createSlot, games.items as Game[]);
      void load(0);
    },
    (error: unknown) => replaceChildren(list, h("p", { role: "alert" }, t("lobby.unreachable", { error: describeError(error) }))),
  );
  return {};
}
