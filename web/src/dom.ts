/**
 * A tiny DOM builder: `h("button", { class: "x", onclick: f }, "Play")` for HTML and
 * `s("circle", { r: 4 })` for SVG. Every component of the page is a function from state to nodes
 * built with them; there is no framework and no virtual DOM.
 */

export type Child = Node | string | number | null | undefined | false | readonly Child[];
type Handler = (event: Event) => void;
export type Props = Record<string, string | number | boolean | null | undefined | Handler>;

const SVG = "http://www.w3.org/2000/svg";

function apply(element: Element, props: Props): void {
  for (const [name, value] of Object.entries(props)) {
    if (value === null || value === undefined || value === false) continue;
    if (typeof value === "function") element.addEventListener(name.replace(/^on/, ""), value);
    else if (name === "value" && "value" in element) (element as HTMLInputElement).value = String(value);
    else if (name === "checked" && element instanceof HTMLInputElement) element.checked = Boolean(value);
    else element.setAttribute(name, value === true ? "" : String(value));
  }
}

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, props: Props = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  apply(element, props);
  append(element, children);
  return element;
}

/** An SVG element (attributes as given: `viewBox`, `transform`, `aria-label`…). */
export function s<K extends keyof SVGElementTagNameMap>(tag: K, props: Props = {}, ...children: Child[]): SVGElementTagNameMap[K] {
  const element = document.createElementNS(SVG, tag);
  apply(element, props);
  append(element, children);
  return element;
}

function append(parent: Node, children: readonly Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(parent, child);
    else parent.appendChild(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** A button with a visible label and (when the label is a symbol or ambiguous) an accessible name. */
export function button(label: Child, onClick: () => void, props: Props = {}): HTMLButtonElement {
  return h("button", { type: "button", ...props, onclick: () => onClick() }, label);
}

/** Enter and Space activate an SVG element drawn as a button (`role="button"`, `tabindex="0"`). */
export function svgButton(element: SVGElement, onClick: () => void): SVGElement {
  element.addEventListener("click", () => onClick());
  element.addEventListener("keydown", (event) => {
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      onClick();
    }
  });
  return element;
}

type Focusable = HTMLElement | SVGElement;
const focusable = (e: Element | null): e is Focusable => e instanceof HTMLElement || e instanceof SVGElement;

// The `data-key` (and `data-group`) of the element focused last: a control redrawn after an action
// or a commit must keep the keyboard where it was. Board controls (those with a `data-group`: the
// hand, the decisions, tiles, islands) go further: when the control is gone or cannot be used now
// while another legal action can, the focus moves to that action (the rider choice after a card,
// the tile to reveal after the opponent's dynamite); when nothing can be done, it rests in the hand.
let focusedKey: string | undefined;
let focusedGroup: string | undefined;
document.addEventListener("focusin", (event) => {
  const target = event.target as Element | null;
  focusedKey = focusable(target) ? target.dataset.key : undefined;
  focusedGroup = focusable(target) ? target.dataset.group : undefined;
});

const ENABLED = ':not([aria-disabled="true"])';

function refocus(parent: Element, key: string | undefined, group: string | undefined): void {
  if (!key) return;
  const find = (selector: string) => parent.querySelector<Focusable>(selector);
  const same = find(`[data-key="${CSS.escape(key)}"]`);
  // The same control keeps the focus where the page is scrolled to; another one is shown.
  const focus = (target: Focusable | null) => target?.focus({ preventScroll: target === same });
  if (!group) return focus(same);
  const inGroup = `[data-group="${CSS.escape(group)}"]`;
  const usable = same && same.getAttribute("aria-disabled") !== "true" ? same : null;
  focus(usable ?? find(inGroup + ENABLED) ?? find(`[data-legal]${ENABLED}`) ?? same ?? find(inGroup) ?? find('[data-group="hand"]'));
}

/** Replace the children of `parent`, keeping the focus on the element with the same `data-key`. */
export function replaceChildren(parent: HTMLElement, ...children: Child[]): void {
  const active = document.activeElement;
  const inside = focusable(active) && parent.contains(active);
  const idle = active === document.body || active === null;
  const key = inside ? active.dataset.key : idle ? focusedKey : undefined;
  const group = inside ? active.dataset.group : idle ? focusedGroup : undefined;
  parent.replaceChildren();
  append(parent, children);
  if (!parent.isConnected) return;
  refocus(parent, key, group);
}

/** A labelled form field: a label, its control and an optional hint the control is described by. */
export function field(text: Child, control: HTMLElement, hint?: Child): HTMLElement {
  const id = control.id;
  if (!id) return h("label", { class: "field" }, h("span", { class: "label" }, text), control, hint ? h("small", {}, hint) : null);
  if (hint) control.setAttribute("aria-describedby", `${id}-hint`);
  return h("div", { class: "field" }, h("label", { for: id, class: "label" }, text), control, hint ? h("small", { id: `${id}-hint` }, hint) : null);
}
