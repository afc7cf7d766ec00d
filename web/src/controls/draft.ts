/** Turn drafts: "Undo" takes the last private step back, "Finish turn" publishes the turn. */

import { button, h } from "../dom.js";
import { t, tn } from "../i18n/index.js";
import { actionAttrs, findLegal, type MatchContext } from "../match/context.js";

export const HANDLES: ReadonlySet<string> = new Set(["undo", "finish_turn"]);

export function draftControls(ctx: MatchContext): HTMLElement | null {
  const undo = findLegal(ctx, { type: "undo" });
  const finish = findLegal(ctx, { type: "finish_turn" });
  const draft = ctx.view?.draft;
  if (!undo && !finish && !draft) return null;
  return h("div", { class: "draft", role: "group", "aria-label": t("draft.group") },
    draft ? h("span", {}, tn("draft.steps", draft.steps), " ") : null,
    undo ? button(t("draft.undo"), () => ctx.act(undo), { "data-group": "turn", ...actionAttrs(ctx, undo, t("draft.undo_label")) }) : null,
    finish ? button(t("draft.finish"), () => ctx.act(finish), { class: "primary", "data-group": "turn", ...actionAttrs(ctx, finish, t("draft.finish")) }) : null);
}
