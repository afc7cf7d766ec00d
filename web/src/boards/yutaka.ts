/**
 * The Yutakâ board: the table of five islands (islands.ts) with the opponent's columns above and
 * the viewer's below (a spectator sees seat 2 above, seat 1 below), both players' hand and deck
 * sizes, the viewer's hand. A face-down tile whose reveal is legal is a button; a hand card is
 * picked first — the focus then moves to the first island where it may be played (Escape puts
 * it back) — and an island's column is then the button that plays it there.
 */

import type { Event, Yutaka } from "drago-client";
import { button, h, type Child } from "../dom.js";
import { t, tn } from "../i18n/index.js";
import { actionAttrs, findLegal, legal, seatName, type MatchContext } from "../match/context.js";
import { flip, flyFrom, type Places } from "../match/motion.js";
import { layoutIslands, tableSvg, type IslandLayout } from "./islands.js";
import { kindName, playerPanel, tileText, yuCard, yuCardText } from "./pieces.js";

type Card = Yutaka.Card;
type View = Yutaka.View;

export const HANDLES: ReadonlySet<string> = new Set(["play", "reveal", "end_turn"]);

const layouts = new Map<string, IslandLayout>();
function layoutOf(count: number, compact: boolean): IslandLayout {
  const key = `${count}:${compact}`;
  let layout = layouts.get(key);
  if (!layout) layouts.set(key, (layout = layoutIslands(count, compact)));
  return layout;
}

function picked(ctx: MatchContext, view: View): { index: number; card: Card } | null {
  const index = ctx.state.ui.yutakaCard as number | undefined;
  const card = index === undefined ? undefined : view.hand?.[index];
  return card && index !== undefined ? { index, card } : null;
}

/** The newest card played up to the shown seq: which island, side and place in that column. */
function latestPlay(events: readonly Event[], view: View): { island: number; side: number; index: number; seat: number; card: Card } | null {
  for (let i = events.length - 1; i >= 0; i--) {
    const event = events[i]!;
    if (event.seq > view.seq || event.type !== "card_played") continue;
    const data = event.data as Yutaka.CardPlayed;
    const column = view.islands[data.island]?.cards[data.side] ?? [];
    return { island: data.island, side: data.side, index: column.length - 1, seat: data.seat, card: data.card };
  }
  return null;
}

function turnText(ctx: MatchContext, view: View): string {
  if (view.status === "waiting") return t("match.waiting_players");
  if (view.status !== "active") return t("yu.turn.over");
  const actor = view.to_act[0];
  const mine = ctx.playing && actor === view.seat;
  const who = actor === undefined ? "" : seatName(ctx, actor);
  switch (view.phase) {
    case "opening": return mine
      ? tn("yu.turn.you_open", view.opening_reveals_left)
      : tn("yu.turn.opens", view.opening_reveals_left, { name: who });
    case "play": return mine ? t("yu.turn.you_play") : t("yu.turn.plays", { name: who });
    case "confirm": return mine ? t("yu.turn.you_confirm") : t("yu.turn.confirms", { name: who });
    case "reveal": return mine ? t("yu.turn.you_reveal") : t("yu.turn.reveals", { name: who });
    default: return t("yu.turn.wait");
  }
}

function seats(ctx: MatchContext, view: View): HTMLElement {
  return h("ol", { class: "players", "aria-label": t("yu.players") }, view.hand_sizes.map((size, seat) => {
    const turn = view.status === "active" && view.to_act.includes(seat);
    return playerPanel(ctx, seat, view.seat, turn,
      h("span", { "data-hand-size": seat }, tn("yu.hand_cards", size)),
      h("span", {}, tn("yu.deck_cards", view.deck_sizes[seat] ?? 0)));
  }));
}

function hand(ctx: MatchContext, view: View): Child {
  if (view.hand === null) return null;
  const plays = legal(ctx).filter((a) => a.type === "play");
  const chosen = picked(ctx, view);
  return h("section", { class: "hand", "aria-labelledby": "hand-title" },
    h("h2", { id: "hand-title" }, t("yu.hand"), plays.length ? h("small", {}, ` — ${t("yu.hand_hint")}`) : null),
    h("div", { class: "cards" }, view.hand.map((c, index) => {
      const face = yuCard(c, "hand", { "data-index": String(index) });
      const common = { class: "card-button", "data-key": `pick:${index}`, "data-group": "hand", "data-fly": `hand:${c.kind}-${c.value}` };
      const text = yuCardText(c);
      if (!plays.some((a) => JSON.stringify(a.card) === JSON.stringify(c))) return button(face, () => undefined, { ...common, "aria-label": text, "aria-disabled": "true" });
      const pressed = chosen?.index === index;
      return button(face, () => {
        if (pressed) delete ctx.state.ui.yutakaCard;
        else ctx.state.ui.yutakaCard = index;
        ctx.update();
        if (!pressed) document.querySelector<SVGElement>('[data-group="target"]')?.focus();
      }, { ...common, "aria-pressed": pressed ? "true" : "false", "aria-label": t("yu.pick", { card: text }), "data-pick": String(index) });
    })));
}

