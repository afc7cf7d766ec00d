/**
 * The seats: who holds each, bots, resignations, whose turn it is; a free seat of a waiting match
 * can be joined with a name (an unlisted match's invite comes from the link or the host's storage).
 * Below, "View as": the seats this browser holds in the match, and the spectator.
 */

import { api, describeError } from "../api.js";
import { h, replaceChildren } from "../dom.js";
import { has, t, type Key } from "../i18n/index.js";
import { seatName, type MatchContext } from "../match/context.js";
import { matchHref } from "../route.js";
import { credentials, heldSeats, lastName, rememberName, saveSeat } from "../session.js";

async function join(ctx: MatchContext, seat: number, input: HTMLInputElement, status: HTMLElement): Promise<void> {
  const name = input.value.trim();
  if (!name) {
    status.textContent = t("seats.name_first");
    input.focus();
    return;
  }
  const matchId = ctx.state.matchId;
  try {
    const invite = credentials(matchId).invite ?? null;
    const token = await api.joinSeat(matchId, seat, { name, invite });
    saveSeat(matchId, seat, { token: token.token, name });
    rememberName(name);
    location.hash = matchHref(matchId, { as: String(seat) });
  } catch (error) {
    replaceChildren(status, t("seats.join_failed", { error: describeError(error) }));
  }
}

const level = (code: string | null | undefined): string => (code && has(`bot.level.${code}`) ? t(`bot.level.${code}` as Key) : t("bot.level.default"));

export function seatsPanel(ctx: MatchContext): HTMLElement | null {
  const summary = ctx.state.summary;
  if (!summary) return null;
  const toAct = new Set(ctx.view?.to_act ?? summary.to_act);
  const held = new Set(heldSeats(summary.id));
  const status = h("p", { role: "status", class: "message" });
  const rows = summary.seats.map((s) => {
    const n = s.seat + 1;
    let who = !s.taken ? t("seats.free") : s.bot ? t("seats.bot", { name: s.name ?? "", level: level(s.level) }) : (s.name ?? "");
    if (s.resigned) who = t("seats.resigned", { who });
    let joinForm: HTMLElement | null = null;
    if (!s.taken && summary.status === "waiting") {
      const typed = ctx.state.ui[`joinName${s.seat}`];
      const input = h("input", { type: "text", maxlength: 40, value: typeof typed === "string" ? typed : lastName(), id: `join-name-${s.seat}`,
        "data-key": `join-name-${s.seat}`, "aria-label": t("seats.your_name", { n }), autocomplete: "nickname" });
      input.addEventListener("input", () => (ctx.state.ui[`joinName${s.seat}`] = input.value)); // kept across redraws
      joinForm = h("form", { class: "inline", onsubmit: (event: Event) => { event.preventDefault(); void join(ctx, s.seat, input, status); } },
        input, h("button", { type: "submit", id: `join-${s.seat}`, "data-key": `join-${s.seat}` }, t("seats.join", { n })));
    }
    return h("li", { "data-seat": s.seat, class: toAct.has(s.seat) ? "on-turn" : "" },
      toAct.has(s.seat) ? h("span", { class: "to-act" }, t("seats.to_act"), " ") : null,
      t("seats.row", { n, who }), held.has(s.seat) ? ` ${t("seats.this_browser")}` : "", joinForm);
  });
  const views = [...held].map((seat) => ({ seat: String(seat), label: t("seats.view_seat", { n: seat + 1, name: seatName(ctx, seat) }) }));
  views.push({ seat: "spectator", label: t("seats.spectator") });
  const current = ctx.state.seat === null ? "spectator" : String(ctx.state.seat);
  return h(
    "section",
    { class: "seats", "aria-labelledby": "seats-title" },
    h("h2", { id: "seats-title" }, t("seats.title")),
    h("ul", {}, rows),
    status,
    h("nav", { class: "view-as", "aria-label": t("seats.view_as_label") }, t("seats.view_as"), " ",
      views.map((v, i) => [i ? " · " : "", v.seat === current
        ? h("strong", { "aria-current": "page" }, v.label)
        : h("a", { href: matchHref(summary.id, { as: v.seat }) }, v.label)])),
  );
}
