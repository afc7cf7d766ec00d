/**
 * Mount Drago's board in SVG, built from the track the server publishes (the catalogue's side for
 * the player count, or a match's own track): the mountain, the path from the start to the summit
 * winding up it in rows that narrow towards the top, every space shaped by its kind (plain circle,
 * blue diamond, green hexagon, summit peak) with its printed value, and the ten dragon tokens on
 * their spaces with their riders. Every space and every dragon has an accessible name.
 *
 * `layoutTrack` is pure geometry, so the motion of a dragon can follow the path space by space.
 */

import type { MountDrago } from "drago-client";
import { s } from "../dom.js";
import { t, tn } from "../i18n/index.js";
import { play } from "../match/motion.js";
import { dragonName, dragonToken } from "./pieces.js";

export interface Point {
  x: number;
  y: number;
}

export interface TrackLayout {
  width: number;
  height: number;
  /** The centre of each space, by index (index 0: the start). */
  centers: Point[];
  /** The start's area (all ten dragons fit on it). */
  start: { x: number; y: number; width: number; height: number };
  peak: Point;
}

const SUMMIT = 4; // the last four spaces are the summit (validated by the server)
const SCALE = 1.45; // a dragon token's size on the board
const TOKEN = 34; // distance between two dragons standing on one space
const LIFT = 42; // dragons stand above their space's centre
const ROW = 31; // and, when many share a space, in rows above each other

/** Rows from the bottom, each one space shorter than the one below (a mountain), serpentine. */
export function layoutTrack(count: number, compact: boolean): TrackLayout {
  const width = compact ? 430 : 960;
  const gap = compact ? 104 : 112; // between neighbouring spaces of a row
  const rowHeight = compact ? 98 : 104;
  const middle = Math.max(0, count - 1 - SUMMIT);
  const widest = compact ? 4 : 8;
  const narrowest = compact ? 3 : 4;
  const taper = middle <= (compact ? 30 : 40); // a long custom track keeps its rows wide
  const capacity = (row: number) => (taper ? Math.max(widest - (compact ? Math.floor(row / 2) : row), narrowest) : widest);
  const rows: number[] = [];
  for (let left = middle, row = 0; left > 0; row++) {
    rows.push(Math.min(capacity(row), left));
    left -= rows[row]!;
  }
  const summitY = 118;
  const rowY = (row: number) => summitY + rowHeight * (rows.length - row);
  const centers: Point[] = [];
  const startY = rowY(0) + rowHeight * 0.95;
  const startWidth = 5 * TOKEN + 24;
  let rightward = true;
  let lastX = width / 2;
  rows.forEach((inRow, row) => {
    const full = capacity(row);
    const span = (full - 1) * gap;
    const first = width / 2 - span / 2;
    for (let i = 0; i < inRow; i++) {
      const x = rightward ? first + i * gap : first + span - i * gap;
      centers.push({ x, y: rowY(row) });
      lastX = x;
    }
    rightward = !rightward;
  });
  const startX = Math.max(startWidth / 2 + 8, (centers[0]?.x ?? width / 2) - (compact ? 0 : 40));
  centers.unshift({ x: startX, y: startY });
  // The summit: four spaces on the peak, entered from the side the path arrives on.
  const summitGap = compact ? 82 : 90;
  const fromRight = lastX > width / 2;
  for (let i = 0; i < Math.min(SUMMIT, count - 1); i++) {
    const offset = (i - (SUMMIT - 1) / 2) * summitGap;
    centers.push({ x: width / 2 + (fromRight ? -offset : offset), y: summitY });
  }
  return {
    width,
    height: startY + 60,
    centers,
    start: { x: startX, y: startY, width: startWidth, height: 96 },
    peak: { x: width / 2, y: 18 },
  };
}

/** Where each of `count` dragons on one space stands, relative to the space's centre. */
function cluster(count: number, start: boolean): Point[] {
  const perRow = start ? 5 : 3;
  const points: Point[] = [];
  for (let i = 0; i < count; i++) {
    const row = Math.floor(i / perRow);
    const inRow = Math.min(perRow, count - row * perRow);
    const column = i % perRow;
    const x = (column - (inRow - 1) / 2) * TOKEN;
    points.push(start ? { x, y: -22 + row * ROW } : { x, y: -LIFT - row * ROW });
  }
  return points;
}

function spaceShape(kind: string): SVGElement {
  switch (kind) {
    case "blue": return s("rect", { class: "shape", x: -18, y: -18, width: 36, height: 36, rx: 4, transform: "rotate(45)" });
    case "green": return s("polygon", { class: "shape", points: "-24,0 -12,-21 12,-21 24,0 12,21 -12,21" });
    case "summit": return s("polygon", { class: "shape", points: "0,-27 25,17 -25,17" });
    default: return s("circle", { class: "shape", r: 21 });
  }
}

export function spaceText(space: MountDrago.Space, index: number): string {
  if (space.kind === "start") return t("md.space.start");
  return t(`md.space.${space.kind}`, { n: index, value: space.value });
}

export interface TrackDrawing {
  spaces: readonly MountDrago.Space[];
  layout: TrackLayout;
  positions: Record<string, number>;
  /** The seat riding each dragon, if any. */
  riders: Record<string, number>;
  /** The viewer's own dragon. */
  own: string | null;
  names: readonly string[];
  caption: string;
}

