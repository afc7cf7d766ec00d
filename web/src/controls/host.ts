/**
 * The host's controls, for a match created in this browser: the invite link of an unlisted match,
 * abort before the start, reissue a seat's token (the old one stops working; the new one is shown
 * once, as a link that stores it in the browser that opens it), and hand a silent seat to a bot.
 */

import { api, describeError } from "../api.js";
import { button, h } from "../dom.js";
import { t } from "../i18n/index.js";
import type { MatchContext } from "../match/context.js";
import { absoluteLink, matchHref } from "../route.js";
import { credentials } from "../session.js";

export function hostPanel(ctx: MatchContext): HTMLElement | null {
  const summary = ctx.state.summary;
  const host = credentials(ctx.state.matchId).host;
  if (!summary || !host) return null;
  const over = summary.status === "finished" || summary.status === "aborted";
  const run = async (what: string, call: () => Promise<unknown>, after?: (result: unknown) => void) => {
    try {
      const result = await call();
      after?.(result);
      ctx.say(t("host.done", { what }));
      await ctx.refreshSummary();
    } catch (error) {
      ctx.say(t("host.failed", { what, error: describeError(error) }), true);
    }
  };
  const issued = (ctx.state.ui.reissued ?? {}) as Record<string, string>;
  const invite = host.invite ? absoluteLink(matchHref(summary.id, { invite: host.invite })) : null;
  return h(
    "section",
    { class: "host", "aria-labelledby": "host-title" },
    h("h2", { id: "host-title" }, t("host.title")),
    invite ? h("p", {}, h("label", { for: "invite-link" }, t("host.invite")), h("input", { type: "text", id: "invite-link", readonly: true, value: invite, class: "copy" })) : null,
    summary.status === "waiting"
      ? button(t("host.abort"), () => void run(t("host.abort"), () => api.abortMatch(summary.id, host.token)), { "data-key": "host-abort" })
      : null,
    over ? null : h("ul", { class: "host-seats" }, summary.seats.filter((s) => s.taken && !s.bot).map((s) => {
      const n = s.seat + 1;
      const name = s.name ?? "";
      return h("li", {},
        t("host.seat", { n, name }), " ",
        button(t("host.reissue"), () => void run(t("host.reissue_what", { n }), () => api.reissueSeatToken(summary.id, s.seat, host.token),
          (result) => { issued[String(s.seat)] = (result as { token: string }).token; ctx.state.ui.reissued = issued; }),
          { "aria-label": t("host.reissue_label", { n }), "data-key": `host-reissue-${s.seat}` }),
        summary.status === "active"
          ? button(t("host.to_bot"), () => void run(t("host.to_bot_what", { n }), () => api.handSeatToBot(summary.id, s.seat, host.token)),
            { "aria-label": t("host.to_bot_label", { n }), "data-key": `host-bot-${s.seat}` })
          : null,
        issued[String(s.seat)]
          ? h("p", {}, h("label", { for: `new-link-${s.seat}` }, t("host.new_link", { n })), h("input", { type: "text", readonly: true, class: "copy", id: `new-link-${s.seat}`,
            value: absoluteLink(matchHref(summary.id, { seat: String(s.seat), token: issued[String(s.seat)]! })) }))
          : null);
    })),
  );
}
