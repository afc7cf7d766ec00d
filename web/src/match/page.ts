/**
 * The match page: loads the summary and the game's catalogue, reads the history (`…/events`, as
 * this viewer may see it), then follows the match stream from the end of that history with the
 * SDK's `follow()` — so a reload or a dropped connection loses nothing and shows nothing twice —
 * and draws the board and the controls from the newest view on every commit. Actions go over HTTP
 * with `expected_seq`, so a press on a stale board is refused rather than applied elsewhere.
 *
 * Between two boards shown (a commit live, a step of the replay) the board animates what changed
 * (motion.ts); the board is rebuilt only when what it shows changes, so a redraw of the rest of
 * the page (a message, the clock) never cuts a motion short. Others' moves are also announced to
 * screen readers, in the history's words.
 */

import { ApiError, StreamClosed, Unauthorized, type ChatFrame, type Event, type View } from "drago-client";
import { api, describeError, gameDetail } from "../api.js";
import * as md from "../boards/mountdrago.js";
import * as yu from "../boards/yutaka.js";
import { otherActions } from "../controls/actions.js";
import { chatPanel, loadChat, newChat, receive, spoken } from "../controls/chat.js";
import { clockPanel } from "../controls/clock.js";
import * as draft from "../controls/draft.js";
import { fairnessPanel } from "../controls/fairness.js";
import { hostPanel } from "../controls/host.js";
import { replayControl } from "../controls/replay.js";
import { resignControl } from "../controls/resign.js";
import { resultPanel } from "../controls/result.js";
import { seatsPanel } from "../controls/seats.js";
import { h, replaceChildren } from "../dom.js";
import { lang, t } from "../i18n/index.js";
import { matchHref, type Page } from "../route.js";
import { credentials, forgetSeat, heldSeats, saveInvite, saveSeat } from "../session.js";
import { seatName, type Action, type MatchContext, type MatchState } from "./context.js";
import { describeText, eventLog } from "./log.js";
import { capture, highlight, type Places } from "./motion.js";

const SUMMARY_EVENTS = new Set(["seat_joined", "match_started", "seat_resigned", "seat_taken_over", "match_ended", "match_aborted", "seat_token_reissued"]);
const NARROW = window.matchMedia("(max-width: 640px)");
const HOLD_MS = 1000; // the longest a press on the chat holds the page's redraws

// The members of a view that the match envelope owns; a view with none besides is not dealt yet.
const ENVELOPE = new Set(["match_id", "game", "seq", "status", "seat", "to_act", "legal_actions", "outcome", "clock", "draft"]);

/** Whether the view has the game's members: drago-fair-2 deals when the last seat is taken (docs/fairness.md). */
function dealt(view: View): boolean {
  return Object.keys(view).some((k) => !ENVELOPE.has(k));
}

function board(ctx: MatchContext, view: View): HTMLElement {
  if (!dealt(view)) {
    return h("div", { class: "board undealt", "data-game": view.game, "data-seq": view.seq, "data-undealt": "yes" }, h("p", {}, t("match.not_dealt")));
  }
  if (view.game === "mount_drago") return md.mountDragoBoard(ctx, view);
  if (view.game === "yutaka") return yu.yutakaBoard(ctx, view);
  return h("p", {}, t("match.unknown_game", { game: (view as { game: string }).game }));
}

