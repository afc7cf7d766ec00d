/**
 * The match page: loads the summary and the game's catalogue, reads the history (`…/events`, as
 * this viewer may see it), then follows the match stream from the end of that history with the
 * SDK's `follow()` — so a reload or a dropped connection loses nothing and shows nothing twice —
 * and draws the board and the controls from the newest view on every commit. Actions go over HTTP
 * with `expected_seq`, so a click on a stale board is refused rather than applied elsewhere.
 */

import { ApiError, StreamClosed, Unauthorized, type View } from "drago-client";
import { api, describeError, gameDetail } from "../api.js";
import * as md from "../boards/mountdrago.js";
import * as yu from "../boards/yutaka.js";
import { otherActions } from "../controls/actions.js";
import { clockPanel } from "../controls/clock.js";
import * as draft from "../controls/draft.js";
import { fairnessPanel } from "../controls/fairness.js";
import { hostPanel } from "../controls/host.js";
import { replayControl } from "../controls/replay.js";
import { resignControl } from "../controls/resign.js";
import { resultPanel } from "../controls/result.js";
import { seatsPanel } from "../controls/seats.js";
import { h, replaceChildren } from "../dom.js";
import { matchHref } from "../route.js";
import { credentials, forgetSeat, heldSeats, saveInvite, saveSeat } from "../session.js";
import type { Action, MatchContext, MatchState } from "./context.js";
import { eventLog } from "./log.js";

const SUMMARY_EVENTS = new Set(["seat_joined", "match_started", "seat_resigned", "seat_taken_over", "match_ended", "match_aborted", "seat_token_reissued"]);

function board(ctx: MatchContext, view: View): HTMLElement {
  if (view.game === "mount_drago") return md.mountDragoBoard(ctx, view);
  if (view.game === "yutaka") return yu.yutakaBoard(ctx, view);
  return h("p", {}, `This page cannot draw the game ${(view as { game: string }).game}.`);
}

function handled(game: string): ReadonlySet<string> {
  const own = game === "mount_drago" ? md.HANDLES : game === "yutaka" ? yu.HANDLES : new Set<string>();
  return new Set([...own, ...draft.HANDLES]);
}

/** Who this page plays as: `?as=` (a held seat or "spectator"), else the first seat held here. */
function chooseSeat(matchId: string, params: URLSearchParams): number | null {
  const held = heldSeats(matchId);
  const wanted = params.get("as");
  if (wanted === "spectator") return null;
  if (wanted !== null && held.includes(Number(wanted))) return Number(wanted);
  return held[0] ?? null;
}

/** Links carry an invite or a reissued seat token: keep them here, then drop them from the URL. */
function absorbLink(matchId: string, params: URLSearchParams): boolean {
  const invite = params.get("invite");
  if (invite) saveInvite(matchId, invite);
  const seat = params.get("seat");
  const token = params.get("token");
  if (seat !== null && token) {
    saveSeat(matchId, Number(seat), { token, name: credentials(matchId).seats[seat]?.name ?? "" });
    history.replaceState(null, "", matchHref(matchId, { as: seat }));
    return true;
  }
  return false;
}

