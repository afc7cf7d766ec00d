/**
 * The lobby: public matches with filters (game, status, free seats), paged, each opened to join a
 * seat or to watch; a box that opens a match by id or invite link; and the create form (create.ts).
 */

import type { Game, Match } from "drago-client";
import { api, describeError } from "./api.js";
import { createForm } from "./create.js";
import { button, field, h, replaceChildren } from "./dom.js";
import { matchHref, parseRoute } from "./route.js";

const PAGE = 20;

function seatsText(match: Match): string {
  return match.seats.map((s) => (s.taken ? `${s.name ?? "?"}${s.bot ? " (bot)" : ""}` : "free")).join(", ");
}

function row(match: Match, titles: Map<string, string>): HTMLTableRowElement {
  const free = match.status === "waiting" && match.seats.some((s) => !s.taken);
  const title = titles.get(match.game) ?? match.game;
  return h(
    "tr",
    { "data-match": match.id },
    h("td", {}, title),
    h("td", {}, match.players),
    h("td", {}, match.status),
    h("td", {}, seatsText(match)),
    h("td", {}, new Date(match.created_at).toLocaleString()),
    h(
      "td",
      { class: "links" },
      free ? h("a", { href: matchHref(match.id), "aria-label": `Join ${title} match ${match.id.slice(0, 6)}` }, "Join") : null,
      h("a", { href: matchHref(match.id, { as: "spectator" }), "aria-label": `Watch ${title} match ${match.id.slice(0, 6)}` }, "Watch"),
    ),
  );
}

/** Accepts a match id, a `#/match/…` fragment or a whole link (an invite link included). */
function openTarget(text: string): string | null {
  const value = text.trim();
  if (/^[0-9a-f]{32}$/i.test(value)) return matchHref(value);
  const hash = value.includes("#") ? value.slice(value.indexOf("#")) : "";
  return parseRoute(hash).page === "match" ? hash : null;
}

export function lobbyPage(root: HTMLElement): void {
  const list = h("div", { "aria-live": "polite" });
  const more = h("div");
  const gameFilter = h("select", { id: "filter-game", "data-key": "filter-game" }, h("option", { value: "" }, "any game"));
  const statusFilter = h(
    "select",
    { id: "filter-status", "data-key": "filter-status" },
    ["", "waiting", "active", "finished", "aborted"].map((s) => h("option", { value: s }, s || "any status")),
  );
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
      replaceChildren(
        list,
        shown.length === 0
          ? h("p", {}, "No match here yet: create one below.")
          : h(
              "table",
              { class: "matches" },
              h("caption", {}, `Matches (${page.total})`),
              h("thead", {}, h("tr", {}, ["Game", "Players", "Status", "Seats", "Created", ""].map((t) => h("th", { scope: "col" }, t)))),
              h("tbody", {}, shown.map((m) => row(m, titles))),
            ),
      );
      replaceChildren(more, shown.length < page.total ? button("More matches", () => void load(shown.length)) : null);
    } catch (error) {
      replaceChildren(list, h("p", { role: "alert" }, `The lobby could not be loaded: ${describeError(error)}`));
    }
  }

  for (const control of [gameFilter, statusFilter, openFilter]) control.addEventListener("change", () => void load(0));

  const target = h("input", { id: "open-match", type: "text", placeholder: "match id or invite link", "data-key": "open-match" });
  const openMessage = h("span", { role: "status" });
  const openForm = h(
    "form",
    {
      class: "inline",
      onsubmit: (event: Event) => {
        event.preventDefault();
        const href = openTarget(target.value);
        if (href) location.hash = href;
        else openMessage.textContent = "That is neither a match id nor a match link.";
      },
    },
    field("Open a match", target),
    h("button", { type: "submit" }, "Open"),
    openMessage,
  );

  const createSlot = h("div");
  replaceChildren(
    root,
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
        button("Refresh", () => void load(0)),
      ),
      list,
      more,
      openForm,
    ),
    h("section", { "aria-labelledby": "create-title" }, h("h2", { id: "create-title" }, "Create a match"), createSlot),
  );

  void api.listGames().then(
    (games) => {
      for (const game of games.items) {
        titles.set(game.name, game.title);
        gameFilter.append(h("option", { value: game.name }, game.title));
      }
      createForm(createSlot, games.items as Game[]);
      void load(0);
    },
    (error: unknown) => replaceChildren(list, h("p", { role: "alert" }, `The server did not answer: ${describeError(error)}`)),
  );
}
