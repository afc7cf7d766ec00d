/**
 * The Mount Drago board: the mountain (track.ts) with the ten dragons and their riders; beside it
 * every player's score, hand size, dragon and rider pile; the summit with its dragons and
 * discards, the card waiting for a rider choice, the draw pile and the last card played; then the
 * viewer's hand and decisions. What can be pressed is exactly the view's legal actions: a hand
 * card plays (or, in the discard phase, discards), keep / switch settle the rider, "End turn" ends
 * the turn. Hand cards stay in the keyboard's reach while they cannot be played (aria-disabled),
 * so the focus stays in the hand between two turns.
 */

import type { Event, MountDrago } from "drago-client";
import { button, h, type Child } from "../dom.js";
import { t, tn, tx, txn } from "../i18n/index.js";
import { actionAttrs, findLegal, seatName, type MatchContext } from "../match/context.js";
import { flyFrom, floatText, pulse, type Places } from "../match/motion.js";
import { dragonIcon, dragonName, dragonShort, mdCard, mdCardText, playerPanel } from "./pieces.js";
import { animateTrack, layoutTrack, trackSvg, type TrackLayout } from "./track.js";

type Card = MountDrago.Card;
type View = MountDrago.View;

export const HANDLES: ReadonlySet<string> = new Set(["play", "discard", "choose_rider", "end_turn"]);
const SUMMIT_ENDS = 3; // the third dragon on the summit ends the game

interface Catalogue {
  tracks?: Record<string, MountDrago.Space[]>;
  track_by_players?: Record<string, string>;
}

/** The board side for the player count, or this match's own track. */
function trackOf(ctx: MatchContext, view: View): { spaces: MountDrago.Space[]; side: string | null } {
  const catalogue = (ctx.state.detail?.catalogue ?? {}) as Catalogue;
  const side = catalogue.track_by_players?.[String(view.players)];
  const printed = side ? catalogue.tracks?.[side] : undefined;
  if (!view.options.track && side && printed) return { spaces: printed, side };
  return { spaces: view.track, side: null };
}

const layouts = new Map<string, TrackLayout>();
function layoutOf(spaces: readonly MountDrago.Space[], compact: boolean): TrackLayout {
  const key = `${spaces.length}:${compact}`;
  let layout = layouts.get(key);
  if (!layout) layouts.set(key, (layout = layoutTrack(spaces.length, compact)));
  return layout;
}

function riders(view: View): Record<string, number> {
  const map: Record<string, number> = {};
  view.riders.forEach((dragon, seat) => (map[dragon] = seat));
  return map;
}

/** The newest card played up to the shown seq, from this viewer's history. */
export function lastPlay(events: readonly Event[], seq: number): { seat: number; card: Card; seq: number } | null {
  for (let i = events.length - 1; i >= 0; i--) {
    const event = events[i]!;
    if (event.seq > seq || event.type !== "card_played") continue;
    const data = event.data as MountDrago.CardPlayed;
    if (data.card) return { seat: data.seat, card: data.card, seq: event.seq };
  }
  return null;
}

function turnText(ctx: MatchContext, view: View): string {
  if (view.status === "waiting") return t("match.waiting_players");
  if (view.status !== "active") return t("md.turn.over");
  const mine = ctx.playing && view.to_act.includes(view.seat ?? -1);
  const who = seatName(ctx, view.current_player);
  switch (view.phase) {
    case "play": return mine ? t("md.turn.you_play") : t("md.turn.plays", { name: who });
    case "choose_rider": return mine
      ? t("md.turn.you_choose", { dragon: dragonName(view.riders[view.seat ?? -1] ?? ""), other: dragonName(view.pending_card?.dragon ?? "") })
      : t("md.turn.chooses", { name: who });
    case "discard": return mine ? t("md.turn.you_discard") : t("md.turn.discards", { name: who });
    default: return t("md.turn.over");
  }
}

