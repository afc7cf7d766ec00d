/**
 * Any legal action no component draws (a newer server's action type): a plain button each, so the
 * page never leaves a seat unable to act.
 */

import { button, h } from "../dom.js";
import { actionAttrs, legal, type MatchContext } from "../match/context.js";

export function otherActions(ctx: MatchContext, handled: ReadonlySet<string>): HTMLElement | null {
  const rest = legal(ctx).filter((a) => !handled.has(String(a.type)));
  if (rest.length === 0) return null;
  return h("div", { class: "other-actions", role: "group", "aria-label": "Other actions" },
    rest.map((a) => {
      const label = JSON.stringify(a);
      return button(label, () => ctx.act(a), actionAttrs(ctx, a, label));
    }));
}
