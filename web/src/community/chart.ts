/**
 * A player's rating in one game over its rated matches, drawn as an SVG line chart: one point per
 * match (the displayed rating after it), the lowest and highest rating on the left axis, the first
 * and last date below. The chart is an image with a name that says what it shows in words (from,
 * to, how many matches, the best); each point has a title for pointers. No library, no inline style
 * (the page's Content-Security-Policy refuses those): the colours come from style.css.
 */

import type { HistoryPoint } from "drago-client";
import { s } from "../dom.js";
import { dateTime, t, tn } from "../i18n/index.js";

const W = 480;
const H = 160;
const LEFT = 44;
const RIGHT = 10;
const TOP = 10;
const BOTTOM = 26;

const fixed = (n: number): string => n.toFixed(1);

export function ratingChart(points: readonly HistoryPoint[], title: string): SVGSVGElement {
  const ratings = [points[0]?.rating_before ?? 0, ...points.map((p) => p.rating_after)];
  const low = Math.floor(Math.min(...ratings));
  const high = Math.max(Math.ceil(Math.max(...ratings)), low + 1);
  const x = (i: number) => LEFT + ((W - LEFT - RIGHT) * i) / Math.max(ratings.length - 1, 1);
  const y = (r: number) => TOP + ((H - TOP - BOTTOM) * (high - r)) / (high - low);
  const first = ratings[0]!;
  const last = ratings.at(-1)!;
  const label = [title, tn("profile.chart_summary", points.length, { from: fixed(first), to: fixed(last), best: fixed(Math.max(...ratings)) })].join(": ");
  return s("svg", { viewBox: `0 0 ${W} ${H}`, class: "rating-chart", role: "img", "aria-label": label },
    s("line", { x1: LEFT, y1: TOP, x2: LEFT, y2: H - BOTTOM, class: "axis" }),
    s("line", { x1: LEFT, y1: H - BOTTOM, x2: W - RIGHT, y2: H - BOTTOM, class: "axis" }),
    s("text", { x: LEFT - 6, y: y(high) + 4, "text-anchor": "end", class: "tick" }, String(high)),
    s("text", { x: LEFT - 6, y: y(low), "text-anchor": "end", class: "tick" }, String(low)),
    points.length ? [
      s("text", { x: LEFT, y: H - 8, class: "tick" }, dateTime(points[0]!.at)),
      s("text", { x: W - RIGHT, y: H - 8, "text-anchor": "end", class: "tick" }, dateTime(points.at(-1)!.at)),
    ] : null,
    s("polyline", { points: ratings.map((r, i) => `${fixed(x(i))},${fixed(y(r))}`).join(" "), class: "line" }),
    ratings.map((r, i) => s("circle", { cx: fixed(x(i)), cy: fixed(y(r)), r: 3, class: "point", "data-rating": fixed(r) },
      s("title", {}, i === 0 ? t("profile.chart_start", { rating: fixed(r) }) : t("profile.chart_point", { rating: fixed(r), time: dateTime(points[i - 1]!.at), rank: points[i - 1]!.rank })))));
}
