/**
 * The games' pieces, drawn in code: Mount Drago's dragon tokens and cards, Yutakâ's cards and
 * treasure tiles. Colour is never the only sign: a dragon token carries its letters, a card its
 * name, a tile its type's symbol and name. Colours come from style.css classes (`dragon-blue`,
 * `kind-idol`), so the SVG needs no inline style.
 */

import type { MountDrago, Yutaka } from "drago-client";
import { h, s, type Child } from "../dom.js";
import { t, type Key } from "../i18n/index.js";
import { seatName, type MatchContext } from "../match/context.js";

/** A player's panel: seat number, name, whether it is the viewer and on turn, then the game's own
 * details (`data-fly`: where a card that player plays comes from). */
export function playerPanel(ctx: MatchContext, seat: number, viewer: number | null, turn: boolean, ...details: Child[]): HTMLLIElement {
  return h("li", { class: `player${turn ? " on-turn" : ""}${viewer === seat ? " you" : ""}`, "data-seat-row": seat, "data-fly": `seat:${seat}` },
    h("span", { class: "who" },
      h("span", { class: "seat-badge", "aria-hidden": "true" }, seat + 1),
      h("strong", {}, seatName(ctx, seat)), viewer === seat ? ` (${t("match.you")})` : "",
      turn ? h("span", { class: "turn-flag" }, t("match.on_turn")) : null),
    details);
}

// ---------------------------------------------------------------------------------------------
// Mount Drago

export const dragonName = (dragon: string): string => t(`md.dragon.${dragon}` as Key);
export const dragonShort = (dragon: string): string => t(`md.short.${dragon}` as Key);
export const mdCardText = (card: MountDrago.Card): string => t("md.card", { dragon: dragonName(card.dragon), value: card.value });

// A dragon seen from the front, wings spread, around a round body of radius 10 at (0, 0).
const WINGS = "M-7,-3 L-16,-12 L-13,-4 L-17,-1 L-12,1 L-15,5 L-8,5 Z M7,-3 L16,-12 L13,-4 L17,-1 L12,1 L15,5 L8,5 Z";
const HEAD = "M-5,-8 L-7,-15 L-2,-10 L0,-14 L2,-10 L7,-15 L5,-8 Z";

/** A dragon token (no position): wings and horns in the dragon's colour, its letters on the body,
 * and the rider's seat number on a badge when someone rides it. */
export function dragonToken(dragon: string, rider: number | null, own: boolean, props: Record<string, string> = {}): SVGGElement {
  return s("g", { class: `dragon-token dragon-${dragon}${rider === null ? "" : " ridden"}${own ? " own" : ""}`, "data-dragon": dragon, ...props },
    s("path", { class: "wings", d: `${WINGS} ${HEAD}` }),
    s("circle", { class: "body", r: 10 }),
    s("text", { class: "letters", y: 3.5 }, dragonShort(dragon)),
    rider === null ? null : s("g", { class: "rider" }, s("circle", { cx: 10, cy: 9, r: 6.5 }), s("text", { x: 10, y: 11.8 }, rider + 1)));
}

/** A small standalone dragon icon (for cards and the players' panel), hidden from screen readers:
 * the text beside it names the dragon. */
export function dragonIcon(dragon: string): SVGSVGElement {
  return s("svg", { class: `icon dragon-icon dragon-${dragon}`, viewBox: "-18 -16 36 30", "aria-hidden": "true", focusable: "false" },
    s("path", { class: "wings", d: `${WINGS} ${HEAD}` }), s("circle", { class: "body", r: 10 }));
}

/** A Mount Drago card: its dragon's icon, name and value (`data-card` and `data-zone` for the tests). */
export function mdCard(card: MountDrago.Card, zone: string, extra: Record<string, string> = {}): HTMLElement {
  return h("span", { class: `card md dragon-${card.dragon}`, "data-card": `${card.dragon}-${card.value}`, "data-zone": zone, ...extra },
    dragonIcon(card.dragon), h("span", { class: "name" }, dragonName(card.dragon)), " ", h("span", { class: "value" }, card.value));
}

