/**
 * What every component of the match page reads: the page's state (the match summary, the game's
 * catalogue, who this page plays as, the newest view, the history, a replay) and the few things a
 * component may do (send an action, re-render, show a message). Components are functions from a
 * `MatchContext` to nodes; adding a control is adding one such function to `page.ts`.
 */

import type { Event, GameDetail, Match, View } from "drago-client";
import { t } from "../i18n/index.js";

export type Action = Record<string, unknown>;

export interface Replay {
  at: number;
  view: View | null; // null while loading
}

export interface MatchState {
  matchId: string;
  summary: Match | null;
  detail: GameDetail | null;
  /** The seat this page plays as; null: a spectator. */
  seat: number | null;
  token: string | null;
  live: View | null;
  events: Event[];
  replay: Replay | null;
  busy: boolean;
  message: { text: string; error: boolean } | null;
  connection: "connecting" | "live" | "reconnecting" | "closed";
  /** Per-board interface state (e.g. the Yutakâ card picked before its island). */
  ui: Record<string, unknown>;
}

export interface MatchContext {
  readonly state: MatchState;
  /** The view shown: the replay's, else the live one. */
  readonly view: View | null;
  /** Whether this page acts on the shown view (live, a seat, an active match). */
  readonly playing: boolean;
  /** Each seat's display name. */
  readonly names: readonly string[];
  /** Whether the boards take their narrow (phone) layout. */
  readonly compact: boolean;
  act(action: Action): void;
  update(): void;
  say(text: string, error?: boolean): void;
  refreshSummary(): Promise<void>;
}

/** The legal actions of the shown view, or none when this page cannot act. */
export function legal(ctx: MatchContext): Action[] {
  return ctx.playing && ctx.view ? (ctx.view.legal_actions as Action[]) : [];
}

export const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/** The legal action equal to `action`, if any (legal actions are compared as JSON). */
export function findLegal(ctx: MatchContext, action: Action): Action | undefined {
  return legal(ctx).find((candidate) => same(canonical(candidate), canonical(action)));
}

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.keys(value).sort().map((k) => [k, canonical((value as Record<string, unknown>)[k])]));
  }
  return value;
}

/** The attributes of a control for a legal action: `data-legal` holds the action (the browser tests
 * press these). While an action is on its way it is `aria-disabled` (and `act` ignores it), so a
 * double press sends nothing twice and the focus stays where it is. */
export function actionAttrs(ctx: MatchContext, action: Action, label: string): Record<string, string> {
  const attrs: Record<string, string> = { "data-legal": JSON.stringify(action), "aria-label": label, "data-key": `act:${JSON.stringify(canonical(action))}` };
  if (ctx.state.busy) attrs["aria-disabled"] = "true";
  return attrs;
}

/** A seat's name for people: the name it joined with, else "Seat 1" (seats count from 1 on the page). */
export function seatName(ctx: MatchContext, seat: number): string {
  return ctx.names[seat] || t("match.seat", { n: seat + 1 });
}
