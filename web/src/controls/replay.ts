/**
 * The replay slider: one step per commit of the history (`view?at=` accepts only seqs that end a
 * commit, and every event carries its commit's seq), showing the board as this viewer saw it then
 * — and moving it there as a live commit moves it, step by step. "Back to live" returns to the
 * live view; the live updates keep arriving meanwhile.
 */

import { api, describeError } from "../api.js";
import { button, h } from "../dom.js";
import { t } from "../i18n/index.js";
import type { MatchContext } from "../match/context.js";

/** The seqs that end a commit, in order. */
export function commits(ctx: MatchContext): number[] {
  return [...new Set(ctx.state.events.map((e) => e.commit))].sort((a, b) => a - b);
}

let pending = 0;

async function show(ctx: MatchContext, at: number): Promise<void> {
  const ticket = ++pending;
  ctx.state.replay = { at, view: ctx.state.replay?.at === at ? ctx.state.replay.view : null };
  ctx.update();
  try {
    const view = await api.getView(ctx.state.matchId, { at }, ctx.state.token ? { token: ctx.state.token } : {});
    if (ticket === pending && ctx.state.replay?.at === at) {
      ctx.state.replay = { at, view };
      ctx.update();
    }
  } catch (error) {
    ctx.say(t("replay.failed", { error: describeError(error) }), true);
  }
}

export function replayControl(ctx: MatchContext): HTMLElement | null {
  const seqs = commits(ctx);
  if (seqs.length < 2) return null;
  const replay = ctx.state.replay;
  const index = replay ? Math.max(0, seqs.indexOf(replay.at)) : seqs.length - 1;
  const slider = h("input", {
    type: "range", min: 0, max: seqs.length - 1, step: 1, value: index, id: "replay", "data-key": "replay",
    "aria-valuetext": t("replay.valuetext", { n: index + 1, of: seqs.length, seq: seqs[index] ?? 0 }),
  });
  slider.addEventListener("input", () => void show(ctx, seqs[Number(slider.value)]!));
  return h("section", { class: "replay", "aria-labelledby": "replay-title" },
    h("h2", { id: "replay-title" }, t("replay.title")),
    h("label", { for: "replay" }, replay ? t("replay.at", { n: index + 1, of: seqs.length, seq: replay.at }) : t("replay.live", { of: seqs.length })),
    slider,
    replay ? button(t("replay.back"), () => { pending++; ctx.state.replay = null; ctx.update(); }, { "data-key": "replay-live" }) : null);
}
