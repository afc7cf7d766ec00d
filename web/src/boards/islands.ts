/**
 * Yutakâ's table in SVG: the sea, the five islands side by side (on a phone, one under the other),
 * each with its four tile slots and both players' card columns — the opponent's above (on a phone,
 * the upper row), the viewer's below — and the five tiles set aside. Tiles show what the view
 * shows: face down a black tile, or its type's colour and symbol when the mode makes the type
 * public; face up its type and value. A tile that may be revealed, and an island where the picked
 * card may be played, are buttons (`role="button"`, in the keyboard's reach).
 */

import type { Yutaka } from "drago-client";
import { s, svgButton } from "../dom.js";
import { t, tn } from "../i18n/index.js";
import { kindName, kindSymbol, tileFace, tileText, yuCardText } from "./pieces.js";

type Card = Yutaka.Card;

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface IslandLayout {
  width: number;
  height: number;
  compact: boolean;
  tile: number;
  /** Per island: its shape's box, its name's position, the centre of each slot, each side's column. */
  islands: { shape: Box; name: { x: number; y: number }; slots: { x: number; y: number }[]; columns: [Box, Box] }[];
  setAside: { label: { x: number; y: number }; slots: { x: number; y: number }[] };
}

const CARD_W = 128; // a card in a column (wide layout)
const CARD_H = 23;
const CARD_STEP = 26;
const MAX_CARDS = 5;

/** Column 0 is the upper one (the opponent's), column 1 the lower one (the viewer's). */
export function layoutIslands(count: number, compact: boolean): IslandLayout {
  if (compact) {
    const width = 400;
    const band = 142;
    const tile = 44;
    const islands = Array.from({ length: count }, (_, i) => {
      const top = 30 + i * band;
      const cx = 76;
      const cy = top + 80;
      return {
        shape: { x: 4, y: top + 4, width: 146, height: band - 10 },
        name: { x: cx, y: top + 24 },
        slots: [0, 1, 2, 3].map((slot) => ({ x: cx + (slot % 2 ? 24 : -24), y: cy + (slot < 2 ? -22 : 26) })),
        columns: [
          { x: 158, y: top + 8, width: 238, height: 56 },
          { x: 158, y: top + 72, width: 238, height: 56 },
        ] as [Box, Box],
      };
    });
    const y = 30 + count * band + 20;
    return {
      width, height: y + 64, compact, tile, islands,
      setAside: { label: { x: 8, y }, slots: [0, 1, 2, 3, 4].map((i) => ({ x: 30 + i * 52, y: y + 30 })) },
    };
  }
  const width = 980;
  const column = width / count;
  const tile = 50;
  const islands = Array.from({ length: count }, (_, i) => {
    const cx = column * i + column / 2;
    return {
      shape: { x: cx - column / 2 + 8, y: 166, width: column - 16, height: 160 },
      name: { x: cx, y: 196 },
      slots: [0, 1, 2, 3].map((slot) => ({ x: cx + (slot % 2 ? 29 : -29), y: 238 + (slot < 2 ? 0 : 56) })),
      columns: [
        { x: cx - CARD_W / 2, y: 28, width: CARD_W, height: MAX_CARDS * CARD_STEP + 8 },
        { x: cx - CARD_W / 2, y: 330, width: CARD_W, height: MAX_CARDS * CARD_STEP + 8 },
      ] as [Box, Box],
    };
  });
  return {
    width, height: 560, compact, tile, islands,
    setAside: { label: { x: 12, y: 524 }, slots: [0, 1, 2, 3, 4].map((i) => ({ x: 720 + i * 48, y: 522 })) },
  };
}

/** Where card `index` of a column stands: the first card next to the island. */
export function cardBox(layout: IslandLayout, column: Box, upper: boolean, index: number): Box {
  if (layout.compact) return { x: column.x + index * 47, y: column.y + 4, width: 44, height: 48 };
  const y = upper ? column.y + column.height - 4 - (index + 1) * CARD_STEP : column.y + 4 + index * CARD_STEP;
  return { x: column.x, y, width: CARD_W, height: CARD_H };
}