// ---------------------------------------------------------------------------------------------
// Yutakâ

export const kindName = (kind: string): string => t(`yu.kind.${kind}` as Key);
export const yuCardText = (card: Yutaka.Card): string =>
  card.kind === "dynamite" ? kindName("dynamite") : t("yu.card", { kind: kindName(card.kind), value: card.value });

// One symbol per card kind and tile type, in a 20×20 box centred on (0, 0).
const SYMBOLS: Record<string, string> = {
  idol: "M0,-8 A4,4 0 1 1 0,0 A4,4 0 1 1 0,-8 Z M-6,9 L-4,1 L4,1 L6,9 Z",
  dagger: "M0,-9 L2.5,2 L-2.5,2 Z M-6,2 L6,2 L6,4 L-6,4 Z M-1.5,4 L1.5,4 L1.5,9 L-1.5,9 Z",
  amphora: "M-3,-9 L3,-9 L2,-6 C8,-4 8,5 3,9 L-3,9 C-8,5 -8,-4 -2,-6 Z",
  crystal: "M0,-9 L7,-2 L0,9 L-7,-2 Z",
  equipment: "M-8,-6 C-3,-10 3,-10 8,-6 L6,-4 C2,-7 -2,-7 -6,-4 Z M-1.5,-6 L1.5,-6 L1.5,9 L-1.5,9 Z",
  dynamite: "M-3,-5 L3,-5 L3,9 L-3,9 Z M0,-5 Q1,-8 4,-9 M3,-10 L6,-12 M5,-8 L8,-8",
};

export function kindSymbol(kind: string, props: Record<string, string | number> = {}): SVGPathElement {
  return s("path", { class: `symbol kind-${kind}`, d: SYMBOLS[kind] ?? "", ...props });
}

/** A Yutakâ card in HTML (the hand, the history): symbol, name and value. */
export function yuCard(card: Yutaka.Card, zone: string, extra: Record<string, string> = {}): HTMLElement {
  return h("span", { class: `card yu kind-${card.kind}`, "data-card": `${card.kind}-${card.value}`, "data-zone": zone, ...extra },
    s("svg", { class: "icon", viewBox: "-10 -10 20 20", "aria-hidden": "true", focusable: "false" }, kindSymbol(card.kind)),
    h("span", { class: "name" }, kindName(card.kind)),
    card.kind === "dynamite" ? null : [" ", h("span", { class: "value" }, card.value)]);
}

/** A tile's accessible description: "idol tile, 10 points", "face-down dagger tile", "face-down tile". */
export function tileText(tile: { face_up?: boolean; type: string | null; value: number | null }): string {
  if (tile.face_up !== false && tile.value !== null && tile.type) return t("yu.tile_up", { type: kindName(tile.type), value: tile.value });
  return tile.type ? t("yu.tile_down_typed", { type: kindName(tile.type) }) : t("yu.tile_down");
}

/** A treasure tile of side `size` centred on (0, 0): face down it shows its type's colour and
 * symbol only when the mode makes the type public, never a value; face up, its symbol and value. */
export function tileFace(tile: { face_up: boolean; type: string | null; value: number | null }, size: number): Child {
  const half = size / 2;
  const up = tile.face_up;
  return s("g", { class: `tile-face ${up ? "up" : "down"} type-${tile.type ?? "hidden"}` },
    s("rect", { class: "tile-bg", x: -half, y: -half, width: size, height: size, rx: 5 }),
    tile.type ? s("rect", { class: "cube", x: -half + 5, y: -half + 5, width: size - 10, height: size - 10, rx: 3 }) : null,
    tile.type ? kindSymbol(tile.type, { transform: `translate(0 ${up ? -6 : -3}) scale(${up ? 0.8 : 1})` }) : null,
    up ? s("text", { class: "tile-value", y: half - 7 }, tile.value ?? "") : s("text", { class: "tile-mark", y: tile.type ? half - 5 : 6 }, "?"));
}