export function matchPage(root: HTMLElement, matchId: string, params: URLSearchParams): () => void {
  if (absorbLink(matchId, params)) params = new URLSearchParams({ as: params.get("seat") ?? "" });
  const seat = chooseSeat(matchId, params);
  const stop = new AbortController();
  const state: MatchState = {
    matchId, summary: null, detail: null, seat, token: seat === null ? null : (credentials(matchId).seats[String(seat)]?.token ?? null),
    live: null, events: [], replay: null, busy: false, message: null, connection: "connecting", ui: {},
  };
  const live = h("p", { class: "message", role: "status", "aria-live": "polite" });

  const ctx: MatchContext = {
    state,
    get view() { return state.replay ? state.replay.view : state.live; },
    get playing() { return !state.replay && state.seat !== null && state.live?.status === "active"; },
    get names() { return (state.summary?.seats ?? []).map((s) => s.name ?? `Seat ${s.seat}`); },
    act: (action) => void act(action),
    update: () => render(),
    say(text, error = false) { state.message = { text, error }; render(); },
    refreshSummary: async () => { state.summary = await api.getMatch(matchId); render(); },
  };

  function setView(view: View | null | undefined): void {
    if (view && (!state.live || view.seq >= state.live.seq)) state.live = view;
  }

  async function act(action: Action): Promise<void> {
    if (!state.live || !state.token || state.busy) return;
    state.busy = true;
    render();
    try {
      const reply = await api.submitAction(matchId, { action, expected_seq: state.live.seq }, { token: state.token });
      setView(reply.view);
      state.message = null;
    } catch (error) {
      state.message = { text: describeError(error), error: true };
    } finally {
      state.busy = false;
      render();
    }
  }

  function render(): void {
    if (stop.signal.aborted) return;
    const view = ctx.view;
    const summary = state.summary;
    const title = summary ? (state.detail?.title ?? summary.game) : "Match";
    const status = state.live ? `${state.live.status} · seq ${state.live.seq}` : "loading…";
    const who = state.seat === null ? "watching as a spectator" : `playing seat ${state.seat} (${ctx.names[state.seat] ?? ""})`;
    replaceChildren(
      root,
      h("header", { class: "match-head" },
        h("a", { href: "#/" }, "← Lobby"),
        h("h1", {}, title, " ", h("small", {}, matchId.slice(0, 8))),
        h("p", { "data-status": state.live?.status ?? "", "data-connection": state.connection }, `${status} · ${who} · ${state.connection}`)),
      live,
      h("div", { class: "match" },
        h("main", { class: "main", "aria-label": "Board" },
          state.replay ? h("p", { class: "replay-note" }, `Replay at seq ${state.replay.at}: the board as it was then.`) : null,
          view ? board(ctx, view) : h("p", {}, state.replay ? "Loading that position…" : "Loading…"),
          draft.draftControls(ctx),
          view ? otherActions(ctx, handled(view.game)) : null),
        h("aside", { class: "side" },
          resultPanel(ctx), clockPanel(ctx), resignControl(ctx), seatsPanel(ctx), hostPanel(ctx),
          replayControl(ctx), fairnessPanel(ctx), eventLog(ctx))),
    );
    live.textContent = state.message?.text ?? (state.busy ? "Sending…" : "");
    live.className = state.message?.error ? "message error" : "message";
  }

  async function history(): Promise<number> {
    let after = 0;
    for (;;) {
      const page = await api.listEvents(matchId, { after }, state.token ? { token: state.token } : {});
      state.events.push(...page.events);
      after = page.events.at(-1)?.seq ?? after;
      if (page.events.length === 0 || after >= page.seq) return after;
    }
  }

  async function follow(): Promise<void> {
    const [summary, after] = await Promise.all([api.getMatch(matchId), history()]);
    state.summary = summary;
    state.detail = await gameDetail(summary.game);
    render();
    const options = { token: state.token, after, hellos: true as const, signal: stop.signal };
    for await (const frame of api.follow(matchId, options)) {
      if (frame.type === "hello") {
        state.connection = "live";
        setView(frame.view);
      } else {
        state.events.push(...frame.events);
        setView(frame.view);
        if (frame.events.some((e) => SUMMARY_EVENTS.has(e.type))) state.summary = await api.getMatch(matchId);
      }
      render();
    }
    state.summary = await api.getMatch(matchId);
    if (!state.live || state.live.seq < state.summary.seq) setView(await api.getView(matchId, {}, state.token ? { token: state.token } : {}));
    state.connection = "closed";
    render();
  }

  render();
  follow().catch((error: unknown) => {
    if (stop.signal.aborted) return;
    state.connection = "closed";
    const refused = error instanceof Unauthorized || (error instanceof StreamClosed && error.code === 4401);
    if (refused && state.seat !== null) {
      forgetSeat(matchId, state.seat);
      state.message = { text: `This browser's token for seat ${state.seat} no longer works (reissued by the host?); it was forgotten. Reload to watch.`, error: true };
    } else {
      state.message = { text: error instanceof ApiError ? describeError(error) : `Connection lost: ${describeError(error)}. Reload to resume.`, error: true };
    }
    render();
  });
  return () => stop.abort();
}