function cardShape(card: Card, box: Box, compact: boolean, props: Record<string, string>): SVGGElement {
  const value = card.kind === "dynamite" ? "" : String(card.value);
  return s("g", { class: `col-card kind-${card.kind}`, transform: `translate(${box.x} ${box.y})`, role: "img", "aria-label": yuCardText(card), ...props },
    s("rect", { class: "card-bg", width: box.width, height: box.height, rx: 4 }),
    compact
      ? [kindSymbol(card.kind, { transform: `translate(${box.width / 2} 15) scale(.9)` }), s("text", { class: "card-value", x: box.width / 2, y: box.height - 7 }, value)]
      : [kindSymbol(card.kind, { transform: `translate(12 ${box.height / 2}) scale(.75)` }),
        s("text", { class: "card-name", x: 26, y: box.height / 2 + 4.5 }, kindName(card.kind)),
        s("text", { class: "card-value", x: box.width - 10, y: box.height / 2 + 5 }, value)]);
}

export interface TableDrawing {
  layout: IslandLayout;
  islands: readonly Yutaka.IslandView[];
  /** The seat drawn above (column 0) and below (column 1). */
  seats: [number, number];
  names: readonly string[];
  setAside: readonly Yutaka.Tile[] | null;
  setAsideCount: number;
  /** The newest card played: drawn highlighted. */
  latest: { island: number; side: number; index: number } | null;
  /** A tile that may be revealed now, as its action (or none). */
  reveal(island: number, slot: number): { attrs: Record<string, string>; act(): void } | null;
  /** Where the picked card may be played: the action on that island (or none). */
  target(island: number): { side: number; label: string; attrs: Record<string, string>; act(): void; cancel(): void } | null;
  captionId: string;
}

function tileSlot(drawing: TableDrawing, island: Yutaka.IslandView, tile: Yutaka.TileView, at: { x: number; y: number }): SVGGElement {
  const attrs: Record<string, string> = {
    class: `tile${tile.face_up ? " up" : " down"}`,
    transform: `translate(${at.x} ${at.y})`,
    "data-island": String(island.island),
    "data-slot": String(tile.slot),
    "data-face": tile.face_up ? "up" : "down",
  };
  if (tile.type) attrs["data-type"] = tile.type;
  if (tile.value !== null) attrs["data-value"] = String(tile.value);
  const size = drawing.layout.tile;
  const reveal = tile.face_up ? null : drawing.reveal(island.island, tile.slot);
  const face = tileFace(tile, size);
  if (!reveal) return s("g", { ...attrs, role: "img", "aria-label": tileText(tile) }, face);
  const ring = s("rect", { class: "focus-ring", x: -size / 2 - 4, y: -size / 2 - 4, width: size + 8, height: size + 8, rx: 7 });
  return svgButton(s("g", { ...attrs, ...reveal.attrs, class: `${attrs.class} can-reveal`, role: "button", tabindex: 0 }, ring, face), reveal.act) as SVGGElement;
}

function column(drawing: TableDrawing, island: Yutaka.IslandView, position: 0 | 1): SVGGElement {
  const { layout } = drawing;
  const seat = drawing.seats[position];
  const box = layout.islands[island.island]!.columns[position];
  const cards = island.cards[seat] ?? [];
  const sum = cards.reduce((total, c) => total + c.value, 0);
  const name = drawing.names[seat] ?? "";
  const label = cards.length
    ? t("yu.column", { name, island: island.name, cards: cards.map(yuCardText).join(", "), sum })
    : t("yu.column_empty", { name, island: island.name });
  const target = drawing.target(island.island);
  const drop = target && target.side === seat
    ? svgButton(s("g", { class: "target", role: "button", tabindex: 0, "data-group": "target", ...target.attrs },
        s("rect", { class: "target-area", x: box.x - 3, y: box.y - 3, width: box.width + 6, height: box.height + 6, rx: 8 }),
        s("text", { class: "target-plus", x: box.x + box.width / 2, y: box.y + box.height / 2 + 8 }, "+")), target.act)
    : null;
  drop?.addEventListener("keydown", (event) => {
    if ((event as KeyboardEvent).key === "Escape") target!.cancel();
  });
  return s("g", { class: `column${position === 1 ? " near" : ""}`, "data-column": seat, role: "group", "aria-label": label },
    s("rect", { class: "column-bg", x: box.x - 3, y: box.y - 3, width: box.width + 6, height: box.height + 6, rx: 8 }),
    cards.map((card, index) => {
      const latest = drawing.latest && drawing.latest.island === island.island && drawing.latest.side === seat && drawing.latest.index === index;
      return cardShape(card, cardBox(layout, box, position === 0, index), layout.compact,
        { "data-card": `${card.kind}-${card.value}`, "data-zone": "column", "data-seat": String(seat), ...(latest ? { class: `col-card kind-${card.kind} latest` } : {}) });
    }),
    !layout.compact && cards.length ? s("text", { class: "column-sum", x: box.x + box.width + 6, y: position === 0 ? box.y + box.height - 8 : box.y + 20, "aria-hidden": "true" }, `Σ${sum}`) : null,
    drop);
}

