/**
 * The Yutakâ board: the five islands, each with the opponent's column above its four tile slots and
 * the viewer's column below (a spectator sees seat 1 above, seat 0 below); face-down tiles as the
 * mode shows them (black, or the type's colour without a value), revealed tiles with their value;
 * the viewer's hand, hand and deck sizes, the set-aside tiles once public. A face-down tile whose
 * reveal is legal is a button; a hand card is picked first, then an island where playing it is legal.
 */

import type { Yutaka } from "drago-client";
import { button, h, plural, type Child } from "../dom.js";
import { actionAttrs, findLegal, legal, type MatchContext } from "../match/context.js";

type Card = Yutaka.Card;
type View = Yutaka.View;

export const HANDLES: ReadonlySet<string> = new Set(["play", "reveal", "end_turn"]);

export const cardText = (c: Card): string => (c.kind === "dynamite" ? "dynamite" : `${c.kind} ${c.value}`);

export function card(value: Card, zone: string, extra: Record<string, string> = {}): HTMLElement {
  return h("span", { class: `card yu kind-${value.kind}`, "data-card": `${value.kind}-${value.value}`, "data-zone": zone, ...extra },
    value.kind === "dynamite" ? "✹" : h("span", { class: "value" }, value.value), " ", h("span", { class: "name" }, value.kind));
}

function tile(ctx: MatchContext, island: number, t: Yutaka.TileView): HTMLElement {
  const attrs: Record<string, string> = {
    class: `tile ${t.face_up ? "up" : "down"} type-${t.type ?? "hidden"}`,
    "data-island": String(island),
    "data-slot": String(t.slot),
    "data-face": t.face_up ? "up" : "down",
  };
  if (t.type) attrs["data-type"] = t.type;
  if (t.value !== null) attrs["data-value"] = String(t.value);
  const text = t.face_up ? `${t.type} ${t.value}` : t.type ? `${t.type} ?` : "?";
  const label = t.face_up ? `tile ${t.type} ${t.value}` : t.type ? `face-down ${t.type} tile` : "face-down tile";
  const reveal = t.face_up ? undefined : findLegal(ctx, { type: "reveal", island, slot: t.slot });
  if (reveal) {
    const name = `Reveal the ${label} in slot ${t.slot} of ${islandName(ctx, island)}`;
    return button(text, () => ctx.act(reveal), { ...attrs, ...actionAttrs(ctx, reveal, name) });
  }
  return h("span", { ...attrs, role: "img", "aria-label": label }, text);
}

function islandName(ctx: MatchContext, island: number): string {
  const view = ctx.view as View;
  return view.islands[island]?.name ?? `island ${island}`;
}

function column(cards: Card[], seat: number, owner: string, isle: string): HTMLElement {
  return h("div", { class: "side-box" },
    h("span", { class: "owner", "aria-hidden": "true" }, owner),
    h("ol", { class: "column", "aria-label": `${owner}'s cards on ${isle}`, "data-column": seat },
      cards.map((c) => h("li", {}, card(c, "column", { "data-seat": String(seat) })))));
}

function picked(ctx: MatchContext, view: View): Card | null {
  const chosen = ctx.state.ui.yutakaCard as number | undefined;
  const c = chosen === undefined ? undefined : view.hand?.[chosen];
  return c ?? null;
}

function island(ctx: MatchContext, view: View, isle: Yutaka.IslandView, below: number): HTMLElement {
  const above = 1 - below;
  const chosen = picked(ctx, view);
  const play = chosen ? findLegal(ctx, { type: "play", card: chosen, island: isle.island }) : undefined;
  const name = (seat: number) => ctx.names[seat] ?? `Seat ${seat}`;
  return h(
    "section",
    { class: "island", "data-island-box": isle.island, "aria-label": isle.name },
    h("h3", {}, isle.name),
    column(isle.cards[above] ?? [], above, name(above), isle.name),
    h("div", { class: "tiles", role: "group", "aria-label": `Tiles of ${isle.name}` }, isle.tiles.map((t) => tile(ctx, isle.island, t))),
    column(isle.cards[below] ?? [], below, name(below), isle.name),
    play && chosen
      ? button(`Play here`, () => { delete ctx.state.ui.yutakaCard; ctx.act(play); },
        { class: "primary target", ...actionAttrs(ctx, play, `Play ${cardText(chosen)} on ${isle.name}`) })
      : null,
  );
}

function hand(ctx: MatchContext, view: View): Child {
  if (view.hand === null) return null;
  const plays = legal(ctx).filter((a) => a.type === "play");
  const chosen = ctx.state.ui.yutakaCard as number | undefined;
  return h(
    "section",
    { class: "hand", "aria-label": "Your hand" },
    h("h3", {}, "Your hand", plays.length ? " — pick a card, then an island" : ""),
    h("div", { class: "cards" }, view.hand.map((c, index) => {
      const face = card(c, "hand", { "data-index": String(index) });
      if (!plays.some((a) => JSON.stringify(a.card) === JSON.stringify(c))) return face;
      const pressed = chosen === index;
      return button(face, () => {
        if (pressed) delete ctx.state.ui.yutakaCard;
        else ctx.state.ui.yutakaCard = index;
        ctx.update();
      }, { class: "card-button", "aria-pressed": pressed ? "true" : "false", "aria-label": `Pick ${cardText(c)}`, "data-pick": String(index), "data-key": `pick:${index}` });
    })),
  );
}

function phaseText(ctx: MatchContext, view: View): string {
  const name = (seat: number | null | undefined) => (seat === null || seat === undefined ? "" : (ctx.names[seat] ?? `Seat ${seat}`));
  switch (view.phase) {
    case "opening": return `Opening reveals: ${view.opening_reveals_left} left (${name(view.to_act[0])} reveals)`;
    case "play": return `${name(view.turn)} plays a card`;
    case "confirm": return `${name(view.turn)} ends the turn`;
    case "reveal": return `${name(view.to_act[0])} reveals a tile`;
    default: return view.status === "finished" ? "The game is over" : view.phase;
  }
}

export function yutakaBoard(ctx: MatchContext, view: View): HTMLElement {
  const below = view.seat ?? 0;
  const end = findLegal(ctx, { type: "end_turn" });
  const name = (seat: number) => ctx.names[seat] ?? `Seat ${seat}`;
  const seats = view.hand_sizes.map((size, seat) =>
    h("li", { "data-seat-row": seat }, `${name(seat)}${view.seat === seat ? " (you)" : ""}: ${plural(size, "card")} in hand, ${plural(view.deck_sizes[seat] ?? 0, "card")} in deck`));
  return h(
    "div",
    { class: "board yu", "data-game": "yutaka", "data-seq": view.seq, "data-phase": view.phase },
    h("p", { class: "phase" }, phaseText(ctx, view), ` · mode ${view.options.mode ?? "mysteria"} · ${plural(view.face_down, "face-down tile")} left`),
    h("ul", { class: "yu-seats" }, seats),
    h("div", { class: "islands" }, view.islands.map((isle) => island(ctx, view, isle, below))),
    end ? h("div", { class: "decisions" }, button("End turn", () => ctx.act(end), { class: "primary", ...actionAttrs(ctx, end, "End turn") })) : null,
    hand(ctx, view),
    h("p", { class: "set-aside" }, view.set_aside
      ? ["Set aside: ", view.set_aside.map((t) => h("span", { class: `tile up type-${t.type}`, "data-zone": "set-aside", "data-type": t.type, "data-value": String(t.value) }, `${t.type} ${t.value}`))]
      : `${plural(view.set_aside_count, "tile")} set aside, face down`),
  );
}
