/**
 * Any legal action no component draws (a newer server's action type): a plain button each, named
 * by its type, so the page never leaves a seat unable to act.
 */

import { button, h } from "../dom.js";
import { has, t, type Key } from "../i18n/index.js";
import { actionAttrs, legal, type MatchContext } from "../match/context.js";

export function otherActions(ctx: MatchContext, handled: ReadonlySet<string>): HTMLElement | null {
  const rest = legal(ctx).filter((a) => !handled.has(String(a.type)));
  if (rest.length === 0) return null;
  return h("div", { class: "other-actions", role: "group", "aria-label": t("match.other_actions") },
    rest.map((a, i) => {
      const type = String(a.type);
      const label = t("match.other_action", { action: has(`action.${type}`) ? t(`action.${type}` as Key) : type, n: i + 1 });
      return button(label, () => ctx.act(a), { "data-group": "turn", ...actionAttrs(ctx, a, label) });
    }));
}