/** The board as an SVG figure (a `role="group"` named by `captionId`). */
export function trackSvg(drawing: TrackDrawing, captionId: string): SVGSVGElement {
  const { layout, spaces, positions } = drawing;
  const { width, height, centers, start, peak } = layout;
  const byIndex = new Map<number, string[]>();
  for (const [dragon, at] of Object.entries(positions)) byIndex.set(at, [...(byIndex.get(at) ?? []), dragon]);
  const trail = centers.map((p, i) => `${i ? "L" : "M"}${p.x.toFixed(1)},${p.y.toFixed(1)}`).join(" ");
  const base = height;
  const left = Math.min(...centers.map((p) => p.x)) - 70;
  const right = Math.max(...centers.map((p) => p.x)) + 70;
  const mountain = `M0,${base} L${Math.max(0, left)},${centers[1]?.y ?? base} L${peak.x - 170},${peak.y + 80} L${peak.x},${peak.y} ` +
    `L${peak.x + 170},${peak.y + 80} L${Math.min(width, right)},${centers[1]?.y ?? base} L${width},${base} Z`;
  const snow = `M${peak.x - 62},${peak.y + 29} L${peak.x},${peak.y} L${peak.x + 62},${peak.y + 29} L${peak.x + 30},${peak.y + 22} L${peak.x + 10},${peak.y + 34} L${peak.x - 18},${peak.y + 22} Z`;
  const label = (dragon: string, at: number) => {
    const seat = drawing.riders[dragon];
    const where = spaceText(spaces[at] ?? { kind: "plain", value: 0 }, at);
    return seat === undefined
      ? t("md.token", { dragon: dragonName(dragon), where })
      : t("md.token_ridden", { dragon: dragonName(dragon), where, rider: drawing.names[seat] ?? "" });
  };
  return s("svg", { class: "track", viewBox: `0 0 ${width} ${height}`, role: "group", "aria-labelledby": captionId, "data-width": width },
    s("path", { class: "mountain", d: mountain, "aria-hidden": "true" }),
    s("path", { class: "snow", d: snow, "aria-hidden": "true" }),
    s("path", { class: "trail", d: trail, "aria-hidden": "true" }),
    s("path", { class: "trail-steps", d: trail, "aria-hidden": "true" }),
    s("text", { class: "summit-label", x: peak.x, y: peak.y + 58, "aria-hidden": "true" }, t("md.summit")),
    spaces.map((space, index) => {
      const at = centers[index];
      if (!at) return null;
      const here = (byIndex.get(index) ?? []).map(dragonName);
      const name = spaceText(space, index) + (here.length ? `: ${tn("md.dragons_here", here.length, { dragons: here.join(", ") })}` : "");
      if (space.kind === "start") {
        return s("g", { class: "space kind-start", "data-space": index, "data-kind": "start", transform: `translate(${start.x} ${start.y})`, role: "img", "aria-label": name },
          s("rect", { class: "shape", x: -start.width / 2, y: -start.height / 2, width: start.width, height: start.height, rx: 16 }),
          s("text", { class: "space-name", y: start.height / 2 - 6 }, t("md.start")));
      }
      return s("g", { class: `space kind-${space.kind}`, "data-space": index, "data-kind": space.kind, transform: `translate(${at.x} ${at.y})`, role: "img", "aria-label": name },
        spaceShape(space.kind),
        s("text", { class: "space-value", y: space.kind === "summit" ? 12 : 6 }, space.value < 0 ? `−${-space.value}` : space.value));
    }),
    [...byIndex.entries()].flatMap(([index, dragons]) => {
      const center = centers[index];
      if (!center) return [];
      const places = cluster(dragons.length, index === 0);
      return dragons.map((dragon, i) => {
        const p = places[i]!;
        const seat = drawing.riders[dragon];
        return s("g", { class: "dragon-place", transform: `translate(${(center.x + p.x).toFixed(1)} ${(center.y + p.y).toFixed(1)}) scale(${SCALE})` },
          dragonToken(dragon, seat ?? null, dragon === drawing.own, { role: "img", "aria-label": label(dragon, index) }));
      });
    }),
  );
}

/** The dragons that moved climb (or, in a replay backwards, descend) their path space by space;
 * the ones whose rider changed pulse once they stand still. */
export function animateTrack(svg: SVGSVGElement, layout: TrackLayout, before: Record<string, number>, after: Record<string, number>): number {
  let longest = 0;
  for (const [dragon, to] of Object.entries(after)) {
    const from = before[dragon];
    if (from === undefined || from === to) continue;
    const token = svg.querySelector<SVGGElement>(`[data-dragon="${dragon}"]`);
    const place = token?.parentNode as SVGGElement | null;
    const end = place?.transform.baseVal.consolidate()?.matrix;
    if (!token || !end) continue;
    const step = to > from ? 1 : -1;
    const frames: Keyframe[] = [];
    const stand = (index: number): Point => {
      const c = layout.centers[index]!;
      return index === 0 ? { x: c.x, y: c.y - 22 } : { x: c.x, y: c.y - LIFT };
    };
    for (let i = from; i !== to + step; i += step) {
      const p = i === to ? { x: end.e, y: end.f } : stand(i);
      const frame = { transform: `translate(${((p.x - end.e) / end.a).toFixed(1)}px, ${((p.y - end.f) / end.a).toFixed(1)}px)` };
      if (i !== from) {
        // a hop between two spaces
        const q = stand(i - step);
        frames.push({ transform: `translate(${(((p.x + q.x) / 2 - end.e) / end.a).toFixed(1)}px, ${(((p.y + q.y) / 2 - end.f - 18) / end.a).toFixed(1)}px)` });
      }
      frames.push(frame);
    }
    const steps = Math.abs(to - from);
    const duration = Math.min(220 * steps, 2400);
    longest = Math.max(longest, duration);
    play(token, frames, { duration, easing: "linear" });
  }
  return longest;
}