export function yutakaBoard(ctx: MatchContext, view: View): HTMLElement {
  const layout = layoutOf(view.islands.length, ctx.compact);
  const below = view.seat ?? 0;
  const above = 1 - below;
  const chosen = picked(ctx, view);
  const end = findLegal(ctx, { type: "end_turn" });
  const mode = view.options.mode ?? "mysteria";
  const latest = latestPlay(ctx.state.events, view);
  const islandName = (island: number) => view.islands[island]?.name ?? "";
  const table = tableSvg({
    layout,
    islands: view.islands,
    seats: [above, below],
    names: [0, 1].map((seat) => seatName(ctx, seat)),
    setAside: view.set_aside,
    setAsideCount: view.set_aside_count,
    latest,
    captionId: "table-caption",
    reveal(island, slot) {
      const action = findLegal(ctx, { type: "reveal", island, slot });
      if (!action) return null;
      const tile = view.islands[island]?.tiles.find((x) => x.slot === slot);
      const label = t("yu.reveal", { tile: tile ? tileText(tile) : "", island: islandName(island), slot: slot + 1 });
      return { attrs: { ...actionAttrs(ctx, action, label), "data-group": "tile" }, act: () => ctx.act(action) };
    },
    target(island) {
      if (!chosen) return null;
      const action = findLegal(ctx, { type: "play", card: chosen.card, island });
      if (!action) return null;
      const side = chosen.card.kind === "dynamite" ? above : below;
      const label = t("yu.play_on", { card: yuCardText(chosen.card), island: islandName(island) });
      return {
        side, label,
        attrs: { ...actionAttrs(ctx, action, label), "data-key": `target:${island}` },
        act: () => { delete ctx.state.ui.yutakaCard; ctx.act(action); },
        cancel: () => {
          delete ctx.state.ui.yutakaCard;
          ctx.update();
          document.querySelector<HTMLElement>(`[data-key="pick:${chosen.index}"]`)?.focus();
        },
      };
    },
  });
  const modeText = mode === "mixed"
    ? t("yu.mode_mixed_known", { types: (view.options.known_types ?? []).map(kindName).join(", ") || "—" })
    : t(`yu.mode.${mode}`);
  return h("div", { class: "board yu", "data-game": "yutaka", "data-seq": view.seq, "data-phase": view.phase },
    h("p", { class: "turn-banner", "data-mine": ctx.playing && view.to_act.includes(view.seat ?? -1) ? "yes" : "no" }, turnText(ctx, view)),
    h("figure", { class: "table-figure" },
      h("figcaption", { id: "table-caption" }, t("yu.caption", { mode: modeText }), " · ", tn("yu.face_down_left", view.face_down)),
      table),
    end ? h("div", { class: "decisions", role: "group", "aria-label": t("match.decisions") },
      button(t("match.end_turn"), () => ctx.act(end), { class: "primary", "data-group": "turn", ...actionAttrs(ctx, end, t("match.end_turn")) })) : null,
    hand(ctx, view),
    seats(ctx, view));
}

/** What changed from `before` to `view`, in motion: a card flies into its column from its
 * player's hand (or panel), tiles turn over, the set-aside tiles turn over at the end. */
export function animateYutaka(board: HTMLElement, ctx: MatchContext, before: View, view: View, places: Places): void {
  const latest = latestPlay(ctx.state.events, view);
  view.islands.forEach((island) => {
    island.tiles.forEach((tile) => {
      const old = before.islands[island.island]?.tiles.find((x) => x.slot === tile.slot);
      if (tile.face_up && old && !old.face_up) {
        flip(board.querySelector(`[data-island="${island.island}"][data-slot="${tile.slot}"] .tile-face`));
      }
    });
    island.cards.forEach((cards, seat) => {
      const had = before.islands[island.island]?.cards[seat]?.length ?? 0;
      if (cards.length <= had) return;
      const placed = board.querySelectorAll(`[data-island-box="${island.island}"] [data-column="${seat}"] [data-card]`);
      const card = cards[cards.length - 1]!;
      const player = latest && latest.island === island.island ? latest.seat : seat;
      const fromHand = player === view.seat ? places.get(`hand:${card.kind}-${card.value}`) : undefined;
      flyFrom(placed[placed.length - 1] ?? null, fromHand ?? places.get(`seat:${player}`));
    });
  });
  if (view.set_aside && !before.set_aside) {
    board.querySelectorAll('[data-zone="set-aside"] .tile-face').forEach((face, i) => flip(face, i * 120));
  }
}