function players(ctx: MatchContext, view: View): HTMLElement {
  return h("ol", { class: "players", "aria-label": t("md.players") },
    view.scores.map((score, seat) => {
      const pile = view.rider_piles[seat];
      const turn = view.status === "active" && view.current_player === seat;
      const dragon = view.riders[seat];
      return playerPanel(ctx, seat, view.seat, turn,
        h("span", { class: "score" }, txn("md.points", score, { n: h("span", { class: "score-value", "data-score": seat }, score) })),
        dragon ? h("span", { class: "rides" }, tx("md.rides", { dragon: [dragonIcon(dragon), h("span", {}, dragonName(dragon))] })) : null,
        h("span", { class: "pile" }, pile
          ? tx("md.pile", { card: mdCard(pile.top, "rider-top", { "data-seat": String(seat) }), n: pile.size })
          : t("md.pile_none")),
        h("span", { class: "hand-size", "data-hand-size": seat }, tn("md.hand_cards", view.hand_sizes[seat] ?? 0)));
    }));
}

function summit(ctx: MatchContext, view: View): HTMLElement {
  const played = lastPlay(ctx.state.events, view.seq);
  return h("section", { class: "summit-box", "aria-labelledby": "summit-title" },
    h("h2", { id: "summit-title" }, t("md.summit_title", { n: view.summit_dragons.length, of: SUMMIT_ENDS })),
    h("p", { class: "summit-dragons" }, view.summit_dragons.length
      ? view.summit_dragons.map((d) => h("span", { class: "chip" }, dragonIcon(d), dragonName(d)))
      : t("md.summit_empty")),
    played ? h("p", { class: "last-play" }, tx("md.last_play", { name: seatName(ctx, played.seat), card: mdCard(played.card, "played") })) : null,
    view.pending_card ? h("p", {}, tx("md.pending", { card: mdCard(view.pending_card, "pending") })) : null,
    h("p", { class: "discards" }, view.discard_pile.length
      ? tx("md.discards", { cards: h("span", { class: "cards" }, view.discard_pile.map((c) => mdCard(c, "discard"))) })
      : t("md.discards_none")),
    h("p", {}, tn("md.draw_pile", view.draw_pile_size)));
}

function hand(ctx: MatchContext, view: View): Child {
  if (view.hand === null) return null;
  return h("section", { class: "hand", "aria-labelledby": "hand-title" },
    h("h2", { id: "hand-title" }, t("md.hand")),
    view.hand.length === 0 ? h("p", {}, t("md.hand_empty")) : null,
    h("div", { class: "cards" }, view.hand.map((c, index) => {
      const play = findLegal(ctx, { type: "play", card: c });
      const discard = findLegal(ctx, { type: "discard", cards: [c] });
      const action = play ?? discard;
      const text = mdCardText(c);
      const face = mdCard(c, "hand", { "data-index": String(index) });
      face.querySelector(".name")?.after(h("span", { class: "short", "aria-hidden": "true" }, dragonShort(c.dragon)));
      const common = { class: "card-button", "data-key": `hand:${index}`, "data-group": "hand", "data-fly": `hand:${c.dragon}-${c.value}` };
      if (!action) return button(face, () => undefined, { ...common, "aria-label": text, "aria-disabled": "true" });
      const label = play ? t("md.play_card", { card: text }) : t("md.discard_card", { card: text });
      return button(face, () => ctx.act(action), { ...actionAttrs(ctx, action, label), ...common });
    })));
}

function decisions(ctx: MatchContext, view: View): Child {
  const buttons: HTMLElement[] = [];
  const seat = view.seat ?? -1;
  for (const choice of ["keep", "switch"] as const) {
    const action = findLegal(ctx, { type: "choose_rider", choice });
    if (!action) continue;
    const label = choice === "keep"
      ? t("md.keep", { dragon: dragonName(view.riders[seat] ?? "") })
      : t("md.switch", { dragon: dragonName(view.pending_card?.dragon ?? "") });
    buttons.push(button(label, () => ctx.act(action), { class: "primary", "data-group": "turn", ...actionAttrs(ctx, action, label) }));
  }
  const end = findLegal(ctx, { type: "end_turn" });
  if (end) buttons.push(button(t("match.end_turn"), () => ctx.act(end), { class: "primary", "data-group": "turn", ...actionAttrs(ctx, end, t("match.end_turn")) }));
  return buttons.length ? h("div", { class: "decisions", role: "group", "aria-label": t("match.decisions") }, buttons) : null;
}

