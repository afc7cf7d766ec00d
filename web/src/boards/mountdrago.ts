/**
 * The Mount Drago board: the track of the match (the catalogue's side for the player count, or the
 * match's custom track) with the ten dragons and their riders, every seat's score, hand size and
 * rider pile top card, the viewer's own hand, the pending rider choice, the summit discards and the
 * draw pile. What can be clicked is exactly the view's legal actions: a hand card plays (or, in the
 * discard phase, discards), keep / switch settle the rider, and "End turn" ends the turn.
 */

import type { MountDrago } from "drago-client";
import { button, h, plural, type Child } from "../dom.js";
import { actionAttrs, findLegal, type MatchContext } from "../match/context.js";

type Card = MountDrago.Card;
type View = MountDrago.View;

export const HANDLES: ReadonlySet<string> = new Set(["play", "discard", "choose_rider", "end_turn"]);

const dragonName = (dragon: string): string => dragon.replace("_", " ");
/** Two letters per dragon on the track's tokens (blue/black/brown, green/gray would clash). */
const SHORT: Record<string, string> = {
  blue: "Bu", brown: "Br", black: "Bk", red: "Re", yellow: "Ye", green: "Gn", gray: "Gy", light_blue: "LB", purple: "Pu", orange: "Or",
};
export const cardText = (card: Card): string => `${dragonName(card.dragon)} ${card.value}`;

/** A card: text and colour, and the data attributes the browser tests read (`data-card`, zone). */
export function card(value: Card, zone: string, extra: Record<string, string> = {}): HTMLElement {
  return h("span", { class: `card md dragon-${value.dragon}`, "data-card": `${value.dragon}-${value.value}`, "data-zone": zone, ...extra },
    h("span", { class: "value" }, value.value), " ", h("span", { class: "name" }, dragonName(value.dragon)));
}

interface Catalogue {
  tracks?: Record<string, MountDrago.Space[]>;
  track_by_players?: Record<string, string>;
}

function trackOf(ctx: MatchContext, view: View): { spaces: MountDrago.Space[]; side: string } {
  const catalogue = (ctx.state.detail?.catalogue ?? {}) as Catalogue;
  const side = catalogue.track_by_players?.[String(view.players)];
  const printed = side ? catalogue.tracks?.[side] : undefined;
  if (!view.options.track && printed) return { spaces: printed, side: `board side for ${side} players` };
  return { spaces: view.track, side: "this match's own track" };
}

function riderOf(view: View, dragon: string, names: readonly string[]): number | null {
  const seat = view.riders.indexOf(dragon as MountDrago.Dragon);
  return seat >= 0 && seat < names.length ? seat : null;
}

function track(ctx: MatchContext, view: View): HTMLElement {
  const { spaces, side } = trackOf(ctx, view);
  const dragons = Object.entries(view.positions) as [MountDrago.Dragon, number][];
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
            return h("span", { class: `token dragon-${dragon}${seat === null ? "" : " ridden"}`, "data-dragon": dragon, title: dragonName(dragon) },
              SHORT[dragon] ?? dragon.slice(0, 2), seat === null ? null : h("sup", {}, seat));
          }),
        );
      }),
    ),
  );
}

function dragonsTable(view: View, names: readonly string[], spaces: MountDrago.Space[]): HTMLElement {
  return h(
    "table",
    { class: "dragons" },
    h("caption", {}, "Dragons"),
    h("thead", {}, h("tr", {}, ["Dragon", "Space", "Value", "Rider"].map((t) => h("th", { scope: "col" }, t)))),
    h(
      "tbody",
      {},
      (Object.entries(view.positions) as [string, number][]).map(([dragon, at]) => {
        const seat = riderOf(view, dragon, names);
        const space = spaces[at];
        return h("tr", { "data-dragon-row": dragon },
          h("th", { scope: "row" }, h("span", { class: `swatch dragon-${dragon}`, "aria-hidden": "true" }), " ", dragonName(dragon)),
          h("td", {}, at), h("td", {}, space ? `${space.kind} ${space.value}` : ""), h("td", {}, seat === null ? "—" : names[seat]));
      }),
    ),
  );
}

function players(ctx: MatchContext, view: View): HTMLElement {
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
        return h("tr", { class: turn ? "on-turn" : "", "data-seat-row": seat },
          h("th", { scope: "row" }, turn ? "▶ " : "", ctx.names[seat] ?? `Seat ${seat}`, view.seat === seat ? " (you)" : ""),
          h("td", { "data-score": seat }, score),
          h("td", { "data-hand-size": seat }, view.hand_sizes[seat] ?? 0),
          h("td", {}, dragonName(view.riders[seat] ?? "")),
          h("td", {}, pile ? [card(pile.top, "rider-top", { "data-seat": String(seat) }), ` ×${pile.size}`] : "—"));
      }),
    ),
  );
}

function hand(ctx: MatchContext, view: View): Child {
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
    })),
  );
}

function decisions(ctx: MatchContext, view: View): Child {
  const buttons: HTMLElement[] = [];
  const seat = view.seat ?? -1;
  for (const choice of ["keep", "switch"] as const) {
    const action = findLegal(ctx, { type: "choose_rider", choice });
    if (!action) continue;
    const label = choice === "keep" ? `Keep riding ${dragonName(view.riders[seat] ?? "")}` : `Switch to ${dragonName(view.pending_card?.dragon ?? "")}`;
    buttons.push(button(label, () => ctx.act(action), { class: "primary", ...actionAttrs(ctx, action, label) }));
  }
  const end = findLegal(ctx, { type: "end_turn" });
  if (end) buttons.push(button("End turn", () => ctx.act(end), { class: "primary", ...actionAttrs(ctx, end, "End turn") }));
  return buttons.length ? h("div", { class: "decisions", role: "group", "aria-label": "Decisions" }, buttons) : null;
}

export function mountDragoBoard(ctx: MatchContext, view: View): HTMLElement {
  const spaces = trackOf(ctx, view).spaces;
  return h(
    "div",
    { class: "board md", "data-game": "mount_drago", "data-seq": view.seq, "data-phase": view.phase },
    track(ctx, view),
    h("div", { class: "board-row" },
      players(ctx, view),
      h("section", { class: "summit", "aria-label": "Summit and piles" },
        h("h3", {}, "Summit"),
        h("p", {}, view.summit_dragons.length ? `On the summit: ${view.summit_dragons.map(dragonName).join(", ")}` : "No dragon on the summit yet."),
        h("p", {}, "Summit discards: ", view.discard_pile.length ? view.discard_pile.map((c) => card(c, "discard")) : "none"),
        view.pending_card ? h("p", {}, "Card waiting for the rider choice: ", card(view.pending_card, "pending")) : null,
        h("p", {}, `Draw pile: ${plural(view.draw_pile_size, "card")}`))),
    decisions(ctx, view),
    hand(ctx, view),
    dragonsTable(view, ctx.names, spaces),
  );
}
