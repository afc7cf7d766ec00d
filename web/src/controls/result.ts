/** The final result: why the match ended, the winners, the scores (and Yutakâ's points per island). */

import { h } from "../dom.js";
import { has, list, t, type Key } from "../i18n/index.js";
import { seatName, type MatchContext } from "../match/context.js";

interface IslandScore {
  island: number;
  points: number[];
}

export function resultPanel(ctx: MatchContext): HTMLElement | null {
  const outcome = ctx.state.live?.outcome;
  if (!outcome) return null;
  const name = (seat: number) => seatName(ctx, seat);
  const reason = has(`result.reason.${outcome.reason}`) ? t(`result.reason.${outcome.reason}` as Key) : outcome.reason;
  const islands = (outcome.details as { islands?: IslandScore[] }).islands;
  const live = ctx.state.live;
  const islandName = (i: number) => (live?.game === "yutaka" ? live.islands[i]?.name : undefined) ?? String(i + 1);
  const seats = (outcome.scores ?? islands?.[0]?.points ?? []).map((_, seat) => seat);
  return h("section", { class: "result", "aria-labelledby": "result-title", "data-outcome": outcome.reason },
    h("h2", { id: "result-title" }, t("result.title")),
    h("p", { class: "winners" }, outcome.winners.length
      ? t(outcome.winners.length === 1 ? "result.winner" : "result.winners", { names: list(outcome.winners.map(name)), reason })
      : t("result.nobody", { reason })),
    outcome.scores ? h("ul", {}, outcome.scores.map((score, seat) => h("li", { "data-final-score": seat }, t("result.score", { name: name(seat), score })))) : null,
    islands ? h("table", {}, h("caption", {}, t("result.per_island")),
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("result.island")), seats.map((seat) => h("th", { scope: "col" }, name(seat))))),
      h("tbody", {}, islands.map((i) => h("tr", {}, h("th", { scope: "row" }, islandName(i.island)), i.points.map((p) => h("td", {}, p)))))) : null);
}
