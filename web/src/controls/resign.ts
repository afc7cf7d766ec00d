/** Resigning: two presses (resign, then confirm), for a seat of an active match that has not resigned. */

import { api, describeError } from "../api.js";
import { button, h } from "../dom.js";
import { t } from "../i18n/index.js";
import type { MatchContext } from "../match/context.js";

export function resignControl(ctx: MatchContext): HTMLElement | null {
  const { seat, token, summary, replay } = ctx.state;
  if (seat === null || !token || replay || summary?.status !== "active" || summary.seats[seat]?.resigned) return null;
  const confirming = ctx.state.ui.confirmResign === true;
  const resign = async () => {
    try {
      await api.resign(ctx.state.matchId, { token });
      ctx.say(t("resign.done"));
      await ctx.refreshSummary();
    } catch (error) {
      ctx.say(describeError(error), true);
    }
  };
  return h("div", { class: "resign" },
    confirming
      ? [h("span", {}, t("resign.confirm"), " "),
        button(t("resign.yes"), () => { delete ctx.state.ui.confirmResign; void resign(); }, { class: "danger", "data-key": "resign-yes" }),
        button(t("resign.no"), () => { delete ctx.state.ui.confirmResign; ctx.update(); }, { "aria-label": t("resign.no_label"), "data-key": "resign-no" })]
      : button(t("resign.resign"), () => { ctx.state.ui.confirmResign = true; ctx.update(); }, { "data-key": "resign" }));
}
