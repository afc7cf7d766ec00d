/** The final result: why the match ended, the winners, the scores (and Yutakâ's points per island). */

import { h } from "../dom.js";
import type { MatchContext } from "../match/context.js";

interface IslandScore {
  island: number;
  points: number[];
}

export function resultPanel(ctx: MatchContext): HTMLElement | null {
  const outcome = ctx.state.live?.outcome;
  if (!outcome) return null;
  const name = (seat: number) => ctx.names[seat] ?? `Seat ${seat}`;
  const winners = outcome.winners.length ? outcome.winners.map(name).join(" and ") : "nobody";
  const islands = (outcome.details as { islands?: IslandScore[] }).islands;
  return h("section", { class: "result", "aria-labelledby": "result-title", "data-outcome": outcome.reason },
    h("h2", { id: "result-title" }, "Result"),
    h("p", { class: "winners" }, `Winner${outcome.winners.length === 1 ? "" : "s"}: ${winners} (${outcome.reason})`),
    outcome.scores ? h("ul", {}, outcome.scores.map((score, seat) => h("li", { "data-final-score": seat }, `${name(seat)}: ${score}`))) : null,
    islands ? h("table", {}, h("caption", {}, "Points per island"),
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Island"), ctx.names.map((n) => h("th", { scope: "col" }, n)))),
      h("tbody", {}, islands.map((i) => h("tr", {}, h("th", { scope: "row" }, i.island), i.points.map((p) => h("td", {}, p)))))) : null);
}