function animate(element: HTMLElement, ctx: MatchContext, before: View, view: View, places: Places): void {
  if (before.game !== view.game) return;
  if (view.game === "mount_drago") md.animateMountDrago(element, ctx, before as typeof view, view, places);
  else if (view.game === "yutaka") yu.animateYutaka(element, ctx, before as typeof view, view, places);
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

export function matchPage(root: HTMLElement, matchId: string, params: URLSearchParams): Page {
  if (absorbLink(matchId, params)) params = new URLSearchParams({ as: params.get("seat") ?? "" });
  const seat = chooseSeat(matchId, params);
  const stop = new AbortController();
  const state: MatchState = {
    matchId, summary: null, detail: null, seat, token: seat === null ? null : (credentials(matchId).seats[String(seat)]?.token ?? null),
    live: null, events: [], replay: null, busy: false, message: null, connection: "connecting", ui: {},
  };
  const status = h("p", { class: "message", role: "status" });
  const announcer = h("p", { class: "visually-hidden", "aria-live": "polite" });
  const chat = newChat();
  // The board drawn last, what it was drawn from, and the view it showed (for the motion).
  let drawn: { key: string; element: HTMLElement; view: View } | null = null;
  let logged = 0; // the newest seq the history has shown

  const ctx: MatchContext = {
    state,
    get view() { return state.replay ? (state.replay.view ?? drawn?.view ?? null) : state.live; },
    get playing() { return !state.replay && state.seat !== null && state.live?.status === "active"; },
    get names() { return (state.summary?.seats ?? []).map((s) => s.name ?? ""); },
    get compact() { return NARROW.matches; },
    act: (action) => void act(action),
    update: () => render(),
    say(text, error = false) { state.message = { text, error }; render(); },
    refreshSummary: async () => { state.summary = await api.getMatch(matchId); render(); },
  };

  // A view ahead of the history (a reconnect's `hello`, whose backlog frames follow; a reply that
  // overtook the stream) waits here until the history reaches it: the board never shows a state
  // whose events (the last card played, the log) the page does not hold yet.
  let ahead: View | null = null;
  function setView(view: View | null | undefined): void {
    if (view && (!ahead || view.seq >= ahead.seq)) ahead = view;
    if (!ahead || ahead.seq > (state.events.at(-1)?.seq ?? 0)) return;
    if (!state.live || ahead.seq >= state.live.seq) state.live = ahead;
    ahead = null;
  }

  /** Add events to the history, in order, each once: an action's reply and the stream both carry
   * them. A reply's events are taken only when they follow the history directly (else the stream,
   * which may still bring an earlier commit, adds them in order). */
  function addEvents(events: readonly Event[], reply = false): Event[] {
    const last = state.events.at(-1)?.seq ?? 0;
    const fresh = events.filter((e) => e.seq > last);
    if (reply && fresh[0] && fresh[0].seq !== last + 1) return [];
    state.events.push(...fresh);
    return fresh;
  }

  async function act(action: Action): Promise<void> {
    if (!state.live || !state.token || state.busy) return;
    state.busy = true;
    render();
    try {
      const reply = await api.submitAction(matchId, { action, expected_seq: state.live.seq }, { token: state.token });
      addEvents(reply.events, true);
      setView(reply.view);
      state.message = null;
    } catch (error) {
      state.message = { text: describeError(error), error: true };
    } finally {
      state.busy = false;
      render();
    }
  }

  /** The board for `view`, rebuilt only when something it shows changed; animated when its view did. */
  function boardFor(view: View): { element: HTMLElement; before: View | null } {
    const pick = state.ui.yutakaCard ?? null;
    const key = JSON.stringify([view, state.busy, pick, ctx.names, lang(), ctx.compact, state.replay !== null, state.events.at(-1)?.seq ?? 0]);
    if (drawn?.key === key) return { element: drawn.element, before: null };
    const before = drawn && drawn.view.seq !== view.seq && dealt(drawn.view) && dealt(view) ? drawn.view : null;
    drawn = { key, element: board(ctx, view), view };
    return { element: drawn.element, before };
  }

  function headline(): string {
    const live = state.live;
    const statusText = live ? t(`match.status.${live.status}`) : t("match.loading");
    const who = state.seat === null ? t("match.as_spectator") : t("match.as_seat", { name: seatName(ctx, state.seat), n: state.seat + 1 });
    return [statusText, live ? t("match.commit_seq", { seq: live.seq }) : null, who, t(`match.connection.${state.connection}`)].filter(Boolean).join(" · ");
  }

  // A press on the chat panel (a room's button, Send) spanning a redraw would do nothing: every
  // redraw replaces the panel, and Chromium sends no click when the element pressed has left the
  // page by the release. The end of a match brings several redraws at once (its frame, the
  // summary, the chat read again, the stream's end, the chat's own stream), spread out on a slow
  // network, just when the room that opened invites a press. So while such a press is down the
  // page holds its redraws, and draws after the release's click (or after HOLD_MS at the most: a
  // press held that long is let go). Only the chat's: a press on the board must not outlive a
  // commit that redraws it (its action would meet the new state).
  let pressing: ReturnType<typeof setTimeout> | null = null; // the hold's time limit, while a press is down
  let held = false; // a redraw waits for the release
  function press(event: PointerEvent): void {
    if (event.button !== 0 || !(event.target instanceof Element) || !event.target.closest(".chat")) return;
    if (pressing !== null) clearTimeout(pressing);
    pressing = setTimeout(release, HOLD_MS);
  }
  function release(): void {
    if (pressing === null) return;
    clearTimeout(pressing);
    pressing = null;
    if (held) setTimeout(() => { if (held) render(); }); // after the click the release makes
  }
  root.addEventListener("pointerdown", press, { capture: true, signal: stop.signal });
  for (const type of ["pointerup", "pointercancel"]) window.addEventListener(type, release, { capture: true, signal: stop.signal });

  function render(): void {
    if (stop.signal.aborted) return;
    held = pressing !== null;
    if (held) return;
    const view = ctx.view;
    const summary = state.summary;
    const title = summary ? (state.detail?.title ?? summary.game) : t("match.title");
    const shown = view ? boardFor(view) : null;
    const places: Places = shown?.before ? capture(root) : new Map();
    replaceChildren(
      root,
      h("main", { id: "main" },
      h("div", { class: "match-head" },
        h("h1", {}, title, " ", h("small", {}, t("match.id", { id: matchId.slice(0, 8) }))),
        h("p", { "data-status": state.live?.status ?? "", "data-connection": state.connection }, headline())),
      status,
      announcer,
      h("div", { class: "match" },
        h("section", { class: "main", "aria-label": t("match.board") },
          state.replay ? h("p", { class: "replay-note", "data-loading": state.replay.view ? null : "yes" },
            t("match.replay_note", { seq: state.replay.at }), state.replay.view ? "" : ` ${t("match.replay_loading")}`) : null,
          shown ? shown.element : h("p", {}, t("match.loading")),
          draft.draftControls(ctx),
          view ? otherActions(ctx, handled(view.game)) : null),
        h("aside", { class: "side", "aria-label": t("match.side") },
          resultPanel(ctx), clockPanel(ctx), resignControl(ctx), seatsPanel(ctx), hostPanel(ctx),
          chatPanel(ctx, chat), replayControl(ctx), fairnessPanel(ctx), eventLog(ctx)))),
    );
    status.textContent = state.message?.text ?? (state.busy ? t("match.sending") : "");
    status.className = state.message?.error ? "message error" : "message";
    if (shown?.before && view) animate(shown.element, ctx, shown.before, view, places);
    const newest = state.events.at(-1)?.seq ?? 0;
    if (logged && newest > logged) {
      for (const line of root.querySelectorAll<HTMLElement>(".log li")) if (Number(line.dataset.seq) > logged) highlight(line);
    }
    logged = newest;
  }

  /** Tell screen readers what the others did (one's own moves are known). */
  function announce(events: readonly Event[]): void {
    const lines = events
      .filter((e) => (e.data as { seat?: number }).seat !== state.seat || e.type === "match_ended")
      .filter((e) => !e.type.startsWith("draft_") && e.type !== "cards_drawn" && e.type !== "card_drawn")
      .map((e) => describeText(ctx, e));
    if (lines.length) announcer.textContent = lines.join(". ");
  }

  async function history(): Promise<number> {
    let after = 0;
    for (;;) {
      const page = await api.listEvents(matchId, { after }, state.token ? { token: state.token } : {});
      addEvents(page.events);
      after = page.events.at(-1)?.seq ?? after;
      if (page.events.length === 0 || after >= page.seq) return after;
    }
  }

  async function follow(): Promise<void> {
    const [summary, after] = await Promise.all([api.getMatch(matchId), history()]);
    state.summary = summary;
    state.detail = await gameDetail(summary.game);
    render();
    const onChat = ({ message }: ChatFrame) => {
      if (receive(chat, [message]).length && message.author.seat !== state.seat) announcer.textContent = spoken(ctx, message);
      render();
    };
    const options = { token: state.token, after, hellos: true as const, signal: stop.signal, onChat };
    for await (const frame of api.follow(matchId, options)) {
      if (frame.type === "hello") {
        state.connection = "live";
        setView(frame.view);
        void loadChat(ctx, chat); // what was written before (or while reconnecting)
      } else {
        const fresh = addEvents(frame.events);
        setView(frame.view);
        if (frame.events.some((e) => SUMMARY_EVENTS.has(e.type))) state.summary = await api.getMatch(matchId);
        if (frame.events.some((e) => e.type === "match_ended")) void loadChat(ctx, chat, true); // both rooms open now
        announce(fresh);
      }
      render();
    }
    state.summary = await api.getMatch(matchId);
    if (!state.live || state.live.seq < state.summary.seq) setView(await api.getView(matchId, {}, state.token ? { token: state.token } : {}));
    state.connection = "closed";
    render();
    await loadChat(ctx, chat, true); // over: both rooms are open now
    if (chat.available) await chatAfterEnd(onChat);
  }

  /** After the end the chat goes on (both rooms, for everyone who may watch): keep its frames coming. */
  async function chatAfterEnd(onChat: (frame: ChatFrame) => void): Promise<void> {
    const options = { token: state.token, after: state.live?.seq ?? null, views: false, untilEnd: false, hellos: true as const, signal: stop.signal, onChat };
    for await (const frame of api.follow(matchId, options)) if (frame.type === "hello") void loadChat(ctx, chat);
  }

  const relayout = () => render();
  NARROW.addEventListener("change", relayout);
  render();
  follow().catch((error: unknown) => {
    if (stop.signal.aborted) return;
    state.connection = "closed";
    const refused = error instanceof Unauthorized || (error instanceof StreamClosed && error.code === 4401);
    if (refused && state.seat !== null) {
      forgetSeat(matchId, state.seat);
      state.message = { text: t("match.token_gone", { n: state.seat + 1 }), error: true };
    } else {
      state.message = { text: error instanceof ApiError ? describeError(error) : t("match.connection_lost", { error: describeError(error) }), error: true };
    }
    render();
  });
  return {
    dispose() {
      stop.abort();
      NARROW.removeEventListener("change", relayout);
    },
    relabel: render,
  };
}
