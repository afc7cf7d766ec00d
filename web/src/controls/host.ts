/**
 * The host's controls, for a match created in this browser: the invite link of an unlisted match,
 * abort before the start, reissue a seat's token (the old one stops working; the new one is shown
 * once, as a link that stores it in the browser that opens it), and hand a silent seat to a bot.
 */

import { api, describeError } from "../api.js";
import { button, h } from "../dom.js";
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
      ctx.say(`${what}: done.`);
      await ctx.refreshSummary();
    } catch (error) {
      ctx.say(`${what}: ${describeError(error)}`, true);
    }
  };
  const issued = (ctx.state.ui.reissued ?? {}) as Record<string, string>;
  const invite = host.invite ? absoluteLink(matchHref(summary.id, { invite: host.invite })) : null;
  return h(
    "section",
    { class: "host", "aria-labelledby": "host-title" },
    h("h2", { id: "host-title" }, "Host"),
    invite ? h("p", {}, "Invite link: ", h("input", { type: "text", readonly: true, value: invite, "aria-label": "Invite link", class: "copy" })) : null,
    summary.status === "waiting"
      ? button("Abort the match", () => void run("Abort", () => api.abortMatch(summary.id, host.token)), { "data-key": "host-abort" })
      : null,
    over ? null : h("ul", { class: "host-seats" }, summary.seats.filter((s) => s.taken && !s.bot).map((s) => h("li", {},
      `Seat ${s.seat} (${s.name ?? "?"}) `,
      button("Reissue token", () => void run(`Reissue seat ${s.seat}`, () => api.reissueSeatToken(summary.id, s.seat, host.token),
        (result) => { issued[String(s.seat)] = (result as { token: string }).token; ctx.state.ui.reissued = issued; }),
        { "aria-label": `Reissue the token of seat ${s.seat}`, "data-key": `host-reissue-${s.seat}` }),
      summary.status === "active"
        ? button("Hand to a bot", () => void run(`Seat ${s.seat} to a bot`, () => api.handSeatToBot(summary.id, s.seat, host.token)),
          { "aria-label": `Hand seat ${s.seat} to a bot`, "data-key": `host-bot-${s.seat}` })
        : null,
      issued[String(s.seat)]
        ? h("p", {}, "New seat link (shown once): ", h("input", { type: "text", readonly: true, class: "copy",
          value: absoluteLink(matchHref(summary.id, { seat: String(s.seat), token: issued[String(s.seat)]! })), "aria-label": `New link for seat ${s.seat}` }))
        : null))),
  );
}