function dragonsTable(ctx: MatchContext, view: View, spaces: readonly MountDrago.Space[]): HTMLElement {
  const ridden = riders(view);
  // Open or closed as the reader left it: the page is drawn again at every commit.
  const toggled = (event: globalThis.Event) => { ctx.state.ui.dragonsOpen = (event.currentTarget as HTMLDetailsElement).open; };
  return h("details", { class: "dragons", open: ctx.state.ui.dragonsOpen === true, ontoggle: toggled },
    h("summary", {}, t("md.dragons_table")),
    h("table", {},
      h("thead", {}, h("tr", {}, [t("md.col.dragon"), t("md.col.space"), t("md.col.value"), t("md.col.rider")].map((c) => h("th", { scope: "col" }, c)))),
      h("tbody", {}, (Object.entries(view.positions) as [string, number][]).map(([dragon, at]) => {
        const space = spaces[at];
        const seat = ridden[dragon];
        return h("tr", { "data-dragon-row": dragon },
          h("th", { scope: "row" }, dragonIcon(dragon), " ", dragonName(dragon)),
          h("td", {}, at === 0 ? t("md.start") : at),
          h("td", {}, space ? t(`md.kind.${space.kind}`, { value: space.value }) : ""),
          h("td", {}, seat === undefined ? "—" : seatName(ctx, seat)));
      }))));
}

export function mountDragoBoard(ctx: MatchContext, view: View): HTMLElement {
  const { spaces, side } = trackOf(ctx, view);
  const layout = layoutOf(spaces, ctx.compact);
  const caption = side ? t("md.side", { side: side.replace("-", "–") }) : t("md.own_track");
  return h("div", { class: "board md", "data-game": "mount_drago", "data-seq": view.seq, "data-phase": view.phase },
    h("p", { class: "turn-banner", "data-mine": ctx.playing && view.to_act.includes(view.seat ?? -1) ? "yes" : "no" }, turnText(ctx, view)),
    h("figure", { class: "track-figure" },
      h("figcaption", { id: "track-caption" }, caption),
      trackSvg({ spaces, layout, positions: view.positions, riders: riders(view), own: view.seat === null ? null : (view.riders[view.seat] ?? null), names: view.scores.map((_, seat) => seatName(ctx, seat)), caption }, "track-caption"),
      h("p", { class: "legend", "aria-hidden": "true" },
        h("span", { class: "key kind-blue" }, t("md.legend.blue")), h("span", { class: "key kind-green" }, t("md.legend.green")),
        h("span", { class: "key kind-summit" }, t("md.legend.summit")))),
    decisions(ctx, view),
    hand(ctx, view),
    h("div", { class: "board-row" }, players(ctx, view), summit(ctx, view)),
    dragonsTable(ctx, view, spaces));
}

/** What changed from `before` to `view`, in motion: dragons climb, the card played flies in from
 * its player's hand (or panel), riders that changed pulse, scores count. */
export function animateMountDrago(board: HTMLElement, ctx: MatchContext, before: View, view: View, places: Places): void {
  const svg = board.querySelector<SVGSVGElement>("svg.track");
  const { spaces } = trackOf(ctx, view);
  const moving = svg ? animateTrack(svg, layoutOf(spaces, ctx.compact), before.positions, view.positions) : 0;
  const played = lastPlay(ctx.state.events, view.seq);
  if (played && played.seq > before.seq) {
    const card = `${played.card.dragon}-${played.card.value}`;
    const fromHand = played.seat === view.seat ? places.get(`hand:${card}`) : undefined;
    flyFrom(board.querySelector('[data-zone="played"]'), fromHand ?? places.get(`seat:${played.seat}`));
  }
  view.riders.forEach((dragon, seat) => {
    if (before.riders[seat] === dragon) return;
    pulse(svg?.querySelector(`[data-dragon="${dragon}"]`) ?? null, moving);
    pulse(board.querySelector(`[data-seat-row="${seat}"] .rides`), moving);
  });
  view.scores.forEach((score, seat) => {
    const change = score - (before.scores[seat] ?? score);
    if (change === 0) return;
    const cell = board.querySelector(`[data-score="${seat}"]`);
    pulse(cell, moving);
    floatText(cell?.parentElement ?? null, `${change > 0 ? "+" : "−"}${Math.abs(change)}`, moving);
  });
}