function islandShape(box: Box): string {
  const { x, y, width: w, height: hgt } = box;
  // A rounded, slightly irregular coast.
  return `M${x + w * 0.12},${y + hgt * 0.18} C${x + w * 0.3},${y - hgt * 0.04} ${x + w * 0.7},${y + hgt * 0.02} ${x + w * 0.9},${y + hgt * 0.16} ` +
    `C${x + w * 1.03},${y + hgt * 0.35} ${x + w * 0.99},${y + hgt * 0.8} ${x + w * 0.84},${y + hgt * 0.93} ` +
    `C${x + w * 0.6},${y + hgt * 1.04} ${x + w * 0.3},${y + hgt * 0.99} ${x + w * 0.12},${y + hgt * 0.9} ` +
    `C${x - w * 0.02},${y + hgt * 0.75} ${x - w * 0.01},${y + hgt * 0.35} ${x + w * 0.12},${y + hgt * 0.18} Z`;
}

export function tableSvg(drawing: TableDrawing): SVGSVGElement {
  const { layout } = drawing;
  const [upper, lower] = drawing.seats;
  return s("svg", { class: `table${layout.compact ? " compact" : ""}`, viewBox: `0 0 ${layout.width} ${layout.height}`, role: "group", "aria-labelledby": drawing.captionId },
    s("rect", { class: "sea", width: layout.width, height: layout.height, rx: 14, "aria-hidden": "true" }),
    layout.compact
      ? s("text", { class: "side-label", x: 8, y: 20, "aria-hidden": "true" }, t("yu.rows", { upper: drawing.names[upper] ?? "", lower: drawing.names[lower] ?? "" }))
      : [
        s("text", { class: "side-label", x: 10, y: 18, "aria-hidden": "true" }, t("yu.side_label", { name: drawing.names[upper] ?? "" })),
        s("text", { class: "side-label", x: 10, y: 484, "aria-hidden": "true" }, t("yu.side_label", { name: drawing.names[lower] ?? "" })),
      ],
    drawing.islands.map((island) => {
      const place = layout.islands[island.island];
      if (!place) return null;
      return s("g", { class: "island", "data-island-box": island.island, role: "group", "aria-label": island.name },
        s("path", { class: "island-shape", d: islandShape(place.shape), "aria-hidden": "true" }),
        s("text", { class: "island-name", x: place.name.x, y: place.name.y, "aria-hidden": "true" }, island.name),
        s("g", { class: "tiles", role: "group", "aria-label": t("yu.tiles_of", { island: island.name }) },
          island.tiles.map((tile) => tileSlot(drawing, island, tile, place.slots[tile.slot] ?? place.slots[0]!))),
        column(drawing, island, 0),
        column(drawing, island, 1));
    }),
    s("g", { class: "set-aside", role: "group", "aria-label": drawing.setAside ? t("yu.set_aside_open") : tn("yu.set_aside_hidden", drawing.setAsideCount) },
      s("text", { class: "side-label", x: layout.setAside.label.x, y: layout.setAside.label.y, "aria-hidden": "true" },
        drawing.setAside ? t("yu.set_aside_open") : tn("yu.set_aside_hidden", drawing.setAsideCount)),
      drawing.setAside
        ? drawing.setAside.map((tile, i) => s("g", { class: "tile up", transform: `translate(${layout.setAside.slots[i]?.x ?? 0} ${layout.setAside.slots[i]?.y ?? 0})`,
            "data-zone": "set-aside", "data-type": tile.type, "data-value": String(tile.value), role: "img", "aria-label": tileText(tile) },
            tileFace({ face_up: true, type: tile.type, value: tile.value }, 40)))
        : Array.from({ length: drawing.setAsideCount }, (_, i) => s("g", { class: "tile down", transform: `translate(${layout.setAside.slots[i]?.x ?? 0} ${layout.setAside.slots[i]?.y ?? 0})`,
            "data-zone": "set-aside-hidden", "aria-hidden": "true" }, tileFace({ face_up: false, type: null, value: null }, 40)))));
}
