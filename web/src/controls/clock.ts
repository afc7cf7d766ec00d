/**
 * The turn clock: each seat to act and its deadline (and bank), counting down every second. The
 * countdown updates the text of `[data-deadline]` elements in place, so the page is not rebuilt.
 */

import { h } from "../dom.js";
import { dateTime, t } from "../i18n/index.js";
import { seatName, type MatchContext } from "../match/context.js";

function left(deadline: string): string {
  const seconds = Math.max(0, Math.round((Date.parse(deadline) - Date.now()) / 1000));
  const d = Math.floor(seconds / 86400);
  const hms = [Math.floor(seconds / 3600) % 24, Math.floor(seconds / 60) % 60, seconds % 60].map((n) => String(n).padStart(2, "0")).join(":");
  return d > 0 ? t("clock.days", { d, hms }) : hms;
}

let ticking = false;

function tick(): void {
  for (const element of document.querySelectorAll<HTMLElement>("[data-deadline]")) {
    element.textContent = left(element.dataset.deadline ?? "");
  }
}

export function clockPanel(ctx: MatchContext): HTMLElement | null {
  const clock = ctx.view?.clock ?? [];
  if (clock.length === 0 || ctx.view?.status !== "active") return null;
  if (!ticking) {
    ticking = true;
    setInterval(tick, 1000);
  }
  return h("section", { class: "clock", "aria-labelledby": "clock-title" },
    h("h2", { id: "clock-title" }, t("clock.title")),
    h("ul", {}, clock.map((c) => h("li", {},
      `${seatName(ctx, c.seat)}: `,
      h("time", { datetime: c.deadline, "data-deadline": c.deadline, title: t("clock.until", { when: dateTime(c.deadline) }) }, left(c.deadline)),
      c.bank_s !== null && c.bank_s !== undefined ? ` ${t("clock.bank", { s: Math.round(c.bank_s) })}` : ""))));
}
