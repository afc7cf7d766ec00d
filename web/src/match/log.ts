/**
 * The match's history as this viewer received it (its own draws, the others' as counts), newest
 * first, one line per event, built from the event's fields in the page's language, with the
 * cards it names drawn as cards. An event type this page does not know (a newer server) is listed
 * by its type, as the API's versioning rule asks. `describeText` gives the same line as plain
 * text for the screen readers' announcements.
 */

import type { Event, MountDrago, Yutaka } from "drago-client";
import { dragonName, mdCard, yuCard, tileText } from "../boards/pieces.js";
import { h, type Child } from "../dom.js";
import { has, t, tn, tx, type Key } from "../i18n/index.js";
import { seatName, type MatchContext } from "./context.js";

type Data = Record<string, any>;
type Who = (seat: number) => string;

const space = (index: number): string => (index === 0 ? t("md.start") : String(index));
const signed = (n: number): string => (n > 0 ? `+${n}` : n < 0 ? `−${-n}` : "±0");
/** A code from the server (a reason, a level) in words, or the code itself if this page has none. */
const word = (prefix: string, code: unknown): string => (has(`${prefix}.${code}`) ? t(`${prefix}.${code}` as Key) : String(code));
const scores = (values: number[], who: Who): string => values.map((n, seat) => `${who(seat)} ${n}`).join(" · ");

function mountDrago(type: string, d: Data, who: Who): Child[] | null {
  const cards = (list: MountDrago.Card[]) => h("span", { class: "cards" }, list.map((c) => mdCard(c, "log")));
  switch (type) {
    case "game_started": return tx("ev.md.game_started", { riders: cards(d.riders), name: who(d.first_player) });
    case "card_played": return tx("ev.md.card_played", { name: who(d.seat), card: mdCard(d.card, "log"), from: space(d.from_space), to: space(d.to_space) });
    case "rider_settled": return [t(`ev.md.rider_${d.result as "under" | "on_top" | "switched"}`, { name: who(d.seat), dragon: dragonName(d.rider) })];
    case "scored": return [t(`ev.md.scored_${d.kind as "blue" | "green" | "summit"}`, {
      changes: (d.changes as number[]).map((n, seat) => `${who(seat)} ${signed(n)}`).join(", ") })];
    case "cards_discarded": return tx("ev.md.discarded", { name: who(d.seat), cards: cards(d.cards) });
    case "cards_drawn": return d.cards ? tx("ev.md.drew", { name: who(d.seat), cards: cards(d.cards) }) : [tn("ev.md.drew_count", d.count, { name: who(d.seat) })];
    case "draw_pile_reshuffled": return [tn("ev.md.reshuffled", d.size ?? d.draw_pile?.length ?? 0)];
    case "turn_ended": return [t("ev.turn_ended", { name: who(d.seat), next: who(d.next_seat) })];
    case "turn_passed": return [t("ev.md.turn_passed", { name: who(d.seat), next: who(d.next_seat) })];
    case "game_ended": return [t("ev.game_ended", { scores: scores(d.scores, who) })];
    default: return null;
  }
}

function yutaka(type: string, d: Data, who: Who, islands: readonly string[]): Child[] | null {
  const island = (i: number) => islands[i] ?? String(i + 1);
  switch (type) {
    case "game_started": return d.hand
      ? tx("ev.yu.game_started_hand", { name: who(d.first_player), cards: h("span", { class: "cards" }, (d.hand as Yutaka.Card[]).map((c) => yuCard(c, "log"))) })
      : [t("ev.yu.game_started", { name: who(d.first_player) })];
    case "tile_revealed": return [t("ev.yu.revealed", { name: who(d.seat), tile: tileText({ face_up: true, ...d.tile }), island: island(d.island) })];
    case "card_played": return d.side === d.seat
      ? tx("ev.yu.played", { name: who(d.seat), card: yuCard(d.card, "log"), island: island(d.island) })
      : tx("ev.yu.played_against", { name: who(d.seat), card: yuCard(d.card, "log"), island: island(d.island), other: who(d.side) });
    case "turn_confirmed": return [t("ev.yu.confirmed", { name: who(d.seat) })];
    case "card_drawn": return d.card ? tx("ev.yu.drew", { name: who(d.seat), card: yuCard(d.card, "log") }) : [t("ev.yu.drew_hidden", { name: who(d.seat) })];
    case "game_ended": return [t("ev.yu.game_ended", { scores: scores(d.totals, who), decided: word("result.decided", d.decided_by) })];
    default: return null;
  }
}

function lifecycle(type: string, d: Data, who: Who): Child[] {
  switch (type) {
    case "seat_joined": return [d.bot
      ? t("ev.seat_joined_bot", { name: d.name, n: d.seat + 1, level: word("bot.level", d.level ?? "default") })
      : t("ev.seat_joined", { name: d.name, n: d.seat + 1 })];
    case "match_started": return [t("ev.match_started")];
    case "seat_resigned": return [t("ev.seat_resigned", { name: who(d.seat) })];
    case "turn_timed_out": return [t("ev.timed_out", { name: who(d.seat), policy: word("ev.policy", d.policy) })];
    case "seat_taken_over": return [t("ev.taken_over", { name: who(d.seat), reason: word("ev.takeover", d.reason) })];
    case "seat_token_reissued": return [t("ev.reissued", { name: who(d.seat) })];
    case "match_aborted": return [t("ev.aborted", { reason: word("ev.abort", d.reason) })];
    case "match_ended": return [t("ev.match_ended", { reason: word("result.reason", d.reason) })];
    case "ratings_changed": return [t("ev.ratings_changed", { changes: (d.changes as Data[]).map((c) => {
      const [before, after] = [c.before.rating as number, c.after.rating as number];
      return `${who(c.seat)} ${before.toFixed(1)} → ${after.toFixed(1)} (${signed(Math.round((after - before) * 10) / 10)})`;
    }).join(", ") })];
    case "draft_step": return [t("ev.draft_step", { action: word("action", (d.action as Data).type) })];
    case "draft_undone": return [t("ev.draft_undone")];
    case "draft_changed": return [t("ev.draft_changed", { name: who(d.seat) })];
    case "draft_published": return [tn("ev.draft_published", d.steps, { name: who(d.seat) })];
    default: return [type];
  }
}

/** One event as a line of the history. */
export function describe(ctx: MatchContext, event: Event): Child[] {
  const game = ctx.state.summary?.game ?? ctx.view?.game ?? "";
  const who = (seat: number) => seatName(ctx, seat);
  const data = event.data as Data;
  const islands = ctx.view?.game === "yutaka" ? (ctx.view.islands ?? []).map((i) => i.name) : []; // none before the deal
  const own = game === "mount_drago" ? mountDrago(event.type, data, who) : game === "yutaka" ? yutaka(event.type, data, who, islands) : null;
  return own ?? lifecycle(event.type, data, who);
}

/** The same line as plain text. */
export function describeText(ctx: MatchContext, event: Event): string {
  return h("span", {}, describe(ctx, event)).textContent ?? "";
}

export function eventLog(ctx: MatchContext): HTMLElement {
  const events = [...ctx.state.events].reverse();
  return h("section", { class: "log-box", "aria-labelledby": "log-title" },
    h("h2", { id: "log-title" }, t("match.history")),
    h("ol", { class: "log", reversed: true, tabindex: 0, "aria-label": t("match.history_list") },
      events.map((event) => h("li", { "data-seq": event.seq, value: event.seq }, describe(ctx, event)))));
}
