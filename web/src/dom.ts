/**
 * A tiny DOM builder: `h("button", { class: "x", onclick: f }, "Play")`. Every component of the page
 * is a function from state to nodes built with it; there is no framework and no virtual DOM.
 */

export type Child = Node | string | number | null | undefined | false | readonly Child[];
type Handler = (event: Event) => void;
export type Props = Record<string, string | number | boolean | null | undefined | Handler>;

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, props: Props = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(props)) {
    if (value === null || value === undefined || value === false) continue;
    if (typeof value === "function") element.addEventListener(name.replace(/^on/, ""), value);
    else if (name === "value" && "value" in element) (element as HTMLInputElement).value = String(value);
    else if (name === "checked" && element instanceof HTMLInputElement) element.checked = Boolean(value);
    else element.setAttribute(name, value === true ? "" : String(value));
  }
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

// The `data-key` of the element focused last: a control disabled while an action is on its way
// loses the focus to <body>, and a keyboard user must get it back when it is drawn again.
let focusedKey: string | undefined;
document.addEventListener("focusin", (event) => {
  focusedKey = event.target instanceof HTMLElement ? event.target.dataset.key : undefined;
});

/** Replace the children of `parent`, keeping the focus on the element with the same `data-key`. */
export function replaceChildren(parent: HTMLElement, ...children: Child[]): void {
  const active = document.activeElement;
  const inside = active instanceof HTMLElement && parent.contains(active);
  const key = inside ? active.dataset.key : active === document.body || active === null ? focusedKey : undefined;
  parent.replaceChildren();
  append(parent, children);
  if (key) parent.querySelector<HTMLElement>(`[data-key="${CSS.escape(key)}"]`)?.focus();
}

/** A labelled form field: `<label>text <control></label>`. */
export function field(text: string, control: HTMLElement, hint?: string): HTMLLabelElement {
  return h("label", { class: "field" }, h("span", {}, text), control, hint ? h("small", {}, hint) : null);
}

export const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;
