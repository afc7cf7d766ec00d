/** Turn drafts: "Undo" takes the last private step back, "Finish turn" publishes the turn. */

import { button, h } from "../dom.js";
import { actionAttrs, findLegal, type MatchContext } from "../match/context.js";

export const HANDLES: ReadonlySet<string> = new Set(["undo", "finish_turn"]);

export function draftControls(ctx: MatchContext): HTMLElement | null {
  const undo = findLegal(ctx, { type: "undo" });
  const finish = findLegal(ctx, { type: "finish_turn" });
  const draft = ctx.view?.draft;
  if (!undo && !finish && !draft) return null;
  return h("div", { class: "draft", role: "group", "aria-label": "Turn draft" },
    draft ? h("span", {}, `Draft: ${draft.steps} step${draft.steps === 1 ? "" : "s"}, only you see them. `) : null,
    undo ? button("Undo", () => ctx.act(undo), actionAttrs(ctx, undo, "Undo the last step")) : null,
    finish ? button("Finish turn", () => ctx.act(finish), { class: "primary", ...actionAttrs(ctx, finish, "Finish turn") }) : null);
}
