/**
 * The match's history as this viewer received it (its own draws, the others' as counts), newest
 * first, one line per event, with the cards it names drawn as cards. Unknown event types (a newer
 * server) are listed by their type, as the API's versioning rule asks.
 */

import type { Event, MountDrago, Yutaka } from "drago-client";
import * as md from "../boards/mountdrago.js";
import * as yu from "../boards/yutaka.js";
import { h, type Child } from "../dom.js";
import type { MatchContext } from "./context.js";

type Data = Record<string, any>;

function mountDrago(type: string, d: Data, who: (seat: number) => string): Child[] | null {
  const c = (card: MountDrago.Card) => md.card(card, "log");
  switch (type) {
    case "game_started": return ["The cards are dealt; riders: ", (d.riders as MountDrago.Card[]).map(c)];
    case "card_played": return [who(d.seat), " played ", c(d.card), ` (space ${d.from_space} → ${d.to_space})`];
    case "rider_settled": return [who(d.seat), ` rides ${String(d.rider).replace("_", " ")} (card ${d.result === "under" ? "under the pile" : "on top"})`];
    case "scored": return [`${d.kind} scoring: ${(d.changes as number[]).map((n, s) => `${who(s)} ${n >= 0 ? "+" : ""}${n}`).join(", ")}`];
    case "cards_discarded": return [who(d.seat), " discarded ", (d.cards as MountDrago.Card[]).map(c)];
    case "cards_drawn": return d.cards ? [who(d.seat), " drew ", (d.cards as MountDrago.Card[]).map(c)] : [`${who(d.seat)} drew ${d.count} card(s)`];
    case "draw_pile_reshuffled": return [`The draw pile was rebuilt (${d.size} cards)`];
    case "turn_ended": return [`${who(d.seat)} ended the turn; ${who(d.next_seat)} is on turn`];
    case "turn_passed": return [`${who(d.seat)} passed; ${who(d.next_seat)} is on turn`];
    case "game_ended": return [`Game over: ${(d.scores as number[]).join(" – ")}`];
    default: return null;
  }
}

function yutaka(type: string, d: Data, who: (seat: number) => string): Child[] | null {
  switch (type) {
    case "game_started": return ["The tiles and cards are dealt", d.hand ? ["; your hand: ", (d.hand as Yutaka.Card[]).map((c) => yu.card(c, "log"))] : null];
    case "tile_revealed": return [`${who(d.seat)} revealed ${d.tile.type} ${d.tile.value} (island ${d.island}, slot ${d.slot})`];
    case "card_played": return [who(d.seat), " played ", yu.card(d.card, "log"), ` on island ${d.island}${d.side !== d.seat ? ` against ${who(d.side)}` : ""}`];
    case "turn_confirmed": return [`${who(d.seat)} ended the turn`];
    case "card_drawn": return d.card ? [who(d.seat), " drew ", yu.card(d.card, "log")] : [`${who(d.seat)} drew a card`];
    case "game_ended": return [`Game over: ${(d.totals as number[]).join(" – ")} (${d.decided_by})`];
    default: return null;
  }
}

function match(type: string, d: Data, who: (seat: number) => string): Child[] {
  switch (type) {
    case "seat_joined": return [`${d.name} took seat ${d.seat}${d.bot ? ` (bot, ${d.level ?? "default"})` : ""}`];
    case "match_started": return ["The match started"];
    case "seat_resigned": return [`${who(d.seat)} resigned`];
    case "turn_timed_out": return [`${who(d.seat)} ran out of time (${d.policy})`];
    case "seat_taken_over": return [`A bot plays ${who(d.seat)}'s seat from now on (${d.reason})`];
    case "seat_token_reissued": return [`The host reissued ${who(d.seat)}'s token`];
    case "match_aborted": return [`The match was aborted (${d.reason})`];
    case "match_ended": return [`The match ended (${d.reason})`];
    case "draft_step": return [`Your draft: ${String((d.action as Data).type)}`];
    case "draft_undone": return ["Your draft: undo"];
    case "draft_changed": return [`${who(d.seat)} is working on a turn`];
    case "draft_published": return [`${who(d.seat)} finished the turn (${d.steps} steps)`];
    default: return [type];
  }
}

export function describe(game: string, event: Event, names: readonly string[]): Child[] {
  const who = (seat: number) => names[seat] ?? `Seat ${seat}`;
  const data = event.data as Data;
  const own = game === "mount_drago" ? mountDrago(event.type, data, who) : game === "yutaka" ? yutaka(event.type, data, who) : null;
  return own ?? match(event.type, data, who);
}

export function eventLog(ctx: MatchContext): HTMLElement {
  const game = ctx.state.summary?.game ?? ctx.view?.game ?? "";
  const events = [...ctx.state.events].reverse();
  return h(
    "section",
    { class: "log-box", "aria-labelledby": "log-title" },
    h("h2", { id: "log-title" }, "History"),
    h("ol", { class: "log", reversed: true, tabindex: 0, "aria-label": "Events, newest first" },
      events.map((event) => h("li", { "data-seq": event.seq, value: event.seq }, describe(game, event, ctx.names)))),
  );
}
