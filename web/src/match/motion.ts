/**
 * Motion for the boards: what changed between the board shown before and the one shown now is
 * animated (a dragon climbing space by space, a card flying from a hand, a tile turning over, a
 * score counting), live, in the history's replay and on the replay slider alike. Everything goes
 * through the Web Animations API — allowed by the page's Content-Security-Policy, unlike inline
 * styles — and nothing moves when the person asked for reduced motion.
 */

const reduce = window.matchMedia("(prefers-reduced-motion: reduce)");

export const reducedMotion = (): boolean => reduce.matches;

/** Run an animation unless motion is reduced. */
export function play(element: Element, keyframes: Keyframe[], options: KeyframeAnimationOptions): Animation | null {
  if (reduce.matches || typeof element.animate !== "function") return null;
  return element.animate(keyframes, { fill: "backwards", ...options });
}

/** Where the pieces that can fly (`data-fly`: hand cards, seat panels) were, before a redraw. */
export type Places = Map<string, DOMRect>;

export function capture(root: ParentNode): Places {
  const places: Places = new Map();
  if (reduce.matches) return places;
  for (const element of root.querySelectorAll<Element>("[data-fly]")) {
    const rect = element.getBoundingClientRect();
    if (rect.width > 0) places.set((element as HTMLElement).dataset.fly!, rect);
  }
  return places;
}

/** Screen pixels per user unit of the SVG an element is drawn in (1 for HTML). */
function scaleOf(element: Element): number {
  const svg = element instanceof SVGElement ? element.ownerSVGElement : null;
  const box = svg?.viewBox.baseVal;
  if (!svg || !box || box.width === 0) return 1;
  return svg.getBoundingClientRect().width / box.width;
}

/** Move `element` from where `from` was to where it is drawn now (a card leaving a hand). */
export function flyFrom(element: Element | null, from: DOMRect | undefined, duration = 520): void {
  if (!element || !from) return;
  const to = element.getBoundingClientRect();
  const scale = scaleOf(element);
  const dx = (from.left + from.width / 2 - (to.left + to.width / 2)) / scale;
  const dy = (from.top + from.height / 2 - (to.top + to.height / 2)) / scale;
  play(element, [
    { transform: `translate(${dx}px, ${dy}px) scale(1.15)`, opacity: 0.6 },
    { transform: "translate(0px, 0px) scale(1)", opacity: 1 },
  ], { duration, easing: "cubic-bezier(.2,.7,.3,1)" });
}

/** A short "look here": grow and settle. */
export function pulse(element: Element | null, delay = 0): void {
  if (!element) return;
  play(element, [{ transform: "scale(1)" }, { transform: "scale(1.35)" }, { transform: "scale(1)" }], { duration: 600, delay, easing: "ease-in-out" });
}

/** Appear: fade and grow in. */
export function popIn(element: Element | null, delay = 0): void {
  if (!element) return;
  play(element, [{ opacity: 0, transform: "scale(.6)" }, { opacity: 1, transform: "scale(1)" }], { duration: 380, delay, easing: "ease-out" });
}

/** Turn over (a tile): its face narrows to an edge and opens again. */
export function flip(element: Element | null, delay = 0): void {
  if (!element) return;
  play(element, [{ transform: "scaleX(1)" }, { transform: "scaleX(0.05)", offset: 0.45 }, { transform: "scaleX(1)" }], { duration: 640, delay, easing: "ease-in-out" });
}

/** A number that floats up from `anchor` and fades ("+3"), removed when done; none when reduced. */
export function floatText(anchor: Element | null, text: string, delay = 0): void {
  if (!anchor || reduce.matches) return;
  const bubble = document.createElement("span");
  bubble.className = "float";
  bubble.setAttribute("aria-hidden", "true");
  bubble.textContent = text;
  anchor.appendChild(bubble);
  const animation = bubble.animate([
    { opacity: 0, transform: "translateY(0)" },
    { opacity: 1, transform: "translateY(-0.6em)", offset: 0.2 },
    { opacity: 0, transform: "translateY(-1.8em)" },
  ], { duration: 1400, delay, fill: "both", easing: "ease-out" });
  animation.finished.then(() => bubble.remove(), () => bubble.remove());
}

/** A line that just arrived (the history): a brief highlight. */
export function highlight(element: Element | null): void {
  if (!element) return;
  play(element, [{ backgroundColor: "#ffe08a" }, { backgroundColor: "transparent" }], { duration: 1600, easing: "ease-out" });
}
